"""Every Python example in the Python guide runs as written."""
from __future__ import annotations

import os
import re

import pytest

from .conftest import ROOT

GUIDE = os.path.join(ROOT, "docs", "guides", "python.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(GUIDE, encoding="utf-8").read(), re.S)
NEEDS = {"rulekit.api.rl": "pettingzoo", "rulekit.api.single": "gymnasium", "dask.distributed": "dask.distributed",
         "sb3_contrib": "sb3_contrib", "stable_baselines3": "stable_baselines3"}
TRAIN = ("sb3_contrib", "stable_baselines3")  # the training examples: skipped, saying why, without them


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("code", BLOCKS, ids=[f"example{i + 1}" for i in range(len(BLOCKS))])
def test_example_runs(code, capsys):
    for marker, module in NEEDS.items():
        if marker in code:
            how = "the train extra: pip install 'rulekit[rl,train]'" if module in TRAIN else "an optional extra"
            pytest.importorskip(module, reason=f"the example needs {module} ({how})")
    exec(compile(code, GUIDE, "exec"), {"__name__": "__guide__"})  # the docs' own code, not user input
    assert capsys.readouterr().out.strip(), "every example prints its result"


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 4
