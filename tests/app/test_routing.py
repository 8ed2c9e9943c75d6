"""The app's URL rules build their addresses when first asked (companion/routing.py):
every rule builds the address Werkzeug's own rule builds, with or without extra values."""

from __future__ import annotations

from flask import Flask, url_for
from werkzeug.routing import Map, Rule

from companion.routing import RuleBuiltOnFirstUse


def test_every_rule_builds_the_address_werkzeugs_own_rule_builds(app: Flask) -> None:
    rules = list(app.url_map.iter_rules())
    assert all(
        isinstance(rule, RuleBuiltOnFirstUse)
        for rule in rules
        if rule.rule != "/static/<path:filename>"
    )
    werkzeugs = Map(
        [Rule(r.rule, endpoint=r.endpoint, defaults=r.defaults, methods=r.methods) for r in rules]
    )
    ours, theirs = app.url_map.bind("localhost"), werkzeugs.bind("localhost")
    for rule in rules:
        values = {name: f"a b/{name}" for name in rule.arguments} | dict(rule.defaults or {})
        for extra in ({}, {"page": "2", "x": "é&"}):
            built = ours.build(rule.endpoint, values | extra, method=sorted(rule.methods or ())[0])
            expected = theirs.build(
                rule.endpoint, values | extra, method=sorted(rule.methods or ())[0]
            )
            assert built == expected, rule.rule


def test_a_value_named_rule_is_a_query_argument_like_any_other(app: Flask) -> None:
    # The builder's own first parameter was named `rule`: url_for(..., rule=...) was a 500.
    with app.test_request_context():
        assert url_for("rules.page", rule="7") == "/rules?rule=7"
        assert url_for("table.show", match_id="abc", rule="7") == "/m/abc?rule=7"
