"""`make serve-https`: the app over https, gunicorn behind Caddy (deploy/Caddyfile).

Two ways, chosen by COMPANION_PUBLIC_URL (docs/OPERATIONS.md, "https: make serve-https"):

- **A public name** (COMPANION_PUBLIC_URL=https://nomercy.example.org, its DNS pointing
  at this host, ports 80 and 443 open to the internet): Caddy gets the certificate from
  Let's Encrypt or ZeroSSL and renews it.
- **A home network** (no COMPANION_PUBLIC_URL, or one at an address or a local name):
  Caddy signs a certificate for this host's addresses with its own CA, whose root each
  phone trusts once from the app's /trust page, over plain http.

gunicorn listens on loopback only, trusting Caddy's X-Forwarded-*, with secure cookies
(and so HSTS) on, and its rate limits in a Redis of the instance folder's own
(scripts/redis.sh), as `make serve` (it keeps running after). Caddy keeps its
certificates and CA in the instance folder (instance/caddy/, this user's only). Ctrl-C
stops both.

Settings, from the environment: COMPANION_PUBLIC_URL; COMPANION_HTTPS_PORT (443) and
COMPANION_HTTP_PORT (80); COMPANION_HTTPS_HOSTS (a home network's names and addresses,
separated by spaces or commas; default: this host's address on the network, then
localhost and 127.0.0.1); COMPANION_INSTANCE; and every setting of `make serve`.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from flask import Config

from companion.settings import PROXIED_THREADS, STANDALONE_BUILD

ROOT = Path(__file__).resolve().parents[1]
# Names that only a home network resolves: no public authority signs a certificate
# for them, so Caddy's own CA does.
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localhost", ".test")


def local_name(host: str) -> bool:
    """An address or a name only this network knows (no public certificate for it)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host == "localhost" or "." not in host or host.endswith(LOCAL_SUFFIXES)


def network_address() -> str | None:
    """This host's address on its network (the one its default route leaves from):
    what a phone on the same Wi-Fi opens. No packet is sent."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback else address


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_setting(name: str, default: int) -> int:
    value = os.environ.get(name, str(default))
    if not value.isdigit() or not 0 < int(value) < 65536:
        sys.exit(f"make serve-https: {name} must be a port number (1-65535). It is {value!r}.")
    return int(value)


def check_free(port: int, name: str) -> None:
    """Stop with a sentence when Caddy could not take `port` (on every address, as it
    listens): another server holds it, or it needs rights this user lacks."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("", port))
        except PermissionError:
            sys.exit(
                f"make serve-https: port {port} needs root, or Caddy allowed to take it "
                "(sudo setcap cap_net_bind_service=+ep /usr/bin/caddy, again after each caddy "
                f"upgrade), or another port ({name}=8443)."
            )
        except OSError:
            sys.exit(
                f"make serve-https: port {port} is taken by another server (a web server, or "
                f"Debian's caddy service: sudo systemctl disable --now caddy), or set {name}."
            )


@dataclass(frozen=True)
class Site:
    """Where the app is served: its names, whether Caddy's own CA signs for them (a home
    network), its address as phones open it, and Caddy's ports."""

    hosts: tuple[str, ...]
    internal: bool
    public: str
    https_port: int
    http_port: int

    @classmethod
    def from_environment(cls) -> Site:
        https_port = port_setting("COMPANION_HTTPS_PORT", 443)
        http_port = port_setting("COMPANION_HTTP_PORT", 80)
        public = os.environ.get("COMPANION_PUBLIC_URL", "").rstrip("/")
        parts = urlsplit(public)
        if public and (parts.scheme != "https" or not parts.hostname or parts.path):
            sys.exit(
                "make serve-https: COMPANION_PUBLIC_URL must be an https:// address with no "
                f"path (https://nomercy.example.org). It is {public!r}."
            )
        host = parts.hostname or ""
        if host and not local_name(host):
            return cls((host,), False, public, https_port, http_port)
        named = os.environ.get("COMPANION_HTTPS_HOSTS", "").replace(",", " ").split()
        found = named or ([] if host else [network_address() or "localhost"])
        hosts = tuple(dict.fromkeys([*([host] if host else []), *found, "localhost", "127.0.0.1"]))
        suffix = "" if https_port == 443 else f":{https_port}"
        return cls(hosts, True, public or f"https://{hosts[0]}{suffix}", https_port, http_port)

    def trust_url(self) -> str:
        suffix = "" if self.http_port == 80 else f":{self.http_port}"
        return f"http://{self.hosts[0]}{suffix}/trust"

    def caddy_env(self, upstream: str) -> dict[str, str]:
        """What deploy/Caddyfile reads from the environment."""
        return {
            "COMPANION_SITES": ", ".join(self.hosts),
            "COMPANION_HTTP_SITES": ", ".join(f"http://{host}" for host in self.hosts),
            "COMPANION_TLS": "tls internal" if self.internal else "",
            "COMPANION_HTTPS_PORT": str(self.https_port),
            "COMPANION_HTTP_PORT": str(self.http_port),
            "COMPANION_HTTPS_SUFFIX": "" if self.https_port == 443 else f":{self.https_port}",
            "COMPANION_UPSTREAM": upstream,
        }


