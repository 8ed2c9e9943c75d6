"""The house-rule lab in the app (issue 16): the form and its refusals, a run started in
a worker process of its own, its progress polled, its result (summary, figures, charts),
a run whose worker is gone shown as stopped and started again, the limits, a match's
house rules prefilled, and the migration up and down."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import downgrade, upgrade

from companion import lab_worker
from companion.extensions import db
from companion.lab import Lab, LabRun
from engine import OFFICIAL, HouseRules, rule_fields
from tests.app.helpers import Page, Tabletop

HX = {"HX-Request": "true"}
SMALL = "100"  # hands per rule set: a run of a few seconds


class LabPhone:
    """A phone using the lab through its screens: posts exactly what the form posts."""

    def __init__(self, app: Flask, tabletop: Tabletop) -> None:
        self.app = app
        self.tabletop = tabletop
        self.started: list[str] = []

    @property
    def lab(self) -> Lab:
        lab: Lab = self.app.extensions["lab"]
        return lab

    def form(self, url: str = "/lab") -> dict[str, Any]:
        (form,) = self.tabletop.get(url).forms("/lab")
        return form.values()

    def start(self, unchecked: tuple[str, ...] = (), **changes: str) -> Page:
        """Post the form with `changes`; `unchecked` are the boxes the phone unticks."""
        data = self.form() | {"hands": SMALL} | changes
        for box in unchecked:
            del data[box]
        page = self.tabletop.post("/lab", data=data)
        if page.status == 303:
            self.started.append(self.token(page))
        return page

    @staticmethod
    def token(page: Page) -> str:
        return page.response.headers["Location"].rsplit("/", 1)[1]

    def run(self, token: str) -> LabRun:
        with self.app.app_context():
            found = self.lab.run(token)
        assert found is not None
        return found

    def wait(self, token: str, seconds: float = 60) -> Page:
        """Poll the progress as htmx does, until the run is no longer running."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            part = self.tabletop.get(f"/lab/{token}", headers=HX)
            if part.doc.find("progress") is None:
                return self.tabletop.get(f"/lab/{token}")
            time.sleep(0.3)
        raise AssertionError(f"the run {token} did not end in {seconds} s")

    def kill(self, token: str) -> None:
        pid = self.run(token).worker_pid
        assert pid is not None
        with contextlib.suppress(ProcessLookupError):  # it ended already
            os.kill(pid, signal.SIGKILL)

    def stop_all(self) -> None:
        for token in self.started:
            self.kill(token)


@pytest.fixture
def phone(app: Flask, tabletop: Tabletop) -> Iterator[LabPhone]:
    made = LabPhone(app, tabletop)
    yield made
    made.stop_all()


@pytest.fixture
def phone_with(app_with: Any) -> Iterator[Any]:
    """A phone on an app with lab settings of the test's own."""
    made: list[LabPhone] = []

    def build(**config: Any) -> LabPhone:
        app = app_with(**config)
        made.append(LabPhone(app, Tabletop(app, app.test_client())))
        return made[-1]

    yield build
    for phone in made:
        phone.stop_all()


# ---------------------------------------------------------------- the form


def test_the_form_offers_two_rule_sets_players_policy_and_hands(phone: LabPhone) -> None:
    values = phone.form()
    assert values["a-stack"] == values["b-stack"] == "last"
    assert values["players"] == "4" and values["policy"] == "table" and values["hands"] == "5000"
    page = phone.tabletop.get("/lab")
    assert page.doc.one("input", name="hands")["max"] == "20000"


def test_the_policies_are_named_and_explained_in_the_phones_language(phone: LabPhone) -> None:
    """The policies' names were shown as the engine's identifiers (uniform) in every
    language, beside explanations that were translated."""
    german = {"Accept-Language": "de"}
    page = phone.tabletop.get("/lab", headers=german)
    labels = [label.text.strip() for label in page.doc.find_all("label", cls="choice")]
    assert labels[-3:] == ["Tisch", "Gleichverteilt", "Strategisch"]
    help_ = page.by_id(page.doc.one("input", name="policy", value="uniform")["aria-describedby"])
    assert help_ is not None and help_.text.startswith("Die Zufallsspieler")
    token = phone.token(phone.start(policy="uniform"))
    run_page = phone.tabletop.get(f"/lab/{token}", headers=german).doc
    policy = run_page.one("details", cls="lab-policy")  # folded: the result comes first
    assert policy.find("summary").text == "Gleichverteilt" and policy.get("open") is None
    assert policy.find("p").text.startswith("Die Zufallsspieler")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"players": "7"}, "players"),
        ({"players": ""}, "players"),
        ({"hands": "20001"}, "hands"),
        ({"hands": "10"}, "hands"),
        ({"hands": "many"}, "hands"),
        ({"b-mercy": "3"}, "b-mercy"),
        ({"policy": "cheating"}, "policy"),
        ({"a-stack": "twice"}, "a-stack"),
    ],
)
def test_a_bad_setting_is_refused_with_a_sentence_beside_its_field(
    phone: LabPhone, changes: dict[str, str], field: str
) -> None:
    page = phone.start(**changes)
    assert page.status == 422
    assert page.doc.find("p", cls="error") is not None
    assert page.by_id(f"{field}-error") is not None or field in ("policy", "a-stack")
    assert phone.started == []


