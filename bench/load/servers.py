"""The servers a run starts: gunicorn as in production, and a throwaway PostgreSQL from
scripts/test-postgres.sh; and the CPU time they use."""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from companion.settings import PROXIED_THREADS, sqlalchemy_url

ROOT = Path(__file__).resolve().parents[2]  # the project
PG_SCRIPT = ROOT / "scripts" / "test-postgres.sh"
# deploy/nginx.conf's proxy settings, on plain http at a loopback port (the load's clients
# speak no TLS), in the foreground, logging nothing but errors.
NGINX = """
daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream companion {{
        server 127.0.0.1:{upstream};
        keepalive 16;
    }}
    server {{
        listen 127.0.0.1:{port};
        client_header_timeout 10s;
        client_body_timeout 10s;
        send_timeout 10s;
        keepalive_timeout 30s;
        client_max_body_size 2m;
        client_body_buffer_size 64k;
        location / {{
            proxy_pass http://companion;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_request_buffering on;
            proxy_buffering on;
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Host $host;
            proxy_connect_timeout 5s;
            proxy_read_timeout 35s;
        }}
    }}
}}
"""
SBIN = "/usr/local/sbin:/usr/sbin:/sbin"
SERVING = re.compile(r"Serving: (\d+) workers? x (\d+) threads? \((\w+)\)")  # gunicorn.conf.py


def threads_for(asked: int | None, proxy: str) -> int:
    """The threads a worker runs: those asked for, else the shape for many tables
    (docs/OPERATIONS.md): two behind Caddy (make serve-https), else one (behind nginx;
    without a proxy, the app's own cost as a buffering proxy would leave it)."""
    if asked:
        return asked
    return PROXIED_THREADS if proxy == "caddy" else 1


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu_seconds(root_pid: int) -> float:
    """CPU time (user + system) of a process and its children, from /proc: the live
    ones' own, and the exited ones' that their parent reaped (its cutime and cstime).
    PostgreSQL's backends exit with their connections: counting the live ones only read
    2% of a core for the database where it used 24% (40 tables, a pool that churned)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # After the name: state, ppid, ..., utime, stime, cutime, cstime (fields 14-17).
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(entry) == root_pid or int(fields[1]) == root_pid:
            total += sum(int(field) for field in fields[11:15])
    return total / tick


def machine_cpu() -> tuple[float, float]:
    """(busy, stolen) CPU seconds of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, steal / tick


def healthy(port: int) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()