def standalone_build() -> str:
    """The folder of make standalone's build the app hands out: its STANDALONE_BUILD,
    read from the environment as the app reads it (Flask's from_prefixed_env). Never
    empty: Caddy would serve its own folder from an empty root."""
    config = Config(ROOT)
    config["STANDALONE_BUILD"] = STANDALONE_BUILD
    config.from_prefixed_env("COMPANION")
    return str(config["STANDALONE_BUILD"]) or STANDALONE_BUILD


def main() -> int:
    stopping: list[int] = []  # from here on, Ctrl-C or a TERM stops what has started
    signal.signal(signal.SIGTERM, lambda number, _: stopping.append(number))
    signal.signal(signal.SIGINT, lambda number, _: stopping.append(number))
    site = Site.from_environment()
    check_free(site.https_port, "COMPANION_HTTPS_PORT")
    check_free(site.http_port, "COMPANION_HTTP_PORT")
    env = dict(os.environ)
    instance = Path(env.get("COMPANION_INSTANCE") or ROOT / "instance").resolve()
    # The instance folder holds the database, the secret key and now the CA's key: this
    # user's only, made so before anything else makes it.
    instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    caddy_home = instance / "caddy"
    caddy_home.mkdir(mode=0o700, exist_ok=True)
    root = caddy_home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    if not env.get("COMPANION_RATELIMIT_STORAGE_URI"):  # a Redis of its own, as make serve
        redis = [ROOT / "scripts" / "redis.sh", "start", instance / "redis"]
        started = subprocess.run(["bash", *map(str, redis)], stdout=subprocess.PIPE, text=True)
        if started.returncode != 0:
            return started.returncode
        env["COMPANION_RATELIMIT_STORAGE_URI"] = started.stdout.strip()
    upstream = f"127.0.0.1:{free_port()}"
    app_env = env | {
        # Caddy takes every request and answer whole (deploy/Caddyfile): two threads a
        # worker, where make serve runs 32 to wait on slow clients (companion/settings.py).
        "GUNICORN_THREADS": env.get("GUNICORN_THREADS", str(PROXIED_THREADS)),
        "COMPANION_INSTANCE": str(instance),
        "BIND": upstream,
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "COMPANION_BEHIND_PROXY": "true",
        "COMPANION_SESSION_COOKIE_SECURE": "true",
        "COMPANION_PUBLIC_URL": site.public,
    }
    if site.internal:
        app_env.setdefault("COMPANION_TRUSTED_HOSTS", ",".join(site.hosts))
        app_env |= {"COMPANION_TLS_ROOT_CERT": str(root), "COMPANION_TRUST_URL": site.trust_url()}
    caddy_env = env | site.caddy_env(upstream)
    # The app in the phone's files, which Caddy sends itself: the folder the app's are in.
    caddy_env["COMPANION_STANDALONE_BUILD"] = standalone_build()
    caddy_env |= {"XDG_DATA_HOME": str(caddy_home / "data"), "XDG_CONFIG_HOME": str(caddy_home)}
    gunicorn = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"]
    caddyfile = ["--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"]
    children = [
        subprocess.Popen(gunicorn, cwd=ROOT, env=app_env),
        subprocess.Popen(["caddy", "run", *caddyfile], cwd=caddy_home, env=caddy_env),
    ]
    say(f"The app: {site.public}")
    if site.internal:
        say_fingerprint(root, site, stopping)
    while not stopping and all(child.poll() is None for child in children):
        time.sleep(0.2)
    ended = [child.returncode for child in children if child.poll() is not None]
    # Both asked to stop at once; what has not stopped within the deadline (gunicorn lets
    # requests finish for a few seconds, Caddy its grace period) is killed.
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + 8
    for child in children:
        try:
            child.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    say(f"Stopped. Its Redis still runs: bash scripts/redis.sh stop {instance / 'redis'}")
    return 0 if stopping or not ended else ended[0] or 1


def say(sentence: str) -> None:
    print(f"make serve-https: {sentence}", file=sys.stderr, flush=True)


def say_fingerprint(root: Path, site: Site, stopping: list[int]) -> None:
    """Where phones trust the CA, and its root's fingerprint once Caddy has made it: the
    /trust page asks phones to compare it with this, which no one on the network can
    change."""
    from companion.views.trust import fingerprint

    deadline = time.monotonic() + 30
    while not root.exists() and not stopping and time.monotonic() < deadline:
        time.sleep(0.1)
    found = fingerprint(root.read_bytes()) if root.exists() else None
    say(f"Each phone trusts this server's certificate once, from {site.trust_url()}")
    say(f"Its fingerprint (SHA-256): {found or 'not made yet (see Caddy above)'}")


if __name__ == "__main__":
    sys.exit(main())
