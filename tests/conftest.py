"""Shared fixtures: the list of playable variants and their decks."""
import os

from rulekit.build import load_variant

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
