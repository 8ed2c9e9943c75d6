"""The production server for tests: gunicorn.conf.py and wsgi:app, as `make serve` runs
them, on a free local port with an instance folder of the test's own (and PostgreSQL
when the tests run on it). `gunicorn` is the pytest fixture; `Gunicorn(path, env)`
starts one with settings of a test's own."""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import postgres_url, reset_postgres

ROOT = Path(__file__).resolve().parents[1]

# The suites create many matches and record fast from one address: the limiter runs,
# at rates no test reaches (production's defaults: companion/limits.py).
TEST_RATE_LIMITS = {
    "COMPANION_RATELIMIT_NEW_MATCH": "100000 per minute",
    "COMPANION_RATELIMIT_IMPORT": "100000 per minute",
    "COMPANION_RATELIMIT_WRITE": "100000 per minute",
}
# Programs post the moment they have a page: the tap guard's waits (companion/taps.py)
# off, but where a test is about them.
NO_TAP_WAITS = {"COMPANION_TAP_SETTLE_MS": "0", "COMPANION_TAP_REFRESH_MS": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Gunicorn:
    """The production server (gunicorn.conf.py, two workers) on a free local port."""

    command: tuple[str, ...] = (
        sys.executable,
        "-m",
        "gunicorn",
        "-c",
        "gunicorn.conf.py",
        "wsgi:app",
    )

    def __init__(self, instance: Path, env: dict[str, str] | None = None) -> None:
        self.instance = instance
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY")}
        self.env |= {
            "COMPANION_INSTANCE": str(instance),
            "BIND": f"127.0.0.1:{self.port}",
            "WEB_CONCURRENCY": "2",
            "ACCESS_LOG": "",
            **TEST_RATE_LIMITS,
            **NO_TAP_WAITS,
        }
        if url := postgres_url():
            self.env["DATABASE_URL"] = url
        self.env |= env or {}
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.instance / "gunicorn.log", "ab") as log:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stop() ends all it started
            )
        deadline = time.monotonic() + 30
        while True:
            assert self.process.poll() is None, self.log()
            try:
                with self.open("/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                pass
            assert time.monotonic() < deadline, self.log()
            time.sleep(0.1)

    def open(self, path: str, timeout: float = 5) -> Any:
        """GET `path` of the server (urllib's answer; an HTTPError for a 4xx or 5xx)."""
        return urllib.request.urlopen(self.url + path, timeout=timeout)

    def workers(self) -> list[int]:
        assert self.process is not None
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.process.pid)], capture_output=True, text=True
        ).stdout
        return [int(pid) for pid in out.split()]

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, 9)  # with whatever it started (workers, Caddy)
            self.process.wait()
        self.process = None

    def log(self) -> str:
        path = self.instance / "gunicorn.log"
        return path.read_text()[-3000:] if path.exists() else ""


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[Gunicorn]:
    if url := postgres_url():
        reset_postgres(url)
    server = Gunicorn(tmp_path)
    try:
        server.start()
        yield server
    finally:
        server.stop()


class Redis:
    """A Redis server of the test's own (on a unix socket in its folder), started by
    scripts/redis.sh as `make serve` starts one: where the rate limits count across
    workers."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.url = ""

    def start(self) -> str:
        """Start it (again, at the same socket), and give its URI."""
        done = subprocess.run(
            ["bash", str(ROOT / "scripts" / "redis.sh"), "start", str(self.folder)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        self.url = done.stdout.strip()
        return self.url

    def kill(self) -> None:
        """Gone at once, as a crashed Redis is: its folder (and socket's path) kept."""
        os.kill(int((self.folder / "redis.pid").read_text()), 9)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:  # until its socket refuses
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(str(self.folder / "redis.sock"))
            except OSError:
                return
            time.sleep(0.02)
        raise AssertionError("Redis still answers after a kill")

    def stop(self) -> None:
        subprocess.run(["bash", str(ROOT / "scripts" / "redis.sh"), "stop", str(self.folder)])


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path / "redis")
    server.start()
    try:
        yield server
    finally:
        server.stop()


class HttpsServer(Gunicorn):
    """`make serve-https` (scripts/serve_https.py): gunicorn behind Caddy, its https and
    plain http ports free local ones, a certificate from Caddy's own CA for the name
    HOST (a browser maps it to loopback: not a secure context over plain http, as a
    phone's LAN address is not), localhost and 127.0.0.1. Its Redis is its own."""

    HOST = "nomercy.test"
    command = (sys.executable, str(ROOT / "scripts" / "serve_https.py"))

    def __init__(self, instance: Path, env: dict[str, str] | None = None) -> None:
        super().__init__(instance, env)
        self.http_port = free_port()
        self.url = f"https://localhost:{self.port}"
        self.plain_url = f"http://localhost:{self.http_port}"
        self.env |= {
            "COMPANION_HTTPS_PORT": str(self.port),
            "COMPANION_HTTP_PORT": str(self.http_port),
            "COMPANION_HTTPS_HOSTS": self.HOST,
        }
        self.root = instance / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local"
        self.root /= "root.crt"

    def context(self) -> ssl.SSLContext:
        """A client that trusts this server's CA, and only it."""
        return ssl.create_default_context(cafile=str(self.root))

    def open(self, path: str, timeout: float = 5) -> Any:
        if not self.root.exists():
            raise OSError("Caddy has not made its CA yet")
        return urllib.request.urlopen(self.url + path, timeout=timeout, context=self.context())

    def stop(self) -> None:
        super().stop()
        subprocess.run(
            ["bash", str(ROOT / "scripts" / "redis.sh"), "stop", str(self.instance / "redis")]
        )
