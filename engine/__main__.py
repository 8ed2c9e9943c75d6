"""The command line: `python -m engine check FILE`, `explain FILE`, `simulate ...`,
`stats FILE...`, `lab --a RULES --b RULES ...`, `paper`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .tools.cli import check, explain, lab, paper, simulate, stats


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine", description="The No Mercy referee on the command line."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p_check = commands.add_parser(
        "check", help="replay a table record and print the state (or the first error) as JSON"
    )
    p_check.add_argument("file", help="the record, or - for standard input")
    p_check.add_argument(
        "--explain", action="store_true", help="tell the game line by line in plain sentences"
    )
    p_explain = commands.add_parser("explain", help="same as check --explain")
    p_explain.add_argument("file")
    p_sim = commands.add_parser(
        "simulate", help="play random hands with a real shuffled deck and check the counts"
    )
    p_sim.add_argument("--players", type=int, default=4)
    p_sim.add_argument("--hands", type=int, default=100)
    p_sim.add_argument("--seed", type=int, default=0)
    p_sim.add_argument("--rules", default="", help="house rules, as in a rules: header")
    p_sim.add_argument("--record", help="write the simulated match's record to this file")
    p_sim.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p_sim.add_argument(
        "--policy",
        default="table",
        help="how the simulated players choose: table (default), uniform or strategic "
        "(engine/tools/policies.py)",
    )
    p_stats = commands.add_parser(
        "stats", help="statistics of the matches in these records, per player and for the group"
    )
    p_stats.add_argument(
        "files", nargs="+", metavar="FILE", help="records, or - for standard input"
    )
    p_stats.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p_lab = commands.add_parser(
        "lab",
        help="the house-rule lab: simulate two rule sets and compare them, with 95%% intervals",
    )
    p_lab.add_argument("--a", default="official", help="rule set A, as in a rules: header")
    p_lab.add_argument("--b", default="official", help="rule set B, as in a rules: header")
    p_lab.add_argument("--players", type=int, default=4)
    p_lab.add_argument("--hands", type=int, default=20_000, help="hands per rule set")
    p_lab.add_argument("--policy", default="table", help="how the simulated players choose")
    p_lab.add_argument("--seed", type=int, default=0)
    p_lab.add_argument("--jobs", type=int, default=1, help="processes to play in parallel")
    p_lab.add_argument(
        "--pace", type=float, default=6.0, help="seconds a turn takes, for minutes (6)"
    )
    p_lab.add_argument("--json", action="store_true", help="print the comparison as JSON")
    p_paper = commands.add_parser(
        "paper",
        help="the uniform policy's mean hand length at 2-6 players against the research "
        "simulator's (within 1%%)",
        description="Plays the uniform random policy (official rules) at 2 to 6 players and "
        "checks the mean hand length in turns against the published research simulator's "
        "31.90 / 64.51 / 94.25 / 117.98 / 135.47 within 1%%; exit 1 when a count is off. "
        "A turn is one action (a play, a take, a draw and its play, a roulette's reveal); "
        "skipped players get none. The start card differs: the research simulator leaves an "
        "action or wild card turned up at the start in the discard pile, ours puts it back "
        "into the deck until a number card shows.",
    )
    p_paper.add_argument(
        "--hands",
        type=int,
        help="hands at each player count (default: 80,000 at 2 players down to 30,000 at "
        "5 and 6, about four standard errors to 1%%)",
    )
    p_paper.add_argument("--jobs", type=int, default=1, help="processes to play in parallel")
    p_paper.add_argument("--seed", type=int, default=0)
    p_paper.add_argument("--json", action="store_true", help="print the table as JSON")
    args = parser.parse_args(argv)

    if args.command == "simulate":
        return simulate(args)
    if args.command in ("stats", "lab", "paper"):
        if args.command == "lab":
            code, out, err = lab(args)
        elif args.command == "paper":
            code, out, err = paper(args)
        else:
            code, out, err = stats(args.files, as_json=args.json)
        sys.stdout.write(out)
        sys.stderr.write(err)
        return code
    code, output = (explain if args.command == "explain" or args.explain else check)(args.file)
    if isinstance(output, str):
        sys.stdout.write(output)
    else:
        json.dump(output, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    return code


if __name__ == "__main__":
    sys.exit(main())
