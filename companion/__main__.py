"""`python -m companion`: serve the app on the local network and say where to open it."""

from __future__ import annotations

import argparse
import logging
import socket
import subprocess

from companion import create_app


def addresses() -> list[str]:
    """This machine's addresses that phones on the same network can reach."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
        found = [a for a in out.split() if ":" not in a]
    except (OSError, subprocess.SubprocessError):
        found = []
    if not found:
        try:
            found = [socket.gethostbyname(socket.gethostname())]
        except OSError:
            found = []
    return [a for a in found if not a.startswith("127.")] or ["127.0.0.1"]


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve No Mercy Companion (SQLite by default).")
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args()
    # The app's own lines (the audit trail, errors) on the terminal, beside the requests.
    app_log = logging.getLogger("companion")
    app_log.setLevel(logging.INFO)
    app_log.addHandler(logging.StreamHandler())
    app = create_app()
    print("No Mercy Companion is running. Open it on a phone on the same network:")
    for address in addresses():
        print(f"    http://{address}:{args.port}/")
    print(f"(on this machine: http://127.0.0.1:{args.port}/ ; stop with Ctrl+C)", flush=True)
    app.run(host=args.host, port=args.port, threaded=True, load_dotenv=False)


if __name__ == "__main__":
    main()
