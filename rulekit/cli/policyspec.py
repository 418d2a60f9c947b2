"""Which policy each seat plays in a simulation: the game's default, --policy, and the line that
names them in every report."""
from __future__ import annotations


def policy_spec(game, spec: str | None) -> str:
    """--policy as given, with the game's default for every seat it does not name."""
    # imported here, not at the top: `rulekit --help` and every command's parser import this
    # module (through the simulate options), and the engine is not needed to parse arguments
    from rulekit.engine.runner import default_policy
    default = default_policy(game)
    if spec is None:
        return default
    parts = [p.strip() for p in str(spec).split(",") if p.strip()]
    return spec if any("=" not in p for p in parts) else ",".join([default, *parts])


def policy_line(names: list[str]) -> str:
    """'careful (every seat)' or 'seat 0 careful, seat 1 random, ...'."""
    if len(set(names)) == 1:
        return f"{names[0]} (every seat)"
    return ", ".join(f"seat {s} {p}" for s, p in enumerate(names))
