"""What production writes to its logs (a real gunicorn, as `make serve` runs it): an
access line per request, gunicorn's error log, and the audit trail: one line per change
to a match, with the match id and the role, never a token or a share link."""

from __future__ import annotations

import re
import secrets
import urllib.parse
from pathlib import Path

from tests.app.helpers import Form
from tests.app.test_concurrency import (
    Browser,
    create_match,
    join,
    line_form,
    page_of,
    read_table,
)
from tests.databases import postgres_url, reset_postgres
from tests.servers import Gunicorn

RECORD = "players: Ann, Bob\nstart: R5\nAnn: R3\n"


def share_links(browser: Browser, base: str, match_id: str) -> list[str]:
    """The paths of the match's share links (/j/<token>, /v/<token>) on its share panel."""
    status, html, _ = browser.get(f"{base}/m/{match_id}/share")
    assert status == 200
    return [urllib.parse.urlsplit(a["href"]).path for a in page_of(html).find_all("a", cls="link")]


def form_on(browser: Browser, url: str, action: str) -> dict[str, str]:
    """The fields of the form posting to `action` on the page at `url`."""
    status, html, _ = browser.get(url)
    assert status == 200
    (form,) = [Form(f) for f in page_of(html).find_all("form") if f.get("action") == action]
    return form.values()


def test_production_logs_every_request_and_an_audit_trail_without_tokens(
    tmp_path: Path,
) -> None:
    """Regression: migrations/env.py's fileConfig() switched gunicorn's loggers off (the
    migrations run in the gunicorn master), so production wrote no access or error log."""
    if url := postgres_url():
        reset_postgres(url)
    server = Gunicorn(tmp_path, {"ACCESS_LOG": "-"})
    server.start()
    try:
        base = server.url
        owner = Browser()
        match_id = create_match(owner, base, ["Ann", "Bob", "Cy"])
        links = share_links(owner, base, match_id)
        editor = join(base, next(p for p in links if p.startswith("/j/")))
        join(base, next(p for p in links if p.startswith("/v/")))

        seen = read_table(editor, base, match_id)
        endpoint, fields = line_form(seen, "start: R5", secrets.token_hex(8))
        assert editor.post(f"{base}/m/{match_id}/{endpoint}", fields)[0] == 303
        seen = read_table(editor, base, match_id)
        undo = {
            "csrf_token": seen.token,
            "version": str(seen.version),
            "last": seen.last,
            "shown": seen.shown,
        }
        assert editor.post(f"{base}/m/{match_id}/undo", undo | {"key": "u1"})[0] == 303

        renew = form_on(owner, f"{base}/m/{match_id}/share", f"/m/{match_id}/share/renew")
        assert owner.post(f"{base}/m/{match_id}/share/renew", renew)[0] == 303
        links += share_links(owner, base, match_id)

        fields = form_on(owner, f"{base}/import", "/import") | {"text": RECORD}
        status, _, headers = owner.post(f"{base}/import", fields)
        assert status == 303
        imported = str(headers["Location"]).rsplit("/", 1)[1]
    finally:
        server.stop()
    log = (tmp_path / "gunicorn.log").read_text()

    # gunicorn's error log, and an access line per request (the share links' tokens cut)
    assert "Booting worker" in log
    assert re.search(r'"GET /healthz HTTP/1.1" 200 ', log)
    assert re.search(rf'"POST /m/{match_id}/line HTTP/1.1" 303 ', log)
    assert re.search(r'"GET /j/\(token\) HTTP/1.1" 303 ', log)

    # the audit trail: each change once, with the match and the role
    audit = [line.split("audit: ", 1)[1] for line in log.splitlines() if "audit: " in line]
    assert audit == [
        f"created match={match_id} role=editor players=3 mode=referee client=127.0.0.1",
        f'recorded match={match_id} role=editor number=1 line="start: R5" client=127.0.0.1',
        f'undone match={match_id} role=editor number=1 line="start: R5" client=127.0.0.1',
        f"renewed-links match={match_id} role=editor client=127.0.0.1",
        f"imported match={imported} role=editor lines=2 mode=referee client=127.0.0.1",
    ], log[-3000:]

    # and never a token: not in the audit trail, not in the access log
    assert len(links) == 4
    for path in links:
        token = path.rsplit("/", 1)[1]
        assert token not in log, path
