"""Send to a server (companion/views/sending.py): a match played in the app in the phone
sent to a group on a server by the group's editor link. The phone checks the link and
shows the form its browser posts to the server; the server receives the record into the
group once, however often it comes (its key), without reading or writing a session (a
form posted from another site carries none of the browser's cookies), then sends the
browser on to the group's link, which opens the match with its roles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask

from companion.standalone import Standalone
from companion.views.sending import GroupLink, group_link
from tests.app.group_helpers import Crew
from tests.app.helpers import Page, Tabletop
from tests.standalone.scenario import SETTLE

EN = {"Accept-Language": "en"}


def editor_link(server: Tabletop, group_id: str) -> str:
    """The group's editor link, as its share page shows it (the first link)."""
    share = server.get(f"/g/{group_id}/share")
    found = re.search(r'href="(http://localhost/gj/[\w-]+)"', share.html)
    assert found, share.text[:500]
    return found.group(1)


def played_in_the_phone(folder: Path) -> tuple[Tabletop, str]:
    """A match made in the app in the phone (its own SQLite database in `folder`, on
    either database's pass: the phone has no other)."""
    phone_app = Standalone(folder, SETTLE).app
    phone = Tabletop(phone_app, phone_app.test_client())
    match_id = phone.create(("Ann", "Bob", "Cy"))
    return phone, match_id


def send_form(phone: Tabletop, match_id: str, link: str) -> Page:
    """The phone's send page, the link typed in and Next tapped."""
    (form,) = phone.get(f"/m/{match_id}/send", headers=EN).forms(f"/m/{match_id}/send")
    return phone.post(form.action, data=form.values() | {"link": link}, headers=EN)


def test_a_group_link_is_read_wherever_the_server_has_the_app() -> None:
    assert group_link(" https://uno.example.org/gj/abcdEFGH1234_- ") == GroupLink(
        "https://uno.example.org", "", "abcdEFGH1234_-"
    )
    found = group_link("http://192.168.1.20:5000/nomercy/gj/abcdefgh/")
    assert found is not None
    assert found.records == "http://192.168.1.20:5000/nomercy/gj/abcdefgh/records"
    assert group_link("http://[::1]:5000/gj/abcdefgh") == GroupLink(
        "http://[::1]:5000", "", "abcdefgh"
    )
    for not_one in (
        "https://a;frame-ancestors *;b/gj/abcdefgh",  # would write into the page's policy
        "https://someone:secret@uno.example.org/gj/abcdefgh",
        "https://uno.example.org:99999/gj/abcdefgh",
        "https://uno.example.org/g/abcdefgh",  # the group's page, not its link
        "https://uno.example.org/j/abcdefgh",  # a match's link
        "ftp://uno.example.org/gj/abcdefgh",
        "uno.example.org/gj/abcdefgh",
        "https://uno.example.org/gj/abc",  # too short a token
        "",
    ):
        assert group_link(not_one) is None, not_one


def test_the_phone_sends_the_record_with_its_key_to_the_link_s_server(tmp_path: Path) -> None:
    phone, match_id = played_in_the_phone(tmp_path / "phone")
    table = phone.table(match_id)
    assert f'href="/m/{match_id}/send"' in table.html  # in the More menu
    page = send_form(phone, match_id, "https://uno.example.org/gj/abcdefgh1234")
    assert page.status == 200
    (form,) = page.forms("/gj/abcdefgh1234/records")
    assert form.action == "https://uno.example.org/gj/abcdefgh1234/records"
    assert form.node.get("target") == "_blank"
    record = form.values()["record"]
    assert re.match(r"record: [\w-]{16,64}\nplayers: Ann, Bob, Cy\n", record)
    policy = page.response.headers["Content-Security-Policy"]
    assert "form-action 'self' https://uno.example.org;" in policy
    # The link is offered again next time.
    again = phone.get(f"/m/{match_id}/send", headers=EN)
    assert 'value="https://uno.example.org/gj/abcdefgh1234"' in again.html


def test_a_link_that_is_not_a_group_s_is_refused_with_what_to_copy(tmp_path: Path) -> None:
    phone, match_id = played_in_the_phone(tmp_path / "phone")
    page = send_form(phone, match_id, "https://uno.example.org/g/abcdefgh1234")
    assert page.status == 422
    assert "That is not a group's editor link" in page.text
    assert "form-action 'self';" in page.response.headers["Content-Security-Policy"]


def test_only_the_app_in_the_phone_sends(client: Any, app: Flask) -> None:
    server = Tabletop(app, client)
    match_id = server.create()
    assert "/send" not in server.table(match_id).html
    assert server.get(f"/m/{match_id}/send").status == 404


