"""Shared fixtures: the list of playable variants and their decks; saved games kept out of $HOME."""
import os

import pytest

from rulekit.engine.build import load_variant

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = os.path.join(ROOT, "variants")


def variant_files() -> list[str]:
    out = []
    for root, _dirs, files in os.walk(VARIANTS):
        out += [os.path.join(root, f) for f in files if f.endswith(".yaml")]
    return sorted(out)


def playable() -> list[str]:
    """Variant files that are not abstract bases."""
    out = []
    for f in variant_files():
        try:
            if not load_variant(f).meta.abstract:
                out.append(f)
        except Exception:  # a broken file is reported by test_validate_all
            out.append(f)
    return out


def rel(path: str) -> str:
    return os.path.relpath(path, VARIANTS)


@pytest.fixture(autouse=True, scope="session")
def _saved_games_in_a_temporary_folder(tmp_path_factory):
    """Games left at the table are saved under $XDG_STATE_HOME, and checks passed are remembered
    under $RULEKIT_CACHE: never the real home in a test (set in os.environ, so the commands the
    tests start inherit them)."""
    old = {k: os.environ.get(k) for k in ("XDG_STATE_HOME", "RULEKIT_CACHE")}
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    os.environ["RULEKIT_CACHE"] = str(tmp_path_factory.mktemp("cache"))
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def broken_copy(tmp_path, variant: str, old: str, new: str):
    """A copy of a shipped variant with `old` replaced by `new` (once), and its errors."""
    from rulekit.engine.build import check_variant
    from rulekit.engine.testing import variant_path
    src = open(variant_path(variant), encoding="utf-8").read()
    assert old in src
    p = tmp_path / os.path.basename(variant)
    p.write_text(src.replace(old, new, 1), encoding="utf-8")
    return p, [d for d in check_variant(str(p)) if d.severity == "error"]
