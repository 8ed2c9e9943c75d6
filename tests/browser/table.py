"""A person at the table, as browser steps: tap a card, pick a colour, take, undo."""

from __future__ import annotations

import re

from playwright.sync_api import Frame, Page, expect


class Table:
    def __init__(self, page: Page | Frame, base_url: str) -> None:
        self.page = page
        self.base = base_url

    # ------------------------------------------------------------ setting up

    def new_match(
        self, names: list[str], *, mode: str = "referee", target: int | None = None
    ) -> str:
        page = self.page
        page.goto(self.base + "/new")
        for i, name in enumerate(names):
            page.fill(f"#players-{i}", name)
        if mode == "quick":
            page.get_by_label("Quick score (results only)").check()
        if target is not None:
            page.locator("details summary").click()
            page.fill("#target", str(target))
        page.get_by_role("button", name="Start the match").click()
        page.wait_for_url(re.compile(r"/m/[^/]+$"))
        return page.url

    def import_record(self, text: str) -> str:
        """A match from a table record pasted on the import page; the table's URL."""
        page = self.page
        page.goto(self.base + "/import")
        page.get_by_label("Or paste the record").fill(text)
        page.get_by_role("button", name="Import").click()
        page.wait_for_url(re.compile(r"/m/[^/]+$"))
        return page.url

    def new_group(self, name: str, *players: str) -> str:
        """A group from the new-group form, its roster from the add-player form; its URL."""
        page = self.page
        page.goto(self.base + "/groups/new")
        page.fill("#group-name", name)
        page.click("button[type=submit]")
        group_url = page.url
        for player in players:
            page.fill("#new-player", player)
            page.click(".add-player button")
            page.wait_for_selector(f".roster-list strong:text-is('{player}')")
        return group_url

    # ------------------------------------------------------------ reading

    @property
    def version(self) -> int:
        return int(self.page.locator("#table").get_attribute("data-version") or 0)

    def expect_turn(self, text: str) -> None:
        expect(self.page.locator("h1.turn")).to_have_text(text)

    def count(self, name: str) -> str:
        return self.page.locator(".seat", has_text=name).locator(".count").text_content() or ""

    # ------------------------------------------------------------ acting

    def _then_new_version(self, action: object) -> None:
        before = self.version
        assert callable(action)
        action()
        expect(self.page.locator("#table")).not_to_have_attribute(
            "data-version", str(before), timeout=5000
        )

    def at_rest(self) -> None:
        """Until the table's keys take taps again: they dim and take none for a moment
        after each change (static/app.js), and a click meanwhile scrolls the page about
        as the browser driver looks for a place to click."""
        expect(self.page.locator("#table.settling, #table.sending")).to_have_count(0)

    def tab(self, title: str) -> None:
        self.page.locator("nav.tabs").get_by_role("link", name=title, exact=True).click()
        expect(self.page.locator("nav.tabs .tab.active")).to_have_accessible_name(title)

    def start(self, card_name: str) -> None:
        self._then_new_version(
            lambda: self.page.locator(f'[aria-label="Start with {card_name}"]').click()
        )

    def tap(self, card_name: str) -> None:
        """Tap a card that plays at once."""
        self._then_new_version(
            lambda: self.page.locator(f'.keyboard [aria-label="{card_name}"]').click()
        )

    def pick(self, card_name: str) -> None:
        """Tap a card that asks a follow-up question."""
        self.page.locator(f'.keyboard [aria-label="{card_name}"]').click()
        expect(self.page.locator(".follow-up")).to_be_visible()

    def button(self, name: str) -> None:
        self._then_new_version(
            lambda: self.page.get_by_role("button", name=name, exact=True).click()
        )

    def refused_tap(self, card_name: str) -> str:
        self.page.locator(f'.keyboard [aria-label="{card_name} (not allowed now)"]').click()
        alert = self.page.locator(".alert.refused")
        expect(alert).to_be_visible()
        return alert.inner_text()

    def step_to(self, field: str, value: int) -> None:
        """Tap a stepper's +5, + and - until its field (`#id`) shows `value`."""
        box = self.page.locator(f"{field}").locator("xpath=..")
        field_ = self.page.locator(field)
        while (now := int(field_.input_value() or 0)) != value:
            if value - now >= 5 and box.get_by_label("Five more").count():
                box.get_by_label("Five more").click()
            elif value > now:
                box.get_by_label("One more").click()
            else:
                box.get_by_label("One fewer").click()

    def roulette(self, color: str, count: int) -> None:
        """The colour named, then the cards turned up, then record."""
        self.page.locator("form.roulette label", has_text=color).click()
        self.step_to("#roulette-count", count)
        self.button("Record the roulette")

    def discard_all(self, card_name: str, more: int) -> None:
        self.pick(card_name)
        self.step_to("#discard-count", more)
        self.button(f"Play {card_name}")

    def correct(self, name: str, count: int) -> None:
        self.page.locator(f'a.seat-box[aria-label^="Correct {name}\'s count"]').click()
        expect(self.page.locator("#fix-count")).to_be_visible()
        self.step_to("#fix-count", count)
        self.button("Correct the count")

    def catch(self, caught: str, catcher: str) -> None:
        """Tap "Caught!" beside the player with one card, then who caught them."""
        self.page.get_by_role("link", name=f"Caught {caught} without UNO").click()
        expect(self.page.locator(".follow-up")).to_contain_text(f"Who caught {caught}")
        self.button(catcher)

    def quick_points(self, name: str, points: int) -> None:
        """A quick hand's loser, come up on the keypad: their points typed, recorded."""
        expect(self.page.locator(".keypad-who span")).to_have_text(name)
        keys = self.page.locator("[data-keypad-keys]")
        for digit in str(points):
            keys.get_by_role("button", name=digit, exact=True).click()
        expect(self.page.locator("#quick-points")).to_have_value(str(points))
        self._then_new_version(
            keys.get_by_role("button", name=f"Record {name}'s points", exact=True).click
        )

    def undo(self) -> str:
        """Tap Undo (beside the last line, at the top); what it said it would take back."""
        button = self.page.locator(".undo-bar button")
        label = button.get_attribute("aria-label") or ""
        self._then_new_version(button.click)
        return label

    def reveal(self, name: str, cards: str) -> None:
        form = self.page.locator("form.reveal", has_text=f"{name} reveals")
        typed = form.locator("details.reveal-codes")
        if typed.get_attribute("open") is None:  # folded away by the keyboard's script
            typed.locator("summary").click()
        form.locator('input[name="cards"]').fill(cards)
        self._then_new_version(
            lambda: form.get_by_role("button", name=f"Record {name}'s cards").click()
        )

    # ------------------------------------------------------------ revealing by tapping

    def choose_loser(self, name: str) -> None:
        """Tap the loser's name chip (there is none when only one loser is left)."""
        chips = self.page.locator(".reveal-chips")
        if chips.count() and chips.is_visible():
            chips.get_by_role("button", name=name, exact=True).click()
        expect(self.page.locator("form.reveal:visible h3")).to_contain_text(f"{name} reveals")

    def collect(self, name: str, *card_names: str) -> None:
        """Tap these cards (like "Red 5", "Wild Draw 6") into the loser's collected row."""
        self.choose_loser(name)
        keys = self.page.locator(".reveal-keys")
        for card in card_names:
            title = "Wild" if card.startswith("Wild") else card.split()[0]
            keys.locator(".reveal-tab", has_text=title).click()
            keys.locator(f'.reveal-key[aria-label="{card}"]').click()

    def reveal_by_tapping(self, name: str, *card_names: str) -> None:
        """Tap the loser's cards on the reveal keyboard, then record them."""
        self.collect(name, *card_names)
        self._then_new_version(
            lambda: self.page.get_by_role("button", name=f"Record {name}'s cards").click()
        )
