"""The app's URL rules: Werkzeug's, with their address builders compiled when first used.

Werkzeug compiles two builder functions per rule (Python source, `compile()`) as the
rule is added: three quarters of `create_app`'s time here, and about a second of the
app's start in a phone (docs/PERFORMANCE.md). Most rules are only matched, never built
into an address, in a process's life; those that are get compiled on their first
`url_for`, once, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from werkzeug.routing import Rule


class RuleBuiltOnFirstUse(Rule):
    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compile_builder = super()._compile_builder
        made: list[Callable[..., tuple[str, str]]] = []

        # Bound to the rule by Werkzeug (`__get__`), as the function it stands for.
        def build(rule: Rule, /, **values: object) -> tuple[str, str]:
            if not made:  # two threads may both compile it: the same function
                made.append(compile_builder(append_unknown))
            return made[0](rule, **values)

        return build
