"""README stays true: its test command is what CI runs, and its Python example runs."""
from __future__ import annotations

import os
import re

from .conftest import ROOT

README = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
CI = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()


def test_ci_runs_the_readme_test_command():
    cmd = next(line for line in README.splitlines() if line.startswith("python3 -m venv") and "pytest" in line)
    install = re.search(r"pip install -q -e '([^']+)'", cmd).group(1)
    assert f".venv/bin/pip install -q -e '{install}'" in CI
    assert ".venv/bin/python -m pytest -q" in CI and "-m pytest -q" in cmd


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})  # the README's own code
    assert capsys.readouterr().out.strip()
