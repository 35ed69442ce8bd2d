"""Run the web server and the django-q2 cluster together; Ctrl-C or SIGTERM stops both.

`serve` is for development (Django's runserver). `serve --prod` collects the static files, then runs
gunicorn (WEB_CONCURRENCY workers; static files through whitenoise) and Q_CLUSTERS django-q2
clusters: the way to run one host for real (docs/deploy.md).

Both run as child processes in their own session, so this process alone decides how they stop:
SIGINT to each, a grace period, then SIGKILL. SIGINT rather than SIGTERM because Python exits
cleanly on it (KeyboardInterrupt, atexit handlers run) while SIGTERM kills runserver outright — and
the embedded Postgres is stopped by the atexit handler of the last process using it, so a child
that skips atexit would leave Postgres running.
"""
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.management import call_command, get_commands
from django.core.management.base import BaseCommand, CommandError
from django.db import connections

GRACE_SECONDS = 15.0
STOP_SIGNAL = signal.SIGINT
POLL_SECONDS = 0.3


def _child_before_exec() -> None:
    # The stop signal must reach each child's Python: a process started in the background by a
    # non-interactive shell (`serve &` in a script) ignores SIGINT, and an ignored signal is inherited
    # across exec — the children would sit out the grace period and be killed.
    signal.signal(STOP_SIGNAL, signal.SIG_DFL)
    # Linux only: if `serve` is SIGKILLed, the kernel sends the children the stop signal instead
    # of leaving them orphaned (they still hold the embedded Postgres open).
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, STOP_SIGNAL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


@dataclass
class Supervisor:
    """Starts named commands, watches them, and stops them all when one exits or on request."""

    commands: dict[str, list[str]]
    grace_seconds: float = GRACE_SECONDS
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    stopping: bool = False

    def start(self) -> None:
        for name, argv in self.commands.items():
            self.processes[name] = subprocess.Popen(argv, start_new_session=True, preexec_fn=_child_before_exec)

    def request_stop(self, *_args) -> None:
        self.stopping = True

    def first_exited(self) -> str | None:
        return next((name for name, p in self.processes.items() if p.poll() is not None), None)

    def wait(self) -> str | None:
        """Block until a stop is requested or a child exits; returns the name of the exited child."""
        while not self.stopping:
            exited = self.first_exited()
            if exited is not None:
                return exited
            time.sleep(POLL_SECONDS)
        return None

    def stop(self) -> dict[str, int]:
        running = [p for p in self.processes.values() if p.poll() is None]
        for p in running:
            p.send_signal(STOP_SIGNAL)
        deadline = time.monotonic() + self.grace_seconds
        for p in running:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        return {name: p.returncode for name, p in self.processes.items()}


def serve_commands(*, addr: str, python: str = sys.executable, manage: str | None = None) -> dict[str, list[str]]:
    manage = manage or str(settings.BASE_DIR / "manage.py")
    return {
        "web": [python, manage, "runserver", "--noreload", addr],
        "qcluster": [python, manage, "qcluster"],
    }


def serve_prod_commands(
    *, addr: str, workers: int, clusters: int, timeout: int, python: str = sys.executable, manage: str | None = None
) -> dict[str, list[str]]:
    manage = manage or str(settings.BASE_DIR / "manage.py")
    web = [
        python, "-m", "gunicorn", "memcenter.wsgi:application", "--bind", addr, "--workers", str(workers),
        "--timeout", str(timeout), "--graceful-timeout", str(int(GRACE_SECONDS) - 5),
        "--access-logfile", "-", "--chdir", str(settings.BASE_DIR),
    ]
    # Each name once: the supervisor keys children by name.
    return {"web": web, **{f"qcluster-{n}": [python, manage, "qcluster"] for n in range(1, clusters + 1)}}


class Command(BaseCommand):
    help = "Serve the memory center and run the django-q2 cluster together (Ctrl-C stops both)."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000", help="host:port for the web server.")
        parser.add_argument("--no-cluster", action="store_true", help="Run only the web server.")
        parser.add_argument("--prod", action="store_true",
                            help="gunicorn (WEB_CONCURRENCY workers) and Q_CLUSTERS django-q2 clusters, after collectstatic.")
        parser.add_argument("--workers", type=int, default=None, help="--prod: gunicorn workers (default WEB_CONCURRENCY).")
        parser.add_argument("--clusters", type=int, default=None, help="--prod: django-q2 clusters (default Q_CLUSTERS).")

    def handle(self, *args, addr: str, no_cluster: bool, prod: bool, workers: int | None, clusters: int | None, **options):
        if ":" not in addr and not addr.isdigit():
            raise CommandError(f"--addr must be host:port or a port, got {addr!r}")
        if prod and settings.DEBUG:
            raise CommandError("--prod runs with DJANGO_DEBUG off (debug pages leak settings); unset it")
        for name, value in (("--workers", workers), ("--clusters", clusters)):
            if value is not None and value < (0 if name == "--clusters" else 1):
                raise CommandError(f"{name} must be at least {0 if name == '--clusters' else 1}, got {value}")
        if "dream_schedule" in get_commands():
            call_command("dream_schedule", stdout=self.stdout, stderr=self.stderr)
        if prod:
            call_command("collectstatic", interactive=False, verbosity=0)
        connections.close_all()  # this process only supervises from here on
        if prod:
            commands = serve_prod_commands(
                addr=addr if ":" in addr else f"127.0.0.1:{addr}", workers=workers or settings.WEB_CONCURRENCY, timeout=settings.GUNICORN_TIMEOUT,
                clusters=0 if no_cluster else (settings.Q_CLUSTERS if clusters is None else clusters),
            )
        else:
            commands = serve_commands(addr=addr)
            if no_cluster:
                commands.pop("qcluster")
        supervisor = Supervisor(commands)
        signal.signal(signal.SIGTERM, supervisor.request_stop)
        signal.signal(signal.SIGINT, supervisor.request_stop)
        supervisor.start()
        self.stdout.write(f"serving on http://{addr} with {', '.join(commands)}; Ctrl-C stops everything")
        self.stdout.flush()
        exited = supervisor.wait()
        if exited:
            self.stderr.write(f"{exited} exited with code {supervisor.processes[exited].returncode}; stopping the rest")
        codes = supervisor.stop()
        self.stdout.write("stopped: " + ", ".join(f"{name} ({code})" for name, code in codes.items()))
        if exited:
            raise CommandError(f"{exited} stopped unexpectedly")
