"""The load's HTTP client: one phone or editor, a minimal HTTP/1.1 client on asyncio.

Standard library only, about 0.1 ms of CPU a request: the clients share the machine's
2 cores with the server they measure, so every bit of their CPU is taken from it.
"""

from __future__ import annotations

import asyncio
import gzip
from dataclasses import dataclass
from urllib.parse import urlencode


@dataclass
class Reply:
    status: int
    headers: dict[str, str]  # lower-case names
    content: bytes  # the body, gunzipped if it came gzipped
    wire: int  # the body's bytes as they came

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


def dechunk(data: bytes) -> bytes:
    out = bytearray()
    pos = 0
    while True:
        end = data.index(b"\r\n", pos)
        size = int(data[pos:end].split(b";")[0], 16)
        if size == 0:
            return bytes(out)
        out += data[end + 2 : end + 2 + size]
        pos = end + 2 + size + 2


class Session:
    """One browser: a cookie jar, one request at a time, each on a connection of its own
    (gunicorn's sync workers close it after every answer anyway)."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.cookies: dict[str, str] = {}

    async def request(
        self,
        method: str,
        path: str,
        *,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        body = urlencode(data).encode() if data is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: close"]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if data is not None:
            head.append("Content-Type: application/x-www-form-urlencoded")
            head.append(f"Content-Length: {len(body)}")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        async with asyncio.timeout(self.timeout):
            reader, writer = await asyncio.open_connection(self.host, self.port)
            try:
                writer.write(message)
                raw = await reader.read()
            finally:
                writer.close()
        return self.parse(raw)

    def parse(self, raw: bytes) -> Reply:
        head, sep, payload = raw.partition(b"\r\n\r\n")
        if not sep:
            raise ConnectionError("the server closed the connection without an answer")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                key, _, val = value.split(";", 1)[0].partition("=")
                if "expires=thu, 01 jan 1970" in value.lower():
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = val
            headers[name] = value
        if headers.get("transfer-encoding") == "chunked":
            payload = dechunk(payload)
        elif len(payload) < int(headers.get("content-length", 0)):
            raise ConnectionError("the answer was cut short")
        wire = len(payload)
        if headers.get("content-encoding") == "gzip":
            payload = gzip.decompress(payload)
        return Reply(status, headers, payload, wire)
