"""Draw the app's icons from static/icon.svg: the PNGs a phone puts on its home screen
and favicon.ico (PNGs inside an ICO file). Run after changing the SVG, and commit the
files it writes:

    .venv/bin/python scripts/make_icons.py

The system Chromium renders the SVG (through Playwright, which never downloads a
browser here), so every size is the same drawing.
"""

from __future__ import annotations

import base64
import shutil
import struct
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "static"
SVG = STATIC / "icon.svg"
ACCENT = "#6a1b9a"  # the icon's own background: fills the corners where none may show

# file, size, corners filled (iOS shows a transparent corner as black)
PNGS = [("icon-192.png", 192, False), ("icon-512.png", 512, False)]
APPLE = ("apple-touch-icon.png", 180, True)
# Android's adaptive icon (the manifest's "maskable"): the drawing inside the middle 80%
# (the circle a launcher's mask always keeps), on the accent to the edges.
MASKABLE = ("icon-maskable-512.png", 512)
ICO_SIZES = (16, 32, 48)


def render(page: Page, size: int, filled: bool) -> bytes:
    data = base64.b64encode(SVG.read_bytes()).decode()
    background = ACCENT if filled else "transparent"
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        f'<body style="margin:0;background:{background}">'
        f'<img src="data:image/svg+xml;base64,{data}" width="{size}" height="{size}" '
        'style="display:block"></body>'
    )
    page.wait_for_load_state()
    return page.screenshot(omit_background=not filled, type="png")


def render_maskable(page: Page, size: int) -> bytes:
    data = base64.b64encode(SVG.read_bytes()).decode()
    inner = round(size * 0.8)
    page.set_viewport_size({"width": size, "height": size})
    page.set_content(
        f'<body style="margin:0;background:{ACCENT};display:grid;place-items:center;'
        f'height:{size}px"><img src="data:image/svg+xml;base64,{data}" width="{inner}" '
        f'height="{inner}" style="display:block"></body>'
    )
    page.wait_for_load_state()
    return page.screenshot(type="png")


def ico(pngs: list[tuple[int, bytes]]) -> bytes:
    """An ICO file whose images are PNGs (every browser reads these)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, png in pngs:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset)
        offset += len(png)
        images += png
    return header + entries + images


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        if found := shutil.which(name):
            return found
    raise SystemExit("Chromium is not installed: apt-get install chromium")


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page(device_scale_factor=1)
        for name, size, filled in [*PNGS, APPLE]:
            (STATIC / name).write_bytes(render(page, size, filled))
            print(f"static/{name}: {size}x{size}")
        name, size = MASKABLE
        (STATIC / name).write_bytes(render_maskable(page, size))
        print(f"static/{name}: {size}x{size}, maskable")
        images = [(size, render(page, size, False)) for size in ICO_SIZES]
        (STATIC / "favicon.ico").write_bytes(ico(images))
        print(f"static/favicon.ico: {', '.join(f'{s}x{s}' for s in ICO_SIZES)}")
        browser.close()


if __name__ == "__main__":
    main()