def test_a_match_prefills_its_house_rules_as_b_and_its_players(
    phone: LabPhone, tabletop: Tabletop
) -> None:
    match_id = tabletop.create(("Ann", "Bob", "Cy"), stack="sum", mercy="30")
    table = tabletop.get(f"/m/{match_id}")
    assert table.doc.find("a", href=f"/lab?match={match_id}") is not None
    form = phone.form(f"/lab?match={match_id}")
    # Each rule set is the engine's house-rule fields under its prefix (engine.fields).
    for prefix, rules in (("a-", OFFICIAL), ("b-", HouseRules(stack="sum", mercy=30))):
        expected = rule_fields(rules, prefix)
        assert {name: form.get(name) for name in expected} == expected
    assert form["players"] == "3"
    # A match this phone does not have prefills nothing.
    other = Tabletop(phone.app, phone.app.test_client())
    assert LabPhone(phone.app, other).form(f"/lab?match={match_id}")["b-stack"] == "last"


# ---------------------------------------------------------------- a run


def test_a_run_starts_at_once_runs_in_a_worker_and_shows_its_result(phone: LabPhone) -> None:
    began = time.monotonic()
    page = phone.start(**{"b-stack": "sum"})
    assert page.status == 303 and time.monotonic() - began < 2
    token = phone.token(page)
    assert len(token) >= 20
    run = phone.run(token)
    assert run.worker_pid not in (None, os.getpid())
    first = phone.tabletop.get(f"/lab/{token}")
    assert first.response.headers["Cache-Control"] == "no-store"
    assert "HX-Request" in first.response.headers["Vary"]
    done = phone.wait(token)
    assert done.status == 200
    assert done.doc.find("progress") is None
    summary = done.doc.one("section", cls="lab-summary")
    assert "With stack=sum" in summary.text
    rows = done.doc.one("table", cls="lab-figures").find_all("tr")
    assert len(rows) == 1 + 9
    charts = done.doc.find_all("svg", role="img")
    assert len(charts) == 2
    for chart in charts:
        assert chart.find("title") is not None
        assert chart.find("pattern") is not None  # B hatched, not colour alone
    assert phone.run(token).status == "done"


