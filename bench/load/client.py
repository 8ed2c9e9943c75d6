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


# What a phone's browser accepts over plain http (Chrome, Safari, Firefox alike): the
# server gzips the answers it would gzip for a phone, and that costs its CPU too.
ACCEPT_ENCODING = "gzip, deflate"
# And the languages it asks for (every browser sends them): the app works out a
# language from them on every request it answers.
ACCEPT_LANGUAGE = "en-US,en;q=0.9"
PHONE_HEADERS = {"Accept-Encoding": ACCEPT_ENCODING, "Accept-Language": ACCEPT_LANGUAGE}


class NothingBack(ConnectionError):
    """The connection closed before a byte of the answer came back."""


class Session:
    """One browser: a cookie jar, one request at a time. Like a phone's browser, it keeps
    its connection open between requests (HTTP/1.1 keep-alive) and opens a new one when
    the server has closed it (gunicorn closes one left idle for its `keepalive` seconds);
    with `keep_alive=False`, a connection of its own for each request."""

    def __init__(self, host: str, port: int, timeout: float, keep_alive: bool = True) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.keep_alive = keep_alive
        self.cookies: dict[str, str] = {}
        self._connection: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self,
        method: str,
        path: str,
        *,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> Reply:
        body = urlencode(data).encode() if data is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        if not self.keep_alive:
            head.append("Connection: close")
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if data is not None:
            head.append("Content-Type: application/x-www-form-urlencoded")
            head.append(f"Content-Length: {len(body)}")
        # A phone's headers, unless the caller gives one of them (in any case) itself.
        given = headers or {}
        named = {name.lower() for name in given}
        head += [f"{k}: {v}" for k, v in PHONE_HEADERS.items() if k.lower() not in named]
        head += [f"{k}: {v}" for k, v in given.items()]
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + body
        async with asyncio.timeout(self.timeout):
            if self._connection is not None and self._connection[0].at_eof():
                self.close()  # the server has closed the idle connection: a new one
            reused = self._connection is not None
            try:
                return await self._exchange(message)
            except NothingBack:
                if not reused or method != "GET":
                    raise
            # The connection closed before a byte of the answer, as the server closes an
            # idle one (the race the check above can lose): a GET goes again on a new
            # connection, as a browser sends it again. A POST is never sent twice.
            return await self._exchange(message)

    async def _exchange(self, message: bytes) -> Reply:
        try:
            if self._connection is None:
                self._connection = await asyncio.open_connection(self.host, self.port)
            reader, writer = self._connection
            try:
                writer.write(message)
                await writer.drain()
                raw_head = await reader.readuntil(b"\r\n\r\n")
            except (ConnectionResetError, BrokenPipeError) as closed:
                raise NothingBack("the server closed the connection") from closed
            except asyncio.IncompleteReadError as closed:
                if closed.partial:
                    raise ConnectionError("the answer was cut short") from closed
                raise NothingBack("the server closed the connection") from closed
            status, headers = self.parse_head(raw_head)
            while 100 <= status < 200:  # an interim answer (100 Continue): the real one next
                status, headers = self.parse_head(await reader.readuntil(b"\r\n\r\n"))
            try:
                payload = await self.read_body(reader, status, headers)
            except asyncio.IncompleteReadError as cut:
                raise ConnectionError("the answer was cut short") from cut
        except BaseException:
            self.close()
            raise
        if not self.keep_alive or headers.get("connection", "").lower() == "close":
            self.close()
        return self.reply(status, headers, payload)

    def close(self) -> None:
        if self._connection is not None:
            self._connection[1].close()
            self._connection = None

    async def read_body(
        self, reader: asyncio.StreamReader, status: int, headers: dict[str, str]
    ) -> bytes:
        if status in (204, 304):
            return b""  # no body, whatever the headers say (the client sends no HEAD)
        coding = headers.get("transfer-encoding", "").lower()
        if coding.rsplit(",", 1)[-1].strip() == "chunked":
            raw = bytearray()
            while True:
                line = await reader.readuntil(b"\r\n")
                size = int(line.split(b";")[0], 16)
                if size == 0:
                    while await reader.readuntil(b"\r\n") != b"\r\n":
                        pass  # trailers, if any, to the empty line that ends them
                    return dechunk(bytes(raw + b"0\r\n"))
                raw += line + await reader.readexactly(size + 2)  # the chunk and its CRLF
        if "content-length" in headers:
            return await reader.readexactly(int(headers["content-length"]))
        payload = await reader.read()  # no length: the answer ends with the connection
        self.close()
        return payload

    def parse_head(self, raw: bytes) -> tuple[int, dict[str, str]]:
        lines = raw.decode("latin-1").rstrip("\r\n").split("\r\n")
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
        return status, headers

    def reply(self, status: int, headers: dict[str, str], payload: bytes) -> Reply:
        wire = len(payload)
        if headers.get("content-encoding") == "gzip":
            payload = gzip.decompress(payload)
        return Reply(status, headers, payload, wire)
