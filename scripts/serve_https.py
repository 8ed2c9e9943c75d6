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
(scripts/redis.sh), as `make serve`. Caddy keeps its certificates and CA in the
instance folder (instance/caddy/). Ctrl-C stops both.

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
from pathlib import Path
from urllib.parse import urlsplit

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


def main() -> int:
    env = dict(os.environ)
    instance = Path(env.get("COMPANION_INSTANCE") or ROOT / "instance").resolve()
    caddy_home = instance / "caddy"
    https_port = port_setting("COMPANION_HTTPS_PORT", 443)
    http_port = port_setting("COMPANION_HTTP_PORT", 80)
    https_suffix = "" if https_port == 443 else f":{https_port}"
    http_suffix = "" if http_port == 80 else f":{http_port}"
    public = env.get("COMPANION_PUBLIC_URL", "").rstrip("/")
    public_host = (urlsplit(public).hostname or "") if public else ""
    if public and urlsplit(public).scheme != "https":
        sys.exit(f"make serve-https: COMPANION_PUBLIC_URL must be an https:// address: {public!r}.")
    if public_host and not local_name(public_host):
        hosts, internal = [public_host], False
    else:
        named = env.get("COMPANION_HTTPS_HOSTS", "").replace(",", " ").split()
        found = [public_host] if public_host else [network_address() or "localhost"]
        hosts = list(dict.fromkeys([*(named or found), "localhost", "127.0.0.1"]))
        internal = True
        public = public or f"https://{hosts[0]}{https_suffix}"
    upstream = f"127.0.0.1:{free_port()}"
    root_cert = caddy_home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    if not env.get("COMPANION_RATELIMIT_STORAGE_URI"):
        started = subprocess.run(
            ["bash", str(ROOT / "scripts" / "redis.sh"), "start", str(instance / "redis")],
            stdout=subprocess.PIPE,
            text=True,
        )
        if started.returncode != 0:
            return started.returncode
        env["COMPANION_RATELIMIT_STORAGE_URI"] = started.stdout.strip()
    app_env = env | {
        "COMPANION_INSTANCE": str(instance),
        "BIND": upstream,
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "COMPANION_BEHIND_PROXY": "true",
        "COMPANION_SESSION_COOKIE_SECURE": "true",
        "COMPANION_PUBLIC_URL": public,
    }
    if internal:
        app_env.setdefault("COMPANION_TRUSTED_HOSTS", ",".join(hosts))
        app_env["COMPANION_TLS_ROOT_CERT"] = str(root_cert)
        app_env["COMPANION_TRUST_URL"] = f"http://{hosts[0]}{http_suffix}/trust"
    caddy_env = env | {
        "XDG_DATA_HOME": str(caddy_home / "data"),
        "XDG_CONFIG_HOME": str(caddy_home / "config"),
        "COMPANION_SITES": ", ".join(hosts),
        "COMPANION_HTTP_SITES": ", ".join(f"http://{host}" for host in hosts),
        "COMPANION_TLS": "tls internal" if internal else "",
        "COMPANION_HTTPS_PORT": str(https_port),
        "COMPANION_HTTP_PORT": str(http_port),
        "COMPANION_HTTPS_SUFFIX": https_suffix,
        "COMPANION_UPSTREAM": upstream,
    }
    caddy_home.mkdir(parents=True, exist_ok=True)
    python = str(Path(sys.executable))
    app = subprocess.Popen(
        [python, "-m", "gunicorn", "-c", "gunicorn.conf.py", "wsgi:app"], cwd=ROOT, env=app_env
    )
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(ROOT / "deploy" / "Caddyfile"), "--adapter", "caddyfile"],
        cwd=caddy_home,
        env=caddy_env,
    )
    print(f"The app: {public}", file=sys.stderr, flush=True)
    if internal:
        print(
            f"Each phone trusts this server's certificate once, from "
            f"{app_env['COMPANION_TRUST_URL']} (its root: {root_cert}).",
            file=sys.stderr,
            flush=True,
        )

    asked_to_stop = []

    def stop(*_: object) -> None:
        asked_to_stop.append(True)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not asked_to_stop and app.poll() is None and caddy.poll() is None:
        time.sleep(0.2)
    ended = next((p for p in (caddy, app) if p.poll() is not None), None)
    for process in (caddy, app):
        if process.poll() is None:
            process.terminate()
    for process in (caddy, app):
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
    if asked_to_stop or ended is None:
        return 0
    if ended is caddy and min(https_port, http_port) < 1024 and os.geteuid() != 0:
        print(
            "make serve-https: Caddy stopped. Ports below 1024 need root, or Caddy allowed to "
            "take them (sudo setcap cap_net_bind_service=+ep /usr/bin/caddy), or other ports "
            "(COMPANION_HTTPS_PORT=8443 COMPANION_HTTP_PORT=8080).",
            file=sys.stderr,
        )
    return ended.returncode or 1


if __name__ == "__main__":
    sys.exit(main())