class Server:
    """gunicorn with the project's gunicorn.conf.py on a free loopback port; with
    `--proxy caddy` or `--proxy nginx`, behind deploy/'s proxy as production runs it
    (plain http here: the load's clients speak no TLS), the clients at the proxy's port."""

    def __init__(
        self,
        label: str,
        args: argparse.Namespace,
        database_url: str | None,
        db_pid: int | None = None,
    ) -> None:
        self.label = label
        self.args = args
        self.database_url = database_url
        self.db_pid = db_pid  # the postmaster, for the database's CPU time
        self.dir = Path(tempfile.mkdtemp(prefix=f"nomercy-load-{label}-"))
        self.log_path = self.dir / "server.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.proxy: subprocess.Popen[bytes] | None = None
        self.port = 0

    def start(self) -> None:
        proxy = None
        if self.args.proxy != "none":
            # Debian puts nginx in /usr/sbin, which a user's PATH may leave out.
            proxy = shutil.which(self.args.proxy) or shutil.which(self.args.proxy, path=SBIN)
            if proxy is None:
                install = {"caddy": "make caddy"}.get(
                    self.args.proxy, "apt-get install nginx-light"
                )
                raise RuntimeError(f"--proxy {self.args.proxy} needs {self.args.proxy}: {install}")
        self.port = upstream = free_port()
        env = dict(os.environ)
        env.pop("DATABASE_URL", None)
        if self.args.proxy != "none":
            upstream = free_port()
            # As make serve-https runs gunicorn behind its proxy (scripts/serve_https.py).
            env.update(COMPANION_BEHIND_PROXY="true", FORWARDED_ALLOW_IPS="127.0.0.1")
        env.update(
            BIND=f"127.0.0.1:{upstream}",
            WEB_CONCURRENCY=str(self.args.workers),
            ACCESS_LOG="",  # off
            COMPANION_INSTANCE=str(self.dir / "instance"),
            PYTHONUNBUFFERED="1",
            # Every simulated table comes from this one address: the limiter runs (its
            # cost is measured) at rates the load never reaches.
            COMPANION_RATELIMIT_NEW_MATCH="1000000 per minute",
            COMPANION_RATELIMIT_IMPORT="1000000 per minute",
            COMPANION_RATELIMIT_WRITE="1000000 per minute",
            # The tap guard judges every post (its cost is measured), but a program posts
            # the moment it has a page: no wait (companion/taps.py).
            COMPANION_TAP_SETTLE_MS="0",
            COMPANION_TAP_REFRESH_MS="0",
        )
        env["GUNICORN_THREADS"] = str(threads_for(self.args.threads, self.args.proxy))
        if self.database_url:
            env["DATABASE_URL"] = self.database_url
        command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", self.args.app]
        if self.args.server == "granian":
            command = self.granian(env, upstream)
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen(
                command,
                cwd=self.args.root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: stopped as one below
            )
        if proxy is not None:
            self.start_proxy(proxy, upstream)
        deadline = time.monotonic() + self.args.start_timeout
        while not healthy(self.port):
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log_tail()}")
            if self.proxy is not None and self.proxy.poll() is not None:
                raise RuntimeError(f"{self.args.proxy} exited at start:\n{self.proxy_log()}")
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"no /healthz answer in time:\n{self.log_tail()}\n{self.proxy_log()}"
                )
            time.sleep(0.2)

    def granian(self, env: dict[str, str], port: int) -> list[str]:
        """granian's command for the same app and shape (--server granian): the workers
        asked for (WEB_CONCURRENCY's), a worker's threads as GUNICORN_THREADS. It has
        no preload: the app is made once here first, so the workers find its database
        migrated and do not race to migrate it."""
        granian = Path(sys.executable).parent / "granian"
        if not granian.exists():
            raise RuntimeError("--server granian needs granian (a development dependency): make")
        module = self.args.app.partition(":")[0]
        subprocess.run(
            [sys.executable, "-c", f"import {module}"],
            cwd=self.args.root,
            env=env,
            check=True,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        return [
            *(str(granian), "--interface", "wsgi"),
            *("--host", "127.0.0.1", "--port", str(port)),
            *("--workers", env["WEB_CONCURRENCY"], "--blocking-threads", env["GUNICORN_THREADS"]),
            *("--runtime-threads", "1", "--no-ws", "--log-level", "warning", self.args.app),
        ]

    def start_proxy(self, command: str, upstream: int) -> None:
        """deploy/'s proxy at this server's port, without TLS, its files in this run's
        folder: Caddy with deploy/Caddyfile (request buffering, the body limit, the
        timeouts), or nginx with deploy/nginx.conf's settings (NGINX)."""
        env = dict(os.environ)
        if self.args.proxy == "caddy":
            home = self.dir / "caddy"
            home.mkdir()
            env |= {
                "COMPANION_SITES": f"http://127.0.0.1:{self.port}",
                "COMPANION_TLS": "",
                "COMPANION_HTTP_SITES": f"http://127.0.0.1:{free_port()}",
                "COMPANION_HTTP_PORT": str(free_port()),
                "COMPANION_HTTPS_PORT": str(free_port()),
                "COMPANION_UPSTREAM": f"127.0.0.1:{upstream}",
                "XDG_DATA_HOME": str(home / "data"),
                "XDG_CONFIG_HOME": str(home),
            }
            caddyfile = ROOT / "deploy" / "Caddyfile"
            arguments = ["run", "--config", str(caddyfile), "--adapter", "caddyfile"]
        else:
            conf = self.dir / "nginx.conf"
            conf.write_text(NGINX.format(port=self.port, upstream=upstream, dir=self.dir))
            errors = self.dir / "nginx-error.log"  # not /var/log/nginx's, before the conf is read
            arguments = ["-c", str(conf), "-p", str(self.dir), "-e", str(errors)]
        with open(self.dir / "proxy.log", "wb") as log:
            self.proxy = subprocess.Popen(
                [command, *arguments],
                cwd=self.dir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,  # its own process group: nginx's worker stopped too
            )

    def proxy_log(self) -> str:
        try:
            return (self.dir / "proxy.log").read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def shape(self) -> dict[str, Any]:
        """The workers and threads the server runs, from its own startup line
        (gunicorn.conf.py's when_ready): what gunicorn settled, not what was asked."""
        if self.args.server == "granian":
            threads = threads_for(self.args.threads, self.args.proxy)
            shape = {"name": "granian", "workers": self.args.workers, "threads": threads}
            return shape | {"class": "blocking threads"}
        found = SERVING.search(self.log_path.read_text(errors="replace"))
        if found is None:
            return {}
        workers, threads, worker_class = found.groups()
        shape = {"workers": int(workers), "threads": int(threads), "class": worker_class}
        return shape | ({"proxy": self.args.proxy} if self.proxy is not None else {})

    def database_sessions(self) -> DatabaseSessions | None:
        """PostgreSQL's count of the sessions to the app's database (None on SQLite)."""
        return DatabaseSessions(self.database_url) if self.database_url else None

    def cpu_seconds(self) -> float:
        return proc_cpu_seconds(self.proc.pid) if self.proc else 0.0

    def proxy_cpu_seconds(self) -> float:
        return proc_cpu_seconds(self.proxy.pid) if self.proxy else 0.0

    def db_cpu_seconds(self) -> float:
        return proc_cpu_seconds(self.db_pid) if self.db_pid else 0.0

    def stop(self) -> None:
        for process in (self.proxy, self.proc):  # the proxy first: nothing reaches gunicorn
            if process is None:
                continue
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)  # graceful: requests under way finish
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError):  # a worker the master left behind
                os.killpg(process.pid, signal.SIGKILL)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def log_problems(self, lines: int = 40) -> str:
        """The server log's problems, if any: database errors counted by message (logged
        by bench/bare_wsgi.py), then the first traceback or error."""
        try:
            text = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return ""
        found = Counter(
            re.sub(r" in pid \d+", "", line)[:300] for line in text if "[bench]" in line
        )
        out = [f"{count:>6} x {line}" for line, count in found.most_common(10)]
        first = next(
            (
                i
                for i, line in enumerate(text)
                if "Traceback" in line or "[ERROR]" in line or "locked" in line
            ),
            None,
        )
        if first is not None:
            out.append("first error in the log:")
            out += text[max(0, first - 2) : first + lines]
        return "\n".join(out)

    def cleanup(self, keep: bool) -> None:
        if keep:
            print(f"  server files kept in {self.dir}")
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