def test_a_run_shows_the_command_line_that_gives_its_figures_again(phone: LabPhone) -> None:
    token = phone.token(phone.start(**{"b-mercy": "30", "policy": "uniform"}))
    page = phone.wait(token)
    run = phone.run(token)
    command = shlex.split(page.doc.one("details", cls="lab-command").find("code").text)
    assert command[:4] == ["python", "-m", "engine", "lab"] and str(run.seed) in command
    checkout = Path(__file__).resolve().parents[2]
    again = subprocess.run(
        [sys.executable, *command[1:], "--json", "--jobs", "2"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.result is not None
    assert json.loads(again.stdout) == json.loads(run.result)


def test_the_progress_part_is_what_htmx_polls_while_a_run_goes(phone: LabPhone) -> None:
    token = phone.token(phone.start(hands="20000"))
    part = phone.tabletop.get(f"/lab/{token}", headers=HX)
    box = part.doc.one(id_="lab-run")
    assert box["hx-trigger"] == "every 1s" and box["hx-get"] == f"/lab/{token}"
    assert part.doc.find("progress") is not None and part.doc.find("h1") is None
    assert "of 40,000 hands" in part.text
    page = phone.tabletop.get(f"/lab/{token}")
    assert page.doc.find("noscript") is not None  # a refresh without JavaScript


def test_an_unknown_run_is_not_found(phone: LabPhone) -> None:
    assert phone.tabletop.get("/lab/no-such-run-at-all").status == 404
    assert phone.tabletop.get("/lab/%3Cscript%3E").status == 404


# ---------------------------------------------------------------- stopped, limits


def test_a_run_whose_worker_is_gone_is_shown_stopped_and_starts_again(phone_with: Any) -> None:
    phone = phone_with(LAB_MAX_RUNNING=1, LAB_STALE_SECONDS=1)
    token = phone.token(phone.start(hands="20000"))
    phone.kill(token)
    time.sleep(1.5)
    page = phone.tabletop.get(f"/lab/{token}")
    assert "The run stopped" in page.text and page.doc.find("progress") is None
    (form,) = page.forms(f"/lab/{token}/again")
    again = phone.tabletop.post(form.action, data=form.values())
    assert again.status == 303  # the stopped run's slot is free again
    new = phone.token(again)
    phone.started.append(new)
    assert new != token and phone.run(new).settings == phone.run(token).settings


def test_a_token_that_starts_with_a_dash_reaches_the_worker(phone: LabPhone) -> None:
    """One token in 64 starts with "-": put on the worker's command line as is, it read as
    an option, the worker stopped at once ("the following arguments are required") and
    the run was shown stopped."""
    token = "-" + "A" * 15
    assert lab_worker.parse(phone.lab.worker_arguments(token)).token == token


def test_a_run_whose_chunk_outlasts_the_stale_time_is_not_shown_stopped(phone_with: Any) -> None:
    """The heartbeat came once per chunk of hands: a chunk longer than LAB_STALE_SECONDS
    (without Mercy, 250 two-player hands take seconds) showed a live run stopped and freed
    its slot for a second run."""
    # Two seconds: a heartbeat every 0.4 s keeps a run live on a busy machine too.
    phone = phone_with(LAB_MAX_RUNNING=1, LAB_STALE_SECONDS=2)
    started = phone.start(players="2", hands="250", unchecked=("a-mercy_on", "b-mercy_on"))
    token = phone.token(started)
    end = time.monotonic() + 3
    while time.monotonic() < end:
        part = phone.tabletop.get(f"/lab/{token}", headers=HX)
        assert part.doc.find("progress") is not None, part.text
        time.sleep(0.25)
    run = phone.run(token)
    assert run.status == "running" and run.done == 0  # still in its first chunk
    assert phone.start().status == 409  # its slot still held


def test_a_second_run_while_one_goes_is_refused_with_a_link_to_it(phone_with: Any) -> None:
    phone = phone_with(LAB_MAX_RUNNING=1)
    first = phone.token(phone.start(hands="20000"))
    second = phone.start()
    assert second.status == 409
    assert second.doc.one("div", cls="alert").find("a", href=f"/lab/{first}") is not None
    assert len(phone.started) == 1


def test_hands_per_run_follow_the_setting(phone_with: Any) -> None:
    phone = phone_with(LAB_MAX_HANDS=1000)
    assert phone.start(hands="1001").status == 422
    assert phone.tabletop.get("/lab").doc.one("input", name="hands")["max"] == "1000"


def test_a_bad_lab_setting_stops_the_app_with_a_sentence(app_with: Any) -> None:
    with pytest.raises(ValueError, match="COMPANION_LAB_MAX_RUNNING"):
        app_with(LAB_MAX_RUNNING=0)


def test_starting_runs_is_rate_limited(phone_with: Any) -> None:
    phone = phone_with(RATELIMIT_ENABLED=True, RATELIMIT_LAB="1 per minute", LAB_MAX_RUNNING=2)
    assert phone.start().status == 303
    refused = phone.start()
    assert refused.status == 429 and "Too many comparisons" in refused.text


# ---------------------------------------------------------------- links and migration


def test_home_and_the_rules_page_lead_to_the_lab(phone: LabPhone) -> None:
    assert phone.tabletop.get("/").doc.find("a", href="/lab") is not None
    assert phone.tabletop.get("/rules").doc.find("a", href="/lab") is not None


def test_the_lab_migration_goes_down_and_up_keeping_every_match(
    app: Flask, tabletop: Tabletop, started: str
) -> None:
    before = tabletop.export(started)
    with app.app_context():
        downgrade(revision="a1c0ffee0007")
        with db.engine.connect() as conn:
            assert "lab_run" not in sa.inspect(conn).get_table_names()
        upgrade()
        with db.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM lab_run")).scalar() == 0
    assert tabletop.export(started) == before
    assert tabletop.line(started, "Ann", "R3").status == 303
