"""Every variant and option value plays byte for byte as recorded in tests/golden/matrix*.json.

The engine's safety net while its inside changes (see tests/goldenmatrix.py for what a case
records and how to regenerate on purpose: `PYTHONPATH=. python -m tests.goldenmatrix`). A case
whose `log` alone differs kept its play (moves, chips, statistics, `play`) and changed only words.
"""
import json
import os

import pytest

from . import goldenmatrix as gm


def _golden(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


DIGESTS = _golden(gm.DIGESTS)
LOGS = _golden(gm.LOGS)


def _check(path: str, codegen: bool | None) -> None:
    cases = list(gm.cases(path))
    assert cases, path
    differ = []
    for cid, settings in cases:
        rec, first = gm.run_case(path, settings, full_log=not settings, codegen=codegen)
        assert cid in DIGESTS, f"no golden record for case {cid!r}: regenerate with python -m tests.goldenmatrix"
        if rec != DIGESTS[cid]:
            differ.append(f"{cid}: {', '.join(gm.differing(DIGESTS[cid], rec))} differ\n"
                          f"  golden: {DIGESTS[cid]}\n  now:    {rec}")
        if first is not None:
            assert first == LOGS[cid], f"the first round of {cid} differs from tests/golden/matrix-logs.json"
    assert not differ, "\n".join(differ)


@pytest.mark.parametrize("path", gm.variant_paths(), ids=lambda p: os.path.basename(p)[:-5])
def test_matrix_matches_golden(path):
    _check(path, None)


@pytest.mark.slow
@pytest.mark.parametrize("path", gm.variant_paths(), ids=lambda p: os.path.basename(p)[:-5])
def test_matrix_matches_golden_on_the_closures(path):
    # the closure interpreter (RULEKIT_CODEGEN=0) must give the very same games
    _check(path, False)


def test_every_case_is_recorded():
    ids = [cid for p in gm.variant_paths() for cid, _ in gm.cases(p)]
    assert sorted(ids) == sorted(DIGESTS)
    assert len(gm.variant_paths()) == 9