class DatabaseSessions:
    """The sessions PostgreSQL counts to one database (pg_stat_database.sessions: every
    session ever opened, PostgreSQL 14 and later) and those connected now, read on a
    connection of this object's own, left out of both."""

    SESSIONS = sa.text(
        "SELECT (SELECT sessions FROM pg_stat_database WHERE datname = current_database()),"
        " (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        "  AND backend_type = 'client backend' AND pid <> pg_backend_pid())"
    )

    def __init__(self, url: str) -> None:
        self.engine = sa.create_engine(
            sqlalchemy_url(url), poolclass=NullPool, isolation_level="AUTOCOMMIT"
        )
        self.connection = self.engine.connect()
        self.read()  # a backend counts its own session when it first waits for a query

    def read(self) -> tuple[int, int]:
        """(sessions opened so far, sessions connected now)."""
        self.connection.execute(sa.text("SELECT pg_stat_clear_snapshot()"))
        opened, connected = self.connection.execute(self.SESSIONS).one()
        return int(opened), int(connected)

    def close(self) -> None:
        self.connection.close()
        self.engine.dispose()


def postmaster_pid(folder: Path) -> int | None:
    """The PostgreSQL server's pid, from the data directory the script keeps in `folder`."""
    try:
        return int((folder / "data" / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, IndexError, ValueError):
        return None


@contextlib.contextmanager
def test_postgres() -> Iterator[tuple[str, int | None]]:
    """(database URL, postmaster pid) of a throwaway PostgreSQL that scripts/test-postgres.sh
    starts in a directory of this run's own (so a test run beside it is left alone), and
    stops at the end, on an error or Ctrl+C too."""
    folder = Path(tempfile.mkdtemp(prefix="nomercy-load-pg-"))
    print(f"starting a throwaway PostgreSQL ({PG_SCRIPT.name} start {folder}) ...", flush=True)
    try:
        started = subprocess.run(
            ["bash", str(PG_SCRIPT), "start", str(folder)],
            capture_output=True,
            text=True,
            timeout=600,
        )
        found = re.search(r"TEST_DATABASE_URL=(\S+)", started.stdout)
        if started.returncode != 0 or not found:
            raise RuntimeError(f"PostgreSQL did not start:\n{started.stderr[-2000:]}")
        yield found.group(1), postmaster_pid(folder)
    finally:
        subprocess.run(["bash", str(PG_SCRIPT), "stop", str(folder)], timeout=120)
        print("throwaway PostgreSQL stopped and deleted", flush=True)
