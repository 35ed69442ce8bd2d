"""A fake OpenAI / Voyage server for tests: a real local HTTP server, scriptable replies and faults.

Registered as a pytest plugin in tests/conftest.py, so every test can use these fixtures:

    fake_openai        a running FakeOpenAI (function scoped; stopped after the test)
    openai_backend     fake_openai with settings pointed at it: LLM_BACKEND=openai, LLM_BASE_URL,
                       LLM_API_KEY, fast timeouts/retries, EMBEDDING_BACKEND=openai (EMBEDDING_DIM is
                       left alone so vectors still fit the database column). Returns the FakeOpenAI.
    voyage_backend     fake_openai with EMBEDDING_BACKEND=voyage pointed at its Voyage endpoint.

FakeOpenAI API (stable; other areas' tests rely on it):

    fake.url            base URL of the OpenAI-compatible API, e.g. "http://127.0.0.1:PORT/v1"
    fake.voyage_url     base URL of the Voyage API, e.g. "http://127.0.0.1:PORT/voyage/v1"
    fake.configure(settings, *, llm=True, embeddings="openai" | "voyage" | None, timeout=2.0, max_retries=1)
                        points pytest-django's `settings` at the server (what the fixtures above do).

  Scripting (each queued reply is used by exactly one request to that endpoint, in order; when the
  queue is empty the default responder answers):
    fake.queue_chat(content=None, *, tool_calls=None, finish_reason=None, usage=None, status=200,
                    headers=None)
        content: str, or a dict/list that is sent as JSON text. tool_calls: [("recall_memory",
        {"query": "dog"}), ...] (arguments may be a dict or a raw string).
    fake.queue_error(status=500, *, endpoint="chat", body=None, headers=None, times=1)
        any HTTP error status; 5xx/429 carry "retry-after-ms: 10" unless headers say otherwise, so
        the openai SDK's own retries stay fast in tests (the voyageai SDK ignores it and waits ~1 s).
        Bodies follow the endpoint's error format ({"error": {...}} for OpenAI, {"detail": ...} for Voyage).
    fake.queue_rate_limit(*, retry_after=None, endpoint="chat", times=1)
        429; retry_after (seconds) sends a "retry-after" header instead of the fast default.
    fake.queue_hang(seconds=3.0, *, endpoint="chat", times=1)
        accept the request and answer nothing for `seconds` (use a smaller LLM_TIMEOUT).
    fake.queue_truncated(obj, *, keep=0.6)     JSON cut at `keep` of its length, finish_reason "length"
    fake.queue_prose(text=...)                 a chatty answer with no JSON in it
    fake.queue_embeddings(vectors, *, endpoint="embeddings" | "voyage", usage_tokens=None)
    fake.set_chat_responder(fn)                fn(request) -> same kinds of value as queue_chat's content,
                                               or a Reply; replaces the default responder
  endpoint names: "chat" (POST /v1/chat/completions), "embeddings" (POST /v1/embeddings),
  "voyage" (POST /voyage/v1/embeddings).

  Default responder (queue empty): chat answers a valid, empty-ish JSON for the task named in the
  request's json_schema (or guessed from the system prompt): extract → normal, no candidates,
  compare → every statement "new", merge → the first statement, narrate → a short sentence; requests
  without a response format (reply) get "OK.". Embeddings answer deterministic vectors from the local
  embedder with the requested `dimensions` / `output_dimension` (default 512), so similar texts stay
  similar.

  Inspection:
    fake.requests                 every request: Recorded(method, path, headers, body, endpoint)
    fake.chat_requests / fake.embedding_requests / fake.voyage_requests   filtered lists
    Recorded.body is the parsed JSON; Recorded.messages (chat) is body["messages"];
    Recorded.text() is every message content joined (to assert what left the machine).
    fake.reset()                  clear queues and recorded requests
"""
from __future__ import annotations

import json
import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import pytest
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

FAST_RETRY_HEADERS = {"retry-after-ms": "10"}