def test_the_server_receives_a_record_into_the_group_once(app: Flask, tmp_path: Path) -> None:
    server = Tabletop(app, app.test_client())
    group_id = Crew(server).create("Friday crew")
    link = editor_link(server, group_id)
    phone, match_id = played_in_the_phone(tmp_path / "phone")
    (form,) = send_form(phone, match_id, link).forms("/records")

    # Posted by the phone's browser: none of its cookies for the server go with it, and
    # its lines end in CR LF (as a browser sends a form's field).
    browser = app.test_client()
    values = form.values() | {"record": form.values()["record"].replace("\n", "\r\n")}
    sent = browser.post(form.action.removeprefix("http://localhost"), data=values)
    assert sent.status_code == 303
    assert "Set-Cookie" not in sent.headers  # no session made, none overwritten
    # The browser sent on: the group's link opened with its own cookies, then the match.
    table = Page(browser.get(sent.headers["Location"], headers=EN, follow_redirects=True))
    assert "Received: the match is in Friday crew now." in table.text
    assert table.doc.find(id_="table") is not None  # this browser edits it now
    assert "Undo" in table.text or "Start with" in table.html
    group = Page(browser.get(f"/g/{group_id}", headers=EN))
    assert group.status == 200 and "Ann" in group.text

    # Sent again (its answer was lost): the same match, and it says so.
    again = browser.post(form.action.removeprefix("http://localhost"), data=values)
    assert again.headers["Location"] == sent.headers["Location"] + "?again=1"
    page = Page(browser.get(again.headers["Location"], headers=EN, follow_redirects=True))
    assert "This record was sent before: here is the match it made, in Friday crew." in page.text


def test_what_the_server_refuses_it_says(app: Flask) -> None:
    server = Tabletop(app, app.test_client())
    group_id = Crew(server).create("Friday crew")
    token = editor_link(server, group_id).rsplit("/", 1)[1]
    browser = app.test_client()
    nothing = browser.post(f"/gj/{token}/records", data={"record": " "}, headers=EN)
    assert nothing.status_code == 400
    broken = browser.post(
        f"/gj/{token}/records", data={"record": "players: Ann\nAnn: R5\n"}, headers=EN
    )
    assert broken.status_code == 422 and "Not imported." in broken.get_data(as_text=True)
    stranger = browser.post("/gj/nosuchgroup1234/records", data={"record": "x"}, headers=EN)
    assert stranger.status_code == 403
    assert "This link doesn't work" in Page(stranger).text


def sent(phone: Tabletop, match_id: str, link: str, browser: Any) -> Any:
    """The phone's record of the match as it is now, posted by its browser to the link."""
    (form,) = send_form(phone, match_id, link).forms("/records")
    return browser.post(form.action.removeprefix("http://localhost"), data=form.values())


def sent_once(
    app: Flask, tmp_path: Path, *roster: str
) -> tuple[Crew, str, str, Tabletop, str, Any, str]:
    """A group (with `roster`), and a match played in the phone (start: R5, Ann: R3)
    sent to it by its browser, which then opened the group's link (its roles): the
    group's crew, id and link, the phone, its match, the browser and the server's match."""
    crew = Crew(Tabletop(app, app.test_client()))
    group_id = crew.create("Friday crew")
    if roster:
        crew.add(group_id, *roster)
    link = editor_link(crew.t, group_id)
    phone, match_id = played_in_the_phone(tmp_path / "phone")
    phone.play_lines(match_id, "start: R5", "Ann: R3")
    browser = app.test_client()
    first = sent(phone, match_id, link, browser)
    assert first.status_code == 303
    browser.get(first.headers["Location"], follow_redirects=True)
    on_server = first.headers["Location"].rsplit("/", 1)[1]
    return crew, group_id, link, phone, match_id, browser, on_server


def test_a_match_played_on_in_the_phone_after_it_was_sent_is_sent_again_with_its_new_lines(
    app: Flask, tmp_path: Path
) -> None:
    # The group spells her otherwise: it calls her so from then on.
    _crew, _group, link, phone, match_id, browser, on_server = sent_once(app, tmp_path, "ann")
    server = Tabletop(app, browser)
    assert server.export(on_server).endswith("Ann: R3\nrename: Ann, ann\n")

    phone.play_lines(match_id, "Bob: R4", "Cy: R6")  # played on in the phone, sent again
    again = sent(phone, match_id, link, browser)
    assert again.headers["Location"].endswith(f"/{on_server}?again=1&added=2")
    page = Page(browser.get(again.headers["Location"], headers=EN, follow_redirects=True))
    assert (
        "This record was sent before: the 2 lines played since were added to the match, "
        "in Friday crew." in page.text
    )
    # The phone says Ann where the group says ann: the same player, and the same lines.
    phone.play_lines(match_id, "Ann: R2")
    assert sent(phone, match_id, link, browser).headers["Location"].endswith("&added=1")
    assert sent(phone, match_id, link, browser).headers["Location"].endswith("?again=1")
    assert server.export(on_server).endswith("rename: Ann, ann\nBob: R4\nCy: R6\nann: R2\n")
    assert server.match_count() == 1


def test_a_player_the_group_renamed_between_two_sends_is_the_same_seat(
    app: Flask, tmp_path: Path
) -> None:
    crew, group_id, link, phone, match_id, browser, on_server = sent_once(app, tmp_path)
    crew.rename(group_id, "Bob", "Robert")  # on the server: Bob is Robert in every match
    phone.play_lines(match_id, "Bob: R4", "Cy: R7 swap Bob")  # the phone still says Bob
    assert sent(phone, match_id, link, browser).headers["Location"].endswith("&added=2")
    phone.play_lines(match_id, "Ann: R2")
    assert sent(phone, match_id, link, browser).headers["Location"].endswith("&added=1")
    assert sent(phone, match_id, link, browser).headers["Location"].endswith("?again=1")
    record = Tabletop(app, browser).export(on_server)
    assert record.endswith("rename: Bob, Robert\nRobert: R4\nCy: R7 swap Robert\nAnn: R2\n")
