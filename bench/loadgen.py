"""A bounded HTTP load from a second process: a fixed number of requests, a fixed concurrency.

    python -m bench.loadgen --base URL --kind append|health --requests N --concurrency C [--sessions ID,ID,...]

The API key comes from the BENCH_API_KEY environment variable (never the command line). Each worker
thread opens a fresh loopback connection per request (like a client without keep-alive). Prints one
JSON object: requests, errors, seconds, requests_per_second, latency percentiles (ms), status counts.
No Django here: this process only speaks HTTP.
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import threading
import time
from collections import Counter
from urllib.parse import urlparse


def _percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[max(1, math.ceil(p / 100 * len(ordered))) - 1] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--kind", choices=("append", "health"), required=True)
    parser.add_argument("--requests", type=int, required=True)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--sessions", default="")
    parser.add_argument("--tag", default="run")
    args = parser.parse_args()
    url = urlparse(args.base)
    key = os.environ.get("BENCH_API_KEY", "")
    sessions = [s for s in args.sessions.split(",") if s]
    next_index = iter(range(args.requests))
    lock = threading.Lock()
    latencies: list[float] = []
    statuses: Counter = Counter()

    def request(i: int) -> tuple[int, float]:
        if args.kind == "append":
            session = sessions[i % len(sessions)]
            path = f"/api/v1/sessions/{session}/messages"
            body = json.dumps({"messages": [
                {"role": "user", "content": f"Message {i}: I walked the dog by the river today.", "external_id": f"{args.tag}-{i}-u"},
                {"role": "assistant", "content": "That sounds lovely. How was the weather?", "external_id": f"{args.tag}-{i}-a"},
            ]})
            method, headers = "POST", {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        else:
            path, body, method, headers = "/healthz?only=database", None, "GET", {}
        started = time.perf_counter()
        connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
        except OSError:
            status = 0
        finally:
            connection.close()
        return status, time.perf_counter() - started

    def worker() -> None:
        while True:
            with lock:
                i = next(next_index, None)
            if i is None:
                return
            status, seconds = request(i)
            with lock:
                statuses[status] += 1
                latencies.append(seconds)

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    ok = sum(n for status, n in statuses.items() if 200 <= status < 300)
    print(json.dumps({
        "requests": args.requests, "ok": ok, "errors": args.requests - ok, "seconds": seconds,
        "requests_per_second": args.requests / seconds, "concurrency": args.concurrency,
        "p50_ms": 1000 * _percentile(latencies, 50), "p95_ms": 1000 * _percentile(latencies, 95),
        "statuses": {str(k): v for k, v in statuses.items()},
    }))


if __name__ == "__main__":
    main()
