"""Every Python example in the Python guide runs as written."""
from __future__ import annotations

import os
import re

import pytest

from .conftest import ROOT

GUIDE = os.path.join(ROOT, "docs", "guides", "python.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(GUIDE, encoding="utf-8").read(), re.S)
NEEDS = {"rulekit.api.rl": "pettingzoo", "dask.distributed": "dask.distributed"}


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_example_runs(code, capsys):
    for marker, module in NEEDS.items():
        if marker in code:
            pytest.importorskip(module, reason=f"the example needs {module} (an optional extra)")
    exec(compile(code, GUIDE, "exec"), {"__name__": "__guide__"})  # the docs' own code, not user input
    assert capsys.readouterr().out.strip(), "every example prints its result"


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 4