@dataclass
class Reply:
    """One scripted HTTP answer."""

    status: int = 200
    body: Any = None  # dict → JSON; str/bytes → sent as is
    headers: dict[str, str] = field(default_factory=dict)
    hang: float = 0.0  # seconds to wait before answering (the client should time out first)


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: Any
    endpoint: str

    @property
    def messages(self) -> list[dict]:
        return (self.body or {}).get("messages", []) if isinstance(self.body, dict) else []

    @property
    def model(self) -> str | None:
        return self.body.get("model") if isinstance(self.body, dict) else None

    def text(self) -> str:
        """Every string that was sent in the messages / input, joined: what left the machine."""
        if not isinstance(self.body, dict):
            return str(self.body)
        parts: list[str] = []
        for message in self.messages:
            content = message.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(str(p.get("text", "")) for p in content if isinstance(p, dict))
        inputs = self.body.get("input")
        if isinstance(inputs, str):
            parts.append(inputs)
        elif isinstance(inputs, list):
            parts.extend(str(i) for i in inputs)
        return "\n".join(parts)


def _approx_tokens(text: str) -> int:
    return max(1, len(text) // 4)


def chat_completion(content: str | None, *, model: str = "fake-model", tool_calls=None,
                    finish_reason: str | None = None, usage: dict | None = None, prompt_text: str = "") -> dict:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = [
            {
                "id": f"call_{i}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
            for i, (name, arguments) in enumerate(tool_calls)
        ]
    if usage is None:
        prompt_tokens = _approx_tokens(prompt_text)
        completion_tokens = _approx_tokens(content or "") if content else 5
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                 "total_tokens": prompt_tokens + completion_tokens}
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{
            "index": 0,
            "message": message,
            "finish_reason": finish_reason or ("tool_calls" if tool_calls else "stop"),
            "logprobs": None,
        }],
        "usage": usage,
    }


