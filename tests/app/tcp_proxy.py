"""A TCP proxy in front of a database server that a test can cut: the outage as a
server process sees it (connections lost, new ones refused), without stopping the
database that other tests share."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress


class TcpProxy:
    """Forwards 127.0.0.1:`port` to `upstream` until `cut()`; `restore()` ends the outage."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.up = True
        self.cuts = 0  # how many outages so far: a connection made across one is dropped
        self.live: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut(self) -> None:
        """Every connection dropped, and every new one closed as soon as it opens."""
        with self.lock:
            self.up = False
            self.cuts += 1
            for conn in self.live:
                _close(conn)
            self.live.clear()

    def restore(self) -> None:
        with self.lock:
            self.up = True

    @contextmanager
    def outage(self) -> Iterator[None]:
        self.cut()
        try:
            yield
        finally:
            self.restore()

    def close(self) -> None:
        self.cut()
        _close(self.listener)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                if not self.up:
                    _close(client)
                    continue
                cuts = self.cuts
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                _close(client)
                continue
            server.settimeout(None)
            with self.lock:
                if self.cuts != cuts:  # cut (and maybe restored) while it connected upstream
                    _close(client)
                    _close(server)
                    continue
                self.live |= {client, server}
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self.lock:
                self.live -= {source, sink}
            _close(source)
            _close(sink)


def _close(conn: socket.socket) -> None:
    with suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()
