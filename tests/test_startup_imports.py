"""What `rulekit simulate` loads before its first round: only what a random-play run uses. The search
bot, the rules prose and figures, and helpers of error paths load when first needed, and then work;
the command line declares the arguments of the command it runs only, and parses them alike."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# modules a random-play simulation has no use for (each loads on its first use elsewhere)
NOT_AT_START = ["rulekit.engine.search", "rulekit.engine.stepper", "greenlet", "rulekit.lang.rulestext",
                "rulekit.lang.prose", "rulekit.engine.figures", "rulekit.analysis.simulate", "rulekit.analysis.workers",
                "difflib", "csv", "shlex", "rulekit.engine.statsobserve"]


def _run(code: str) -> list[str]:
    """The last line of `python -c code` run in a fresh process on this tree, read as JSON."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True).stdout
    loaded: list[str] = json.loads(out.splitlines()[-1])
    return loaded


def test_simulate_loads_only_what_random_play_uses():
    code = ("import json, sys, runpy; sys.argv = ['rulekit', 'simulate', 'otoroku', '--rounds', '2', "
            "'--policy', 'random']\n"
            "try:\n    runpy.run_module('rulekit', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            f"print(json.dumps([m for m in {NOT_AT_START!r} if m in sys.modules]))")
    assert _run(code) == []


def test_what_loads_late_still_works_in_a_fresh_process():
    # the search policy, a 'did you mean' hint and a rules text that reads a figure, each in a
    # process that imported only the runner and the builder
    code = ("import json, sys\n"
            "from rulekit.engine.build import build_game, load_variant\n"
            "from rulekit.engine.runner import make_agents, policy_options, run_chunk\n"
            "from rulekit.core.errors import did_you_mean\n"
            "g = build_game(load_variant('otoroku'))\n"
            "before = 'rulekit.engine.search' in sys.modules\n"
            "agents = make_agents(g, 3, 1, 'search:budget=5')\n"
            "stats = run_chunk(g, 3, 1, 0, 1, policy='search:budget=5')\n"
            "from rulekit.lang.prose import Prose, render\n"
            "from rulekit.lang.textrefs import registered_figures\n"
            "src = registered_figures(g.variant.options)\n"
            "print(json.dumps([before, type(agents[0]).__name__, policy_options('search:budget=5')[1],\n"
            "                  stats.rounds, did_you_mean('serch', ['search', 'random']),\n"
            "                  'rulekit.engine.figures' in sys.modules, callable(src)]))")
    before, agent, opts, rounds, hint, figures_loaded, has_source = _run(code)
    assert before is False and agent == "SearchAgent" and opts == {"budget": 5} and rounds == 1
    assert hint == "did you mean 'search'?"
    assert figures_loaded and has_source


def test_a_command_parses_alike_with_only_its_own_arguments():
    # main() declares the arguments of the command it runs only: the same namespace as the full parser's
    from rulekit.cli.main import COMMANDS, _parsers, build_parser
    samples = {"validate": ["variants"], "show": ["kyo-kabu", "--compiled"], "decks": ["hanafuda"],
               "play": ["kyo-kabu", "--seed", "7", "--players", "4"], "list": [], "rules": ["otoroku", "--effects"],
               "simulate": ["otoroku", "--rounds", "5", "--policy", "random", "-o", "tie=dealer"],
               "help": ["format", "phase"], "policies": ["kyo-kabu"], "diff": ["oicho-kabu", "kyo-kabu"],
               "explain": ["kyo-kabu", "options.tie"], "replay": ["game.json", "--quiet"]}
    assert sorted(samples) == sorted(c.name for c in COMMANDS)
    for name, rest in samples.items():
        full = vars(build_parser().parse_args([name, *rest]))
        only = vars(_parsers(name)[0].parse_args([name, *rest]))
        assert only == full, name
