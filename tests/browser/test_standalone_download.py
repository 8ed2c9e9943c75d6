"""A first visit's download of the app in the phone (standalone/site/files.js, keepFile;
shell.js): whatever a host does to the packed files (the runtime's and the zips' .gz),
the phone keeps each whole (its size checked), unpacked, or says which file failed and
why; it says "no connection" only when the connection failed. (In Chromium only:
`make check-firefox` and `make check-webkit` walk a first visit that succeeds.)"""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import pytest
from playwright.sync_api import Browser, Page, expect

from .phone_app import StaticFiles, phone, static_site

# Needed before Python starts (not KEPT_LAST): its failure stops the page before the app's
# worker is made, so these tests never start Pyodide.
LOCK = "pyodide/pyodide-lock.json"
ANOTHER_BUILDS = b'{"info": {}, "packages": {}}'


class Host(StaticFiles):
    """A static host that answers for LOCK's .gz as `lock` says (None: the file as it is),
    and marks every .gz `Content-Encoding: gzip` if `unpacks` (the browser unpacks them)."""

    lock: ClassVar[str | None] = None
    unpacks: ClassVar[bool] = False

    def do_GET(self) -> None:
        path = self.path.split("?")[0]
        if path.endswith(LOCK + ".gz") and self.lock is not None:
            packed = (Path(self.directory) / path.lstrip("/")).read_bytes()
            answers = {
                "not gzip": b"\x1f\x8b" + b"not what gzip writes" * 50,
                "another build's": gzip.compress(ANOTHER_BUILDS),
            }
            if self.lock == "cut":
                # The connection lost halfway through the file.
                self.answer(packed, len(packed))
                self.wfile.write(packed[: len(packed) // 2])
                self.wfile.flush()
                self.close_connection = True
                self.connection.close()
                return
            body = answers[self.lock]
            self.answer(body, len(body))
            self.wfile.write(body)
        elif path.endswith(".gz") and self.unpacks:
            body = (Path(self.directory) / path.lstrip("/")).read_bytes()
            self.answer(body, len(body), {"Content-Encoding": "gzip"})
            self.wfile.write(body)
        else:
            super().do_GET()

    def answer(self, body: bytes, length: int, headers: dict[str, str] | None = None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/gzip")
        self.send_header("Content-Length", str(length))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()


def host(**how: Any) -> type[Host]:
    return type("Tricked", (Host,), how)


def a_page_of(page: Page, url: str) -> None:
    """A blank page at the site's address, with the build's list and files.js."""
    page.route(
        url + "blank.html",
        lambda route: route.fulfill(
            body="<!doctype html><title>.</title>", content_type="text/html"
        ),
    )
    page.goto(url + "blank.html")
    page.add_script_tag(url=url + "build.js")
    page.add_script_tag(url=url + "files.js")


# Each packed file kept (or the error it gave): its size and type as the cache has them.
KEEP_PACKED = """async () => {
  const cache = await caches.open("test");
  const kept = {};
  for (const file of self.BUILD.files.filter((file) => file[2])) {
    try {
      await self.keepFile(cache, file);
      const answer = await cache.match(new URL(file[0], location.href).href);
      kept[file[0]] = [(await answer.arrayBuffer()).byteLength, answer.headers.get("Content-Type")];
    } catch (error) {
      kept[file[0]] = [error.constructor.name, error.message];
    }
  }
  return kept;
}"""


@contextmanager
def packed_kept(
    browser: Browser, built: Path, profile: Path, tricked: type[Host]
) -> Iterator[tuple[str, Page, dict[str, list[Any]], dict[str, int]]]:
    """The site on `tricked`, every packed file kept from it on a blank page of the site:
    its address, the page, what each file gave (KEEP_PACKED) and each one's size."""
    with static_site(built.parent, tricked) as (url, _), phone(browser, profile) as context:
        page = context.pages[0]
        a_page_of(page, url)
        kept = page.evaluate(KEEP_PACKED)
        sizes = {file[0]: file[1] for file in page.evaluate("self.BUILD.files") if len(file) > 2}
        yield url, page, kept, sizes


def test_a_host_that_unpacks_the_packed_files_itself_still_gives_each_whole(
    browser: Browser, built: Path, tmp_path: Path
) -> None:
    with packed_kept(browser, built, tmp_path / "profile", host(unpacks=True)) as found:
        _, _, kept, sizes = found
        assert {name: size for name, (size, _) in kept.items()} == sizes
        assert kept["pyodide/pyodide.asm.wasm"][1] == "application/wasm"  # compiled as it streams
        assert kept["python/site.zip"][1] == "application/zip"


@pytest.mark.parametrize(
    ("lock", "said"),
    [
        ("another build's", f"{LOCK}: {len(ANOTHER_BUILDS)} bytes, not "),
        ("not gzip", f"{LOCK}.gz: not what the build packed ("),
        ("cut", None),
    ],
)
def test_a_file_that_fails_is_named_and_only_a_lost_connection_is_said_as_one(
    browser: Browser, built: Path, tmp_path: Path, lock: str, said: str | None
) -> None:
    with packed_kept(browser, built, tmp_path / "profile", host(lock=lock)) as found:
        url, page, kept, sizes = found
        failed = kept.pop(LOCK)
        # The rest kept whole: one file's failure is its own.
        del sizes[LOCK]
        assert {name: size for name, (size, _) in kept.items()} == sizes
        assert failed[0] == ("TypeError" if said is None else "Error"), failed
        if said is not None:
            assert failed[1].startswith(said), failed
        page.unroute(url + "blank.html")

        # A first visit says it, with a way to try again (and nothing kept of that file).
        page.goto(url)
        expected = said or "The app could not be downloaded: no connection."
        expect(page.locator("#said")).to_contain_text(expected, timeout=60_000)
        expect(page.get_by_role("button", name="Try again")).to_be_visible()
        assert page.evaluate(f"caches.match(new URL({LOCK!r}, location.href).href)") is None
