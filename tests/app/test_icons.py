"""The app's icon: /favicon.ico answers, every page links the icons, and each icon file
has the size it claims (read from the PNG header: no image library needed)."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.app.helpers import Tabletop

STATIC = Path(__file__).resolve().parents[2] / "static"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk (always the first)."""
    assert data[:8] == PNG_SIGNATURE, "not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def ico_images(data: bytes) -> list[tuple[int, bytes]]:
    """(size, image bytes) of each image in an ICO file."""
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1), "not an icon file"
    images = []
    for i in range(count):
        width, height, _, _, _, _, size, offset = struct.unpack(
            "<BBBBHHII", data[6 + 16 * i : 22 + 16 * i]
        )
        assert width == height
        images.append((width or 256, data[offset : offset + size]))
    return images


def test_favicon_ico_is_an_icon(client: FlaskClient) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype in ("image/x-icon", "image/vnd.microsoft.icon")
    images = ico_images(response.get_data())
    assert [size for size, _ in images] == [16, 32, 48]
    for size, png in images:
        assert png_size(png) == (size, size)


@pytest.mark.parametrize(
    ("name", "size"),
    [("icon-192.png", 192), ("icon-512.png", 512), ("apple-touch-icon.png", 180)],
)
def test_png_icons_have_their_sizes(client: FlaskClient, name: str, size: int) -> None:
    assert png_size((STATIC / name).read_bytes()) == (size, size)
    response = client.get(f"/static/{name}")
    assert response.status_code == 200 and response.mimetype == "image/png"


def test_the_svg_icon_is_the_apps_own_drawing(client: FlaskClient) -> None:
    response = client.get("/static/icon.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    assert "<text" not in svg, "letters drawn as lines: no font needed"
    assert "http" not in svg.replace("http://www.w3.org/2000/svg", "")  # nothing fetched


def test_every_page_links_the_icons(tabletop: Tabletop) -> None:
    for url in ("/", "/new", "/rules", "/import"):
        links = {(link["rel"], link["href"]) for link in tabletop.get(url).doc.find_all("link")}
        assert ("icon", "/favicon.ico") in links
        unversioned = {(rel, href.split("?v=")[0]) for rel, href in links}
        assert ("icon", "/static/icon.svg") in unversioned
        assert ("apple-touch-icon", "/static/apple-touch-icon.png") in unversioned
        for _, href in links:
            assert tabletop.client.get(href).status_code == 200, href
