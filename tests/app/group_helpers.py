"""Drive a group the way a phone does: its page's forms, as they are rendered, posted."""

from __future__ import annotations

import re
from typing import Any

from tests.app.helpers import Form, Page, Tabletop


class Crew:
    """A phone using groups (one Tabletop: its session and its pages)."""

    def __init__(self, tabletop: Tabletop) -> None:
        self.t = tabletop

    def create(self, name: str = "Friday crew") -> str:
        page = self.t.get("/")
        (link,) = [a for a in page.doc.find_all("a") if a.get("href") == "/groups/new"]
        (form,) = self.t.get(link["href"]).forms("/groups/new")
        response = self.t.client.post(form.action, data=form.values() | {"name": name})
        assert response.status_code == 303, Page(response).text[:500]
        found = re.fullmatch(r"/g/([\w-]+)", response.headers["Location"])
        assert found
        return found.group(1)

    def page(self, group_id: str) -> Page:
        return self.t.get(f"/g/{group_id}")

    def form(self, group_id: str, ending: str, player: str | None = None) -> Form:
        """The group page's form posting to .../`ending` (of `player`'s roster line)."""
        page = self.page(group_id)
        assert page.status == 200, page.text[:300]
        scope = page.doc
        if player is not None:
            (scope,) = [
                li
                for li in page.doc.one(cls="roster-list").find_all("li")
                if li.one("strong").text == player
            ]
        forms = [Form(f) for f in scope.find_all("form") if f.get("action", "").endswith(ending)]
        assert forms, f"no form to {ending} on the group page"
        return forms[0]

    def post(self, form: Form, **typed: str) -> Page:
        return self.t.follow(self.t.client.post(form.action, data=form.values() | typed))

    def add(self, group_id: str, *names: str) -> Page:
        page = None
        for name in names:
            page = self.post(self.form(group_id, "/players"), name=name)
        assert page is not None
        return page

    def rename(self, group_id: str, player: str, new: str) -> Page:
        return self.post(self.form(group_id, "/name", player), name=new)

    def retire(self, group_id: str, player: str) -> Page:
        """Tap Retire (or Bring back) on the player's line."""
        return self.post(self.form(group_id, "/retired", player))

    def remove(self, group_id: str, player: str) -> Page:
        return self.post(self.form(group_id, "/remove", player))

    def roster(self, group_id: str) -> dict[str, str]:
        """Name: what the roster says of them ("2 matches · retired")."""
        listed = self.page(group_id).doc.find(cls="roster-list")
        if listed is None:
            return {}
        return {
            li.one("strong").text: li.one(cls="who").one(cls="help").text
            for li in listed.find_all("li")
        }

    def new_match_form(self, group_id: str) -> tuple[Page, dict[str, Any]]:
        page = self.t.get(f"/g/{group_id}/new")
        assert page.status == 200, page.text[:300]
        (form,) = page.forms(f"/g/{group_id}/new")
        return page, form.values()

    def start(
        self,
        group_id: str,
        seats: list[str] | None = None,
        newcomer: str = "",
        **fields: str,
    ) -> str | Page:
        """A new match from the group's form: `seats` picked in order (None: the seating
        offered), `newcomer` typed. The match's id, or the page that refused it."""
        _page, data = self.new_match_form(group_id)
        if seats is not None:
            for i in range(6):
                data[f"players-{i}"] = seats[i] if i < len(seats) else ""
            data.pop("dealer", None)  # the dealer ticked was the last seating's: untick it
        data |= {"newcomer": newcomer, **fields}
        response = self.t.client.post(f"/g/{group_id}/new", data=data)
        if response.status_code != 303:
            return Page(response)
        match_id = response.headers["Location"].rsplit("/", 1)[1]
        self.t.follow(response, match_id)
        return match_id

    def match_links(self, group_id: str, section: str) -> list[Any]:
        """The matches listed In progress ("playing") or Finished: their link and text."""
        heading = self.page(group_id).doc.one(id_=section)
        block = heading.parent
        assert block is not None
        return [(a["href"], a.text) for a in block.find_all("a")]

    def leaderboard(self, group_id: str) -> list[list[str]]:
        table = self.page(group_id).doc.find("table", cls="leaderboard")
        if table is None:
            return []
        rows = table.one("tbody").find_all("tr")
        return [[cell.text for cell in row.iter() if cell.tag in ("th", "td")] for row in rows]
