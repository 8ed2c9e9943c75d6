"""Drive the app the way a phone at the table does: read pages, fill in forms, follow 303s.

`Page` parses a response into a small element tree (standard library only) and
reads what a browser would: the table's `data-version`, the CSRF token of a
form, the values a form would submit. `Tabletop` creates matches through the
new-match form and records lines through the table's forms: the hidden fields
(CSRF token, version, last line, form key, screen stamp) of a form on the page it last
saw, and
the fields the screen posts for the line (the engine's `line_fields`, the mapping the
app reads them back with), exactly as the screen sends them.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select
from werkzeug.test import TestResponse

from companion.access import Phone
from companion.matches import Match
from companion.models import LINES, MATCHES
from companion.store import current_store
from engine import (
    REVEAL_FIELDS,
    EngineError,
    HouseRules,
    line_fields,
    name_key,
    parse_line,
    rule_fields,
)
from engine.core.notation import HEADER_KEYS, strip_comment


def dealer_field(players: Sequence[str], dealer: str) -> str:
    """The new-match form's `dealer` value for `dealer` when `players` fill the rows
    from the top, as a browser posts it (the inverse of `NewMatchForm.dealer_name`)."""
    keys = [name_key(name) for name in players]
    return str(keys.index(name_key(dealer)) + 1)


RECORDS = Path(__file__).resolve().parents[1] / "engine" / "records"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

# ---------------------------------------------------------------- a tiny DOM


@dataclass(eq=False)
class Node:
    tag: str
    attrs: dict[str, str]
    parent: Node | None = None
    children: list[Node | str] = field(default_factory=list)

    def __repr__(self) -> str:
        attrs = " ".join(f'{k}="{v[:40]}"' for k, v in self.attrs.items())
        return f"<{self.tag} {attrs}>" if attrs else f"<{self.tag}>"

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.attrs.get(name, default)

    def __getitem__(self, name: str) -> str:
        return self.attrs[name]

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    @property
    def text(self) -> str:
        """The element's text with its whitespace tidied, as a reader sees it."""
        parts: list[str] = []

        def walk(node: Node) -> None:
            for child in node.children:
                if isinstance(child, str):
                    parts.append(child)
                else:
                    walk(child)

        walk(self)
        return " ".join("".join(parts).split())

    def iter(self) -> Iterator[Node]:
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(
        self, tag: str | None = None, *, cls: str | None = None, **attrs: str
    ) -> list[Node]:
        """Descendants by tag, one class and exact attribute values (`id_`/`for_` allowed)."""
        wanted = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
        return [
            node
            for node in self.iter()
            if (tag is None or node.tag == tag)
            and (cls is None or cls in node.classes)
            and all(node.attrs.get(k) == v for k, v in wanted.items())
        ]

    def find(self, tag: str | None = None, *, cls: str | None = None, **attrs: str) -> Node | None:
        found = self.find_all(tag, cls=cls, **attrs)
        return found[0] if found else None

    def one(self, tag: str | None = None, *, cls: str | None = None, **attrs: str) -> Node:
        found = self.find_all(tag, cls=cls, **attrs)
        assert found, f"no <{tag or '*'}> with class={cls} {attrs}"
        return found[0]

    def ancestor(self, tag: str) -> Node | None:
        node = self.parent
        while node is not None and node.tag != tag:
            node = node.parent
        return node


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def _node(self, tag: str, attrs: list[tuple[str, str | None]]) -> Node:
        node = Node(tag, {k: v or "" for k, v in attrs}, parent=self.stack[-1])
        self.stack[-1].children.append(node)
        return node

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = self._node(tag, attrs)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._node(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


def parse_html(text: str) -> Node:
    builder = _Builder()
    builder.feed(text)
    builder.close()
    return builder.root


# ---------------------------------------------------------------- pages and forms


@dataclass(eq=False)
class Form:
    node: Node

    @property
    def action(self) -> str:
        return self.node.get("action") or ""

    def buttons(self) -> list[Node]:
        return [b for b in self.node.find_all("button") if b.get("type", "submit") == "submit"]

    def button(self, value: str | None = None, *, text: str | None = None) -> Node:
        for b in self.buttons():
            if (value is None or b.get("value") == value) and (text is None or text in b.text):
                return b
        raise AssertionError(f"no button value={value!r} text={text!r} in the form")

    def values(self, button: Node | None = None) -> dict[str, Any]:
        """What a browser submits: the fields' current values, plus the button pressed."""
        data: dict[str, list[str]] = {}

        def add(name: str | None, value: str) -> None:
            if name:
                data.setdefault(name, []).append(value)

        for node in self.node.iter():
            if "disabled" in node.attrs:
                continue
            if node.tag == "input":
                kind = node.get("type", "text")
                if kind in ("submit", "button", "reset", "image", "file"):
                    continue
                if kind in ("checkbox", "radio"):
                    if "checked" in node.attrs:
                        add(node.get("name"), node.get("value", "on") or "on")
                else:
                    add(node.get("name"), node.get("value", "") or "")
            elif node.tag == "textarea":
                add(node.get("name"), node.text)
            elif node.tag == "select":
                options = node.find_all("option")
                chosen = [o for o in options if "selected" in o.attrs] or options[:1]
                for option in chosen:
                    add(node.get("name"), option.get("value", option.text) or "")
        if button is not None:
            add(button.get("name"), button.get("value", "") or "")
        return {k: v[0] if len(v) == 1 else v for k, v in data.items()}


class Page:
    """A response as the browser shows it; `status` is the status of the request sent
    (a POST's 303 even when the page shown is the table it redirected to)."""

    def __init__(self, response: TestResponse, status: int | None = None) -> None:
        self.response = response
        self.status = response.status_code if status is None else status
        self.html = response.get_data(as_text=True)
        self._doc: Node | None = None

    def __repr__(self) -> str:
        return f"<Page {self.status} {self.html[:80]!r}>"

    @property
    def doc(self) -> Node:
        if self._doc is None:
            self._doc = parse_html(self.html)
        return self._doc

    @property
    def text(self) -> str:
        return self.doc.text

    def by_id(self, ident: str) -> Node | None:
        return self.doc.find(id_=ident)

    @property
    def table(self) -> Node:
        return self.doc.one(id_="table")

    @property
    def version(self) -> int:
        return int(self.table["data-version"])

    @property
    def token(self) -> str:
        field_ = self.doc.find("input", name="csrf_token")
        assert field_ is not None, "no CSRF token on the page"
        return field_["value"]

    def forms(self, action: str | None = None) -> list[Form]:
        """The forms that send something (a method="dialog" form only closes a panel)."""
        return [
            Form(node)
            for node in self.doc.find_all("form")
            if (node.get("method") or "").lower() != "dialog"
            and (action is None or (node.get("action") or "").split("?")[0].endswith(action))
        ]

    def form_with(self, value: str | None = None, *, text: str | None = None) -> tuple[Form, Node]:
        """The form holding the submit button with that value (or showing that text)."""
        for form in self.forms():
            for button in form.buttons():
                if (value is None or button.get("value") == value) and (
                    text is None or text in button.text
                ):
                    return form, button
        raise AssertionError(f"no button value={value!r} text={text!r} on the page")

    @property
    def refusal(self) -> Node | None:
        return self.doc.find(cls="refused")

    def rule_links(self) -> list[str]:
        """The rules a refusal on the page links to (/rules#RULE)."""
        box = self.refusal
        if box is None:
            return []
        return [
            a["href"].split("#", 1)[1]
            for a in box.find_all("a")
            if re.search(r"/rules(\?[^#]*)?#[a-z-]+$", a.get("href") or "")
        ]

    @property
    def notices(self) -> list[str]:
        """What the table tells: its notices, and the line at its top ("Undone: ...")."""
        told = [n.text for n in self.doc.find_all(cls="notice")]
        return told + ([self.recorded] if self.recorded else [])

    @property
    def turn(self) -> str:
        return self.doc.one("h1", cls="turn").text

    @staticmethod
    def _seat_name(seat: Node) -> str:
        """A seat's player: the full name a screen reader hears (a long one is shown short)."""
        full = seat.find(cls="full-name")
        return (full or seat.one("strong")).text

    def seats(self) -> dict[str, str]:
        """Each seat's name and what the seat shows (count, badges)."""
        return {self._seat_name(li): li.text for li in self.doc.one(cls="seats").find_all("li")}

    def seat_in_turn(self) -> list[str]:
        """The seats marked as the one to act (a class naming the turn)."""
        return [
            self._seat_name(li)
            for li in self.doc.one(cls="seats").find_all("li")
            if any("turn" in c for c in li.classes)
        ]

    def dealer(self) -> str | None:
        """The seat marked as the dealer's."""
        for li in self.doc.one(cls="seats").find_all("li"):
            if li.find("span", cls="dealer") is not None:
                return li.one("strong").text
        return None

    @property
    def undo_label(self) -> str | None:
        """What the undo button says it will undo (its name for a screen reader, beside
        the line it confirms); None while there is nothing to undo."""
        for form in self.forms("/undo"):
            for button in form.buttons():
                return None if "disabled" in button.attrs else button.get("aria-label")
        return None

    @property
    def recorded(self) -> str | None:
        """The confirmation at the top of the table ("Recorded: ..."); None without one."""
        box = self.doc.find("section", cls="recorded")
        return None if box is None else " ".join(box.one("p").text.split())


# ---------------------------------------------------------------- records


@dataclass(frozen=True)
class Expected:
    ok: bool
    line: int | None = None
    rule: str | None = None


def expectation(text: str) -> Expected:
    for raw in text.splitlines():
        if raw.startswith("#! ok"):
            return Expected(True)
        if raw.startswith("#! error"):
            _, _, line, rule = raw.split()[:4]
            return Expected(False, int(line), rule)
    raise AssertionError("the record says neither #! ok nor #! error")


def record_lines(text: str) -> list[tuple[int, str]]:
    """(line number, body) for every line that is not blank or a comment."""
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        body = strip_comment(raw)
        if body:
            out.append((number, body))
    return out


def header_key(body: str) -> str | None:
    key = body.partition(":")[0].strip().lower()
    return key if key in HEADER_KEYS else None


@dataclass
class Played:
    """A record played through the forms: the match, and the line refused (if any)."""

    match_id: str
    page: Page
    refused_at: int | None = None
    posted: list[int] = field(default_factory=list)  # record line numbers sent as forms


# ---------------------------------------------------------------- another process


@contextmanager
def elsewhere(app: Flask) -> Iterator[sa.Connection]:
    """A connection of the database's own, as another server would have: a transaction,
    committed at the end of the block."""
    with app.app_context():
        url = current_store().engine.url
    other = sa.create_engine(url)
    try:
        with other.begin() as conn:
            yield conn
    finally:
        other.dispose()


def a_line_from_elsewhere(app: Flask, match_id: str, text: str) -> int:
    """A line recorded by another process, as a writer does it: the line and the match
    row's version and last line, together, on a connection of its own. Its row id."""
    with elsewhere(app) as conn:
        row = conn.execute(
            sa.text("SELECT version FROM match WHERE id = :m"), {"m": match_id}
        ).one()
        new_id = conn.execute(
            sa.text(
                "INSERT INTO match_line (match_id, seq, text, created_at) "
                "VALUES (:m, :s, :t, CURRENT_TIMESTAMP) RETURNING id"
            ),
            {"m": match_id, "s": row.version + 1, "t": text},
        ).scalar()
        conn.execute(
            sa.text("UPDATE match SET version = :v, last_line_id = :i WHERE id = :m"),
            {"v": row.version + 1, "i": new_id, "m": match_id},
        )
    return int(new_id)


# ---------------------------------------------------------------- the driver


class Tabletop:
    """One phone at the table: its own session (cookie, CSRF token) and the last pages seen."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app = app
        self.client = client
        self.pages: dict[str, Page] = {}

    # -- plain requests

    def get(self, url: str, **kwargs: Any) -> Page:
        return Page(self.client.get(url, **kwargs))

    def post(self, url: str, data: Any = None, **kwargs: Any) -> Page:
        return Page(self.client.post(url, data=data, **kwargs))

    def follow(self, response: TestResponse, match_id: str | None = None) -> Page:
        """A 303 is followed (GET), as the browser does; anything else is the page."""
        if response.status_code != 303:
            page = Page(response)
        else:
            page = Page(self.client.get(response.headers["Location"]), status=303)
        if match_id is not None and page.doc.find(id_="table") is not None:
            self.pages[match_id] = page
        return page

    # -- a new match

    def new_match_values(self, players: tuple[str, ...] | list[str], **fields: str | None) -> dict:
        """The new-match form as the page fills it in, with the names and `fields` typed in."""
        page = self.get("/new")
        assert page.status == 200
        (form,) = page.forms("/new")
        data = form.values()
        for i in range(6):
            data[f"players-{i}"] = players[i] if i < len(players) else ""
        for key, value in fields.items():
            if value is None:
                data.pop(key, None)
            else:
                data[key] = value
        return data

    def create(
        self, players: tuple[str, ...] | list[str] = ("Ann", "Bob", "Cy"), **fields: Any
    ) -> str:
        """A new match through the form; its id."""
        data = self.new_match_values(players, **fields)
        response = self.client.post("/new", data=data)
        assert response.status_code == 303, Page(response).text[:2000]
        location = response.headers["Location"]
        match = re.fullmatch(r"/m/([\w-]+)", location)
        assert match, location
        match_id = match.group(1)
        self.follow(response, match_id)
        return match_id

    # -- the table

    def table(self, match_id: str, **query: Any) -> Page:
        page = self.get(f"/m/{match_id}", query_string=query)
        if page.status == 200:
            self.pages[match_id] = page
        return page

    def tab(self, match_id: str, title: str) -> Page:
        """Tap a tab of the card keyboard ("Blue", "Wild", "Playable") on the table as it is."""
        page = self.table(match_id)
        (link,) = [a for a in page.doc.one(cls="tabs").find_all("a") if tab_name(a) == title]
        tab = self.get(link["href"])
        assert tab.status == 200
        self.pages[match_id] = tab
        return tab

    def follow_up(
        self, match_id: str, card_name: str, *, drawn: int | None = None, tab: str | None = None
    ) -> Page:
        """Tap a card that asks something first (a colour, a partner, a count) on the
        Playable tab of the table as it is now (or on `tab`: a wild asks its colour on the
        Wild tab); with `drawn`, after the "Drew first" stepper was set (htmx sends its
        value along with the link)."""
        page = self.table(match_id) if tab is None else self.tab(match_id, tab)
        link = page.doc.one(cls="keys").one("a", cls="key", **{"aria-label": card_name})
        href = link["href"] + ("" if drawn is None else f"&drawn={drawn}")
        follow_up = self.get(href)
        assert follow_up.status == 200
        return follow_up

    def page(self, match_id: str) -> Page:
        return self.pages.get(match_id) or self.table(match_id)

    def hidden(
        self, match_id: str, version: int | None = None, token: str | None = None
    ) -> dict[str, str]:
        """The hidden fields of a table form on the page last seen (its CSRF token, the
        table's version and last line, the form's own key, the screen's stamp), `version`
        and `token` put in their place when given (a stale or forged form)."""
        page = self.page(match_id)
        forms = page.forms("/line") + page.forms("/undo") + page.forms("/reveal")
        if forms:
            values = forms[0].values()
            fields = {k: values[k] for k in ("csrf_token", "version", "last", "key", "shown")}
        else:  # a viewer's table has no form: what one would carry
            fields = {"csrf_token": page_token(page), "version": str(page.version)}
            fields["last"] = page.table.one(cls="live")["hx-get"].split("last=")[1].split("&")[0]
            fields["key"] = secrets.token_urlsafe(12)
        if version is not None:
            fields["version"] = str(version)
        if token is not None:
            fields["csrf_token"] = token
        return fields

    def post_fields(
        self,
        match_id: str,
        endpoint: str,
        fields: dict[str, str],
        *,
        version: int | None = None,
        token: str | None = None,
    ) -> Page:
        """POST /m/<id>/<endpoint> with a table form's hidden fields and `fields`."""
        data = self.hidden(match_id, version, token) | fields
        return self.follow(self.client.post(f"/m/{match_id}/{endpoint}", data=data), match_id)

    def line(
        self,
        match_id: str,
        player: str,
        action: str,
        *,
        version: int | None = None,
        token: str | None = None,
        **extra: Any,
    ) -> Page:
        """POST /m/<id>/line with these fields (`extra`: drawn, count), as the screen does."""
        fields = {"player": player, "action": action} | {k: str(v) for k, v in extra.items()}
        return self.post_fields(match_id, "line", fields, version=version, token=token)

    def reveal(
        self,
        match_id: str,
        player: str,
        *,
        cards: str | None = None,
        points: int | str | None = None,
        version: int | None = None,
        token: str | None = None,
    ) -> Page:
        fields = {"player": player, "cards": cards or ""}
        fields["points"] = "" if points is None else str(points)
        return self.post_fields(match_id, "reveal", fields, version=version, token=token)

    def undo(self, match_id: str, *, version: int | None = None, token: str | None = None) -> Page:
        return self.post_fields(match_id, "undo", {}, version=version, token=token)

    def press(
        self,
        match_id: str,
        value: str | None = None,
        *,
        text: str | None = None,
        page: Page | None = None,
        **typed: str,
    ) -> Page:
        """Tap the button with that value or text on the page, after typing `typed` in its
        form; it posts where the button says (its formaction), else where the form does."""
        page = page or self.page(match_id)
        form, button = page.form_with(value, text=text)
        data = form.values(button) | typed
        action = button.get("formaction") or form.action
        return self.follow(self.client.post(action, data=data), match_id)

    def play(self, match_id: str, body: str) -> Page:
        """One record line through the form that records it, as the screen posts it (the
        engine's mapping, `line_fields`). A line the engine can't read is typed into the
        correction field, the one field that takes an action as text."""
        try:
            line = parse_line(body, list(self.page(match_id).seats()))
        except EngineError:
            line = None
        if line is not None:
            fields = line_fields(line)
            endpoint = "reveal" if REVEAL_FIELDS & fields.keys() else "line"
            return self.post_fields(match_id, endpoint, fields)
        player, _, rest = body.partition(":")
        if header_key(body):
            return self.line(match_id, "", body)
        return self.line(match_id, player.strip(), " ".join(rest.split()))

    def play_lines(self, match_id: str, *bodies: str) -> Page:
        """Several lines that must all be recorded; the last page."""
        page = self.page(match_id)
        for body in bodies:
            page = self.play(match_id, body)
            assert page.status == 303, f"{body!r} refused: {page.status} {self.problem(page)}"
        return page

    @staticmethod
    def problem(page: Page) -> str:
        box = page.refusal
        return box.text if box is not None else page.text[:500]

    def play_record(self, text: str, mode: str = "referee") -> Played:
        """A table record played through the web forms: the header through /new, then
        each line through the table's forms. Stops at the first line refused."""
        lines = record_lines(text)
        number, first = lines.pop(0)
        assert header_key(first) == "players", f"line {number} should seat the players"
        names = [" ".join(n.split()) for n in first.partition(":")[2].split(",")]
        fields: dict[str, Any] = {"mode": mode}
        while lines and header_key(lines[0][1]) in ("dealer", "rules"):
            _, body = lines.pop(0)
            value = body.partition(":")[2]
            if header_key(body) == "dealer":
                fields["dealer"] = dealer_field(names, value)
            else:
                fields |= rule_fields(HouseRules.parse(value))
        match_id = self.create(names, **fields)
        played = Played(match_id, self.pages[match_id])
        for number, body in lines:
            played.page = self.play(match_id, body)
            played.posted.append(number)
            if played.page.status != 303:
                played.refused_at = number
                break
        return played

    # -- what the database holds

    def match(self, match_id: str) -> Match:
        """The match's row as the database has it now."""
        with self.app.app_context(), current_store().engine.connect() as conn:
            row = conn.execute(select(MATCHES).where(MATCHES.c.id == match_id)).one()
        return Match.from_row(row._mapping)

    def logged(self, match_id: str) -> list[str]:
        with self.app.app_context(), current_store().engine.connect() as conn:
            return list(
                conn.scalars(
                    select(LINES.c.text).where(LINES.c.match_id == match_id).order_by(LINES.c.seq)
                )
            )

    def state(self, match_id: str) -> dict[str, Any]:
        """The match's state as the app has it (its cached game, brought up to the row)."""
        editor, _ = share_tokens(self.app, match_id)
        with self.app.app_context():
            table = current_store().table(match_id, Phone({match_id: ["editor", editor]}))
        return table.state.to_json()

    def match_count(self) -> int:
        with self.app.app_context(), current_store().engine.connect() as conn:
            return conn.scalar(select(func.count()).select_from(MATCHES)) or 0

    def match_ids(self) -> set[str]:
        with self.app.app_context(), current_store().engine.connect() as conn:
            return set(conn.scalars(select(MATCHES.c.id)))

    def export(self, match_id: str) -> str:
        response = self.client.get(f"/m/{match_id}/record.txt")
        assert response.status_code == 200
        return response.get_data(as_text=True)


# ---------------------------------------------------------------- share links


def share_tokens(app: Flask, match_id: str) -> tuple[str, str]:
    """The match's (editor, viewer) link tokens, as the database holds them now."""
    with app.app_context(), current_store().engine.connect() as conn:
        row = conn.execute(
            select(MATCHES.c.editor_token, MATCHES.c.viewer_token).where(MATCHES.c.id == match_id)
        ).one()
    return row.editor_token, row.viewer_token


def phone(app: Flask, link: str | None = None) -> Tabletop:
    """Another phone (its own cookie jar), which opened `link` (/j/... or /v/...) if given."""
    other = Tabletop(app, app.test_client())
    if link is not None:
        response = other.client.get(link)
        assert response.status_code == 303, (link, response.status_code)
    return other


def tab_name(tab: Node) -> str:
    """A keyboard tab's name: the colour's (its letter is drawn, the name is read), or the
    Playable tab's word."""
    return (tab.find(cls="sr-only") or tab).text


def page_token(page: Page) -> str:
    """The session's CSRF token as htmx sends it (the body's hx-headers): on every page,
    a viewer's too, which has no form of its own."""
    import json

    return str(json.loads(page.doc.one("body")["hx-headers"])["X-CSRFToken"])


def forget_games(app: Flask) -> None:
    """As in a process that never built any game: the app's cache emptied."""
    app.extensions["store"].games.clear()
