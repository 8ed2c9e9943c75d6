"""The analysis tools above the rules core: the simulator, its policies, the house-rule
lab, statistics, the paper table and the command line. They use the core through
`engine`; the core never imports them. This is their public API: the app, the
benchmarks and the scripts import from here (and from `engine`) only.

Each name is loaded on first use, so that `python -m engine check` starts without the
simulator, the lab and the statistics.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .lab import MEASURES, Comparison, Estimate, command_line, compare
    from .policies import POLICIES
    from .policies import explain as explain_policy
    from .policies import title as title_of_policy
    from .simulator import NAMES, Simulation
    from .stats import Figures, HeadToHead, MatchStats, Stats, group_stats, match_stats

# Each public name: its module here, and its name there.
_WHERE: Final = {
    "MEASURES": ("lab", "MEASURES"),
    "Comparison": ("lab", "Comparison"),
    "Estimate": ("lab", "Estimate"),
    "command_line": ("lab", "command_line"),
    "compare": ("lab", "compare"),
    "explain_policy": ("policies", "explain"),
    "title_of_policy": ("policies", "title"),
    "NAMES": ("simulator", "NAMES"),
    "POLICIES": ("policies", "POLICIES"),  # not the simulator: the lab's form names them
    "Simulation": ("simulator", "Simulation"),
    "Figures": ("stats", "Figures"),
    "HeadToHead": ("stats", "HeadToHead"),
    "MatchStats": ("stats", "MatchStats"),
    "Stats": ("stats", "Stats"),
    "group_stats": ("stats", "group_stats"),
    "match_stats": ("stats", "match_stats"),
}


def __getattr__(name: str) -> object:
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _WHERE[name]
    value = getattr(importlib.import_module(f".{module}", __name__), attribute)
    globals()[name] = value  # the next use finds it at once
    return value


__all__ = [
    "MEASURES",
    "NAMES",
    "POLICIES",
    "Comparison",
    "Estimate",
    "Figures",
    "HeadToHead",
    "MatchStats",
    "Simulation",
    "Stats",
    "command_line",
    "compare",
    "explain_policy",
    "group_stats",
    "match_stats",
    "title_of_policy",
]
