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
    # CI installs the same extras, pinned by the checked-in constraints file
    assert f".venv/bin/pip install -q -c .ci/constraints.txt -e '{install}'" in CI
    assert ".venv/bin/python -m pytest -q" in CI and "-m pytest -q" in cmd


def test_every_dependency_has_an_upper_bound():
    import tomllib
    project = tomllib.loads(open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8").read())["project"]
    reqs = list(project["dependencies"]) + [r for extra in project["optional-dependencies"].values() for r in extra]
    assert reqs and all("<" in r for r in reqs), [r for r in reqs if "<" not in r]
    pins = open(os.path.join(ROOT, ".ci", "constraints.txt"), encoding="utf-8").read()
    for r in reqs:  # every direct dependency is pinned for CI
        name = re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower().replace("_", "-")
        assert re.search(rf"^{re.escape(name)}==", pins.lower().replace("_", "-"), re.M), name


def test_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "README.md", "exec"), {"__name__": "__readme__"})  # the README's own code
    assert capsys.readouterr().out.strip()