def _as_content(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _task_of(body: dict) -> str:
    response_format = body.get("response_format") or {}
    name = ((response_format.get("json_schema") or {}).get("name") or "") if isinstance(response_format, dict) else ""
    if name:
        return name
    system = " ".join(m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "system")
    for task in ("extract", "compare", "merge", "narrate"):
        if f"TASK: {task}" in system:
            return task
    return "reply"


def default_chat_answer(body: dict) -> str:
    task = _task_of(body)
    if task == "extract":
        return json.dumps({"kind": "normal", "reason": "fake server default", "candidates": []})
    if task == "compare":
        user_text = " ".join(m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "user")
        count = user_text.count("<candidate index=")
        return json.dumps({"results": [
            {"index": i, "relation": "new", "memory_id": None, "reason": "fake"} for i in range(count)
        ]})
    if task == "merge":
        user_text = " ".join(m.get("content") or "" for m in body.get("messages", []) if m.get("role") == "user")
        first = user_text.split("\n- ", 1)[1].split("\n", 1)[0] if "\n- " in user_text else "merged"
        return json.dumps({"statement": first}, ensure_ascii=False)
    if task == "narrate":
        return json.dumps({"narrative": "A quiet night."})
    return "OK."


def _adopt_embedding_space() -> None:
    """The test database holds no vectors yet: the configured embedder is the one they will be made
    with (what the guard does on first use; done here because tests also store vectors directly)."""
    from dreaming.providers import embedding_space

    embedding_space._matching.clear()
    try:
        embedding_space.embedding_space_record()
    except RuntimeError:  # a test without database access: nothing to record
        pass


def _embedding_vectors(texts: list[str], dimensions: int) -> list[list[float]]:
    from dreaming.providers.local_embedder import LocalEmbedder

    return LocalEmbedder(dimensions=dimensions).embed(texts)


class FakeOpenAI:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self._queues: dict[str, list[Reply]] = {"chat": [], "embeddings": [], "voyage": []}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._chat_responder: Callable[[Recorded], Any] | None = None
        # pytest-httpserver (werkzeug) is the transport; one catch-all handler routes by path, so the
        # replies, queues and recordings below stay ours.
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no access line per request
        self._server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
        self._server.expect_request(re.compile(".*"), method="POST").respond_with_handler(self._respond)
        self._server.expect_request(re.compile(".*")).respond_with_handler(self._respond)

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> "FakeOpenAI":
        self._server.start()  # the port is chosen here
        self.url = self._server.url_for("/v1")
        self.voyage_url = self._server.url_for("/voyage/v1")
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes hanging handlers
        self._server.stop()

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            for queue in self._queues.values():
                queue.clear()

    def configure(self, settings, *, llm: bool = True, embeddings: str | None = "openai",
                  timeout: float = 2.0, max_retries: int = 1) -> "FakeOpenAI":
        if llm:
            settings.LLM_BACKEND = "openai"
            settings.LLM_BASE_URL = self.url
            settings.LLM_API_KEY = "sk-fake-test-key"
            settings.LLM_TIMEOUT = timeout
            settings.LLM_MAX_RETRIES = max_retries
        if embeddings == "openai":
            settings.EMBEDDING_BACKEND = "openai"
            settings.EMBEDDING_BASE_URL = self.url
            settings.EMBEDDING_API_KEY = "sk-fake-test-key"
            settings.EMBEDDING_MODEL = "text-embedding-3-small"
        elif embeddings == "voyage":
            settings.EMBEDDING_BACKEND = "voyage"
            settings.VOYAGE_BASE_URL = self.voyage_url
            settings.VOYAGE_API_KEY = "pa-fake-test-key"
            settings.EMBEDDING_MODEL = "voyage-3.5-lite"
        if embeddings:
            settings.EMBEDDING_TIMEOUT = timeout
            settings.EMBEDDING_MAX_RETRIES = max_retries
            _adopt_embedding_space()
        return self

    # --- scripting -------------------------------------------------------------------------
    def _push(self, endpoint: str, reply: Reply, times: int = 1) -> None:
        if endpoint not in self._queues:
            raise ValueError(f"unknown endpoint {endpoint!r}; use one of {sorted(self._queues)}")
        with self._lock:
            self._queues[endpoint].extend(Reply(reply.status, reply.body, dict(reply.headers), reply.hang) for _ in range(times))

    def queue_chat(self, content: Any = None, *, tool_calls=None, finish_reason: str | None = None,
                   usage: dict | None = None, status: int = 200, headers: dict | None = None, times: int = 1) -> None:
        marker = {"content": _as_content(content), "tool_calls": tool_calls, "finish_reason": finish_reason, "usage": usage}
        self._push("chat", Reply(status, {"__chat__": marker}, headers or {}), times)

    def queue_error(self, status: int = 500, *, endpoint: str = "chat", body: Any = None,
                    headers: dict | None = None, times: int = 1) -> None:
        if headers is None:
            headers = dict(FAST_RETRY_HEADERS) if status == 429 or status >= 500 else {}
        if body is None and endpoint == "voyage":
            body = {"detail": f"fake error {status}"}  # Voyage's error format
        elif body is None:
            body = {"error": {"message": f"fake error {status}", "type": "server_error" if status >= 500 else "invalid_request_error",
                              "code": None}}
        self._push(endpoint, Reply(status, body, headers), times)

    def queue_rate_limit(self, *, retry_after: float | None = None, endpoint: str = "chat", times: int = 1) -> None:
        headers = {"retry-after": str(retry_after)} if retry_after is not None else dict(FAST_RETRY_HEADERS)
        body = {"error": {"message": "Rate limit reached", "type": "rate_limit_error", "code": "rate_limit_exceeded"}}
        if endpoint == "voyage":
            body = {"detail": "Rate limit reached"}
        self._push(endpoint, Reply(429, body, headers), times)

    def queue_hang(self, seconds: float = 3.0, *, endpoint: str = "chat", times: int = 1) -> None:
        self._push(endpoint, Reply(200, {"__chat__": {"content": "too late"}} if endpoint == "chat" else {}, {}, hang=seconds), times)

    def queue_truncated(self, obj: Any, *, keep: float = 0.6) -> None:
        text = _as_content(obj) or ""
        self.queue_chat(text[: max(1, int(len(text) * keep))], finish_reason="length")

    def queue_prose(self, text: str = "Sure! I looked at the conversation and the user seems nice. Let me know if you need anything else.") -> None:
        self.queue_chat(text)

    def queue_embeddings(self, vectors: list[list[float]], *, endpoint: str = "embeddings",
                         usage_tokens: int | None = None) -> None:
        body = {
            "object": "list",
            "data": [{"object": "embedding", "embedding": v, "index": i} for i, v in enumerate(vectors)],
            "model": "fake-embedding",
            "usage": {"prompt_tokens": usage_tokens or len(vectors), "total_tokens": usage_tokens or len(vectors)},
        }
        self._push(endpoint, Reply(200, body))

    def set_chat_responder(self, fn: Callable[[Recorded], Any] | None) -> None:
        self._chat_responder = fn

    # --- inspection ------------------------------------------------------------------------
    @property
    def chat_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.endpoint == "chat"]

    @property
    def embedding_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.endpoint == "embeddings"]

    @property
    def voyage_requests(self) -> list[Recorded]:
        return [r for r in self.requests if r.endpoint == "voyage"]

    # --- serving ---------------------------------------------------------------------------
    def _next(self, endpoint: str) -> Reply | None:
        with self._lock:
            queue = self._queues[endpoint]
            return queue.pop(0) if queue else None

    def _answer(self, recorded: Recorded) -> Reply:
        reply = self._next(recorded.endpoint)
        body = recorded.body if isinstance(recorded.body, dict) else {}
        if recorded.endpoint == "chat":
            prompt_text = recorded.text()
            model = body.get("model") or "fake-model"
            if reply is None:
                value = self._chat_responder(recorded) if self._chat_responder else default_chat_answer(body)
                reply = value if isinstance(value, Reply) else Reply(200, {"__chat__": {"content": _as_content(value)}})
            if isinstance(reply.body, dict) and "__chat__" in reply.body:
                spec = reply.body["__chat__"]
                reply = Reply(reply.status, chat_completion(
                    spec.get("content"), model=model, tool_calls=spec.get("tool_calls"),
                    finish_reason=spec.get("finish_reason"), usage=spec.get("usage"), prompt_text=prompt_text,
                ), reply.headers, reply.hang)
            return reply
        if reply is not None and (reply.status != 200 or reply.body or reply.hang):
            if reply.body == {} and reply.hang:
                reply.body = self._embedding_body(recorded)
            return reply
        return Reply(200, self._embedding_body(recorded))

    def _embedding_body(self, recorded: Recorded) -> dict:
        body = recorded.body if isinstance(recorded.body, dict) else {}
        texts = body.get("input") or []
        if isinstance(texts, str):
            texts = [texts]
        dimensions = body.get("dimensions") or body.get("output_dimension") or 512
        vectors = _embedding_vectors([str(t) for t in texts], int(dimensions))
        if body.get("encoding_format") == "base64":
            import base64

            import numpy as np

            encoded = [base64.b64encode(np.asarray(v, dtype=np.float32).tobytes()).decode() for v in vectors]
            data = [{"object": "embedding", "embedding": e, "index": i} for i, e in enumerate(encoded)]
        else:
            data = [{"object": "embedding", "embedding": v, "index": i} for i, v in enumerate(vectors)]
        tokens = sum(_approx_tokens(str(t)) for t in texts)
        return {"object": "list", "data": data, "model": body.get("model") or "fake-embedding",
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}

    def _respond(self, request: Request) -> Response:
        raw = request.get_data()
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = raw.decode("utf-8", "replace")
        path = request.path.rstrip("/")
        if path.endswith("/voyage/v1/embeddings"):
            endpoint = "voyage"
        elif path.endswith("/chat/completions"):
            endpoint = "chat"
        elif path.endswith("/embeddings"):
            endpoint = "embeddings"
        else:
            return self._response(Reply(404, {"error": {"message": f"no route {path}"}}))
        recorded = Recorded(request.method, path, {k.lower(): v for k, v in request.headers.items()}, body, endpoint)
        with self._lock:
            self.requests.append(recorded)
        reply = self._answer(recorded)
        if reply.hang:
            self._stopping.wait(reply.hang)
        return self._response(reply)

    @staticmethod
    def _response(reply: Reply) -> Response:
        if isinstance(reply.body, (dict, list)):
            payload, content_type = json.dumps(reply.body, ensure_ascii=False).encode(), "application/json"
        elif isinstance(reply.body, bytes):
            payload, content_type = reply.body, "application/octet-stream"
        else:
            payload, content_type = str(reply.body or "").encode(), "text/plain; charset=utf-8"
        return Response(payload, status=reply.status, headers={"content-type": content_type, **reply.headers})


@pytest.fixture
def fake_openai():
    fake = FakeOpenAI().start()
    yield fake
    fake.stop()


@pytest.fixture
def openai_backend(fake_openai, settings):
    return fake_openai.configure(settings, llm=True, embeddings="openai")


@pytest.fixture
def voyage_backend(fake_openai, settings):
    return fake_openai.configure(settings, llm=False, embeddings="voyage")
