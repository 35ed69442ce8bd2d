import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from memcenter.management.commands.serve import Supervisor, serve_commands
from tests.support.processes import process_descendants

SLEEPER = [sys.executable, "-c", "import time; time.sleep(60)"]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_serve_runs_the_web_server_and_the_cluster():
    commands = serve_commands(addr="127.0.0.1:9999", python="/py", manage="/m.py")
    assert commands == {"web": ["/py", "/m.py", "runserver", "--noreload", "127.0.0.1:9999"],
                        "qcluster": ["/py", "/m.py", "qcluster"]}


def test_supervisor_stops_every_child_when_asked():
    supervisor = Supervisor({"a": SLEEPER, "b": SLEEPER}, grace_seconds=5)
    supervisor.start()
    pids = [p.pid for p in supervisor.processes.values()]
    assert all(_alive(pid) for pid in pids)
    supervisor.request_stop()
    assert supervisor.wait() is None
    codes = supervisor.stop()
    # -SIGINT, or 1 when the interrupt lands while Python is still starting up.
    assert set(codes) == {"a", "b"} and all(code in (-signal.SIGINT, 1) for code in codes.values())
    assert not any(_alive(pid) for pid in pids)


def test_supervisor_stops_the_rest_when_one_child_dies():
    supervisor = Supervisor({"dies": [sys.executable, "-c", "raise SystemExit(3)"], "sleeps": SLEEPER}, grace_seconds=5)
    supervisor.start()
    assert supervisor.wait() == "dies"
    codes = supervisor.stop()
    assert codes["dies"] == 3 and codes["sleeps"] in (-signal.SIGINT, 1)


def test_supervisor_kills_a_child_that_ignores_the_stop_signal():
    stubborn = [sys.executable, "-c", "import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); print('ready', flush=True); time.sleep(60)"]
    supervisor = Supervisor({"stubborn": stubborn}, grace_seconds=0.5)
    supervisor.processes["stubborn"] = subprocess.Popen(stubborn, stdout=subprocess.PIPE, start_new_session=True)
    assert supervisor.processes["stubborn"].stdout.readline().strip() == b"ready"
    assert supervisor.stop() == {"stubborn": -signal.SIGKILL}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_serve_starts_both_and_sigterm_leaves_no_process_running(transactional_db):
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict  # the test database, so the children see the migrated schema
    auth = f"{quote(db['USER'])}:{quote(db['PASSWORD'])}"
    if db["HOST"].startswith("/"):
        url = f"postgresql://{auth}@/{db['NAME']}?host={quote(db['HOST'])}" + (f"&port={db['PORT']}" if db["PORT"] else "")
    else:
        url = f"postgresql://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "1", "Q_WORKERS": "1"}
    serve = subprocess.Popen(
        [sys.executable, str(settings.BASE_DIR / "manage.py"), "serve", "--addr", f"127.0.0.1:{port}"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline, status = time.monotonic() + 30, None
        while time.monotonic() < deadline and status is None:
            try:
                status = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/openapi.json", timeout=2).status
            except OSError:
                time.sleep(0.3)
        assert status == 200
        family = process_descendants(serve.pid)
        commands = {Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ") for pid in family}
        assert any(b"runserver" in c for c in commands) and any(b"qcluster" in c for c in commands)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=25) == 0
        time.sleep(0.5)
        assert [pid for pid in family if _alive(pid)] == []
    finally:
        if serve.poll() is None:
            for pid in process_descendants(serve.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            serve.kill()
            serve.wait()


def test_children_stop_on_the_signal_even_when_serve_itself_ignores_it():
    # A serve started in the background by a script (`manage.py serve &`) ignores SIGINT, and an ignored
    # signal survives exec: the children must still take it, not sit out the grace period and be killed.
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        supervisor = Supervisor({"a": SLEEPER}, grace_seconds=5)
        supervisor.start()
    finally:
        signal.signal(signal.SIGINT, previous)
    time.sleep(0.5)
    codes = supervisor.stop()
    assert codes["a"] in (-signal.SIGINT, 1)
