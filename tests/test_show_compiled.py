"""`rulekit show GAME --compiled`: the Python the engine generated, each part under the file and
line of its rule; a variant's own text reaches that code only as bound constants."""
from __future__ import annotations

import re

import pytest

from rulekit.cli.main import main
from rulekit.engine.build import build_game, load_variant
from rulekit.core.errors import Span
from rulekit.engine.listing import listing, parts
from rulekit.engine.testing import variant_path

from .robustness.helpers import HEAD  # noqa: F401  (registers benchmarks/hostile_corpus.py)


def _listing(capsys, *argv: str) -> str:
    assert main(["show", *argv, "--compiled"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game", ["kyo-kabu", "hiraya", "kakkuri"])
def test_every_phase_is_listed_under_its_rule(capsys, game):
    out = _listing(capsys, game)
    g = build_game(load_variant(game))
    heads = re.findall(r"^# ---- (.+) \((.+):(\d+)\)$", out, re.M)
    for ph in g.phases:
        assert (f"phase {ph.id}", ph.span.line) in {(t, int(n)) for t, _f, n in heads}, ph.id
    assert any(t.startswith("yaku table ") for t, _f, _n in heads) == bool(g.yaku)
    # every statement's comment names a line of a file of the variant that holds a rule
    files = {f: open(f, encoding="utf-8").read().splitlines() for f in g.variant.files}
    for f, n in re.findall(r"^\s*# (\S+\.yaml):(\d+)$", out, re.M):
        path = next(p for p in files if p.endswith(f))
        assert files[path][int(n) - 1].strip(), (f, n)
    assert out.count("def _make(") == sum(p.source is not None and p.source.startswith("def _make(")
                                          for p in parts(g))


def test_the_listing_is_the_code_that_runs():
    g = build_game(load_variant("kyo-kabu"))
    generated = [p for p in parts(g) if p.source is not None and p.source.startswith("def _make(")]
    assert len(generated) >= len(g.phases)
    for p in generated:
        compile(p.source, p.title, "exec")  # as it stands, it is Python
    shown = listing(g).splitlines()
    for ph in g.phases:  # each phase's code, line for line, its comments naming places included
        lines = ph.run.source.rstrip("\n").split("\n")
        assert any(line.lstrip().startswith("# ") for line in lines), ph.id
        assert any(shown[i:i + len(lines)] == lines for i in range(len(shown))), ph.id


def test_without_generated_code_the_listing_says_so(capsys, monkeypatch):
    monkeypatch.setenv("RULEKIT_CODEGEN", "0")
    out = _listing(capsys, "otoroku")
    # only the round is written out (it always is): the phases it calls run as compiled steps
    assert out.count("def _make(") == 1 and "def play_round(ctx, OBS, SEED=None, D=0):" in out and "runs as compiled steps" in out


HOSTILE = '"\\"); __import__(\'os\').system(\'echo pwned\') #\\n\\e[2J"'  # YAML: quote, newline, escape


def test_a_hostile_variants_text_is_only_a_bound_constant(tmp_path, capsys, monkeypatch):
    import sys
    corpus = sys.modules["hostile_corpus"]
    body = corpus.steps(f"- say: {HOSTILE}", f"- record: {HOSTILE}",
                        "- set: {x: \"x + 1\"}", "- move: {from: deck, to: table, count: 1}")
    (tmp_path / "probe.yaml").write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = _listing(capsys, "probe.yaml")
    g = build_game(load_variant("probe.yaml"))
    code = [p.source for p in parts(g) if p.source is not None]
    assert code and not any("pwned" in c or "__import__" in c or "\x1b" in c for c in code)
    assert "\x1b" not in out
    # in the listing the text shows only escaped, in the list of constants
    shown = [line for line in out.splitlines() if "pwned" in line]
    assert shown and all(re.match(r"#   C\d+ = '.*\\x1b\[2J', for the step at probe\.yaml:\d+$", line) for line in shown), shown


VARIANTS = ["kyo-kabu", "otoroku", "kakkuri", "hiraya", "dare", "hana-awase", "kingo", "kingo-banking", "oicho-kabu"]
PLACE = re.compile(r"^( *)# (\S+):(\d+)$")
HEADER_ROW = re.compile(r"^ {8}(L = ctx\.loc$|([A-Z]+, )*[A-Z]+ = ctx\.[a-z]|S, SL = ctx\.steps)")
FOOTERS = ("    return run", "        return hits")  # where a phase's (a yaku table's) statements end


def _statements(source: str):
    """(statement, the `# file:line` in force over it or None) for each statement of generated
    code: the first such comment above it not indented deeper than it."""
    lines = source.split("\n")
    # a phase's statements start after it reads the round's state; a yaku table's, at its first yaku
    if "def table(" in source:  # a table loads only the state it reads, so its first place is the mark
        start = next((i - 1 for i, ln in enumerate(lines) if PLACE.match(ln)), None)
        if start is None:
            return  # no yaku can be made under these options: the table is `return []`
    else:
        # (the header: ctx.loc, the parts of the state the body uses, the step counter, read as locals)
        start = next(i for i, ln in enumerate(lines) if ln.strip() == "def run(ctx):")
        while HEADER_ROW.match(lines[start + 1]):
            start += 1
    held: list[tuple[int, str, int]] = []
    for line in lines[start + 1:]:
        if line in FOOTERS:
            return
        if not line.strip():
            continue
        ind = len(line) - len(line.lstrip())
        m = PLACE.match(line)
        if m is not None:
            while held and held[-1][0] >= ind:
                held.pop()
            held.append((ind, m.group(2), int(m.group(3))))
            continue
        yield line, next(((f, n) for i, f, n in reversed(held) if i <= ind), None)


@pytest.mark.parametrize("game", VARIANTS)
def test_every_statement_a_step_runs_is_under_the_place_of_its_step(game):
    from rulekit.engine.places import span_in, where
    g = build_game(load_variant(game))
    files = {where(Span(f, 1, 1)).rsplit(":", 1)[0]: open(f, encoding="utf-8").read().splitlines()
             for f in g.variant.files}
    # (the round calls the phases: its statements carry out no step of their own)
    generated = [p for p in parts(g) if p.source is not None and p.source.startswith("def _make(")
                 and not p.title.startswith("round")]
    assert len(generated) >= len(g.phases)
    count = 0
    for p in generated:
        table = "def table(" in p.source
        for line, place in _statements(p.source):
            count += 1
            assert place is not None, (p.title, line)
            written = files[place[0]][place[1] - 1].strip()
            # a step of a phase or procedure is an item of a list of steps; a yaku's code, the
            # part of the yaku it works out
            assert (written.split(":")[0] in ("when", "claim", "value", "rank")) if table else \
                written.startswith("- "), (p.title, line, place, written)
            # a rule compiled into a constant the statement uses is in that step (at or below it)
            for name in re.findall(r"\bC\d+\b", line):
                span = span_in(p.consts.get(name))
                if span is not None and span.line > 0:
                    assert (where(span).rsplit(":", 1)[0], span.line >= place[1]) == (place[0], True), \
                        (p.title, line, place, where(span))
    assert count > 300  # (every variant's round is hundreds of statements)
    # and every constant of the listing names where it comes from
    consts = [ln for ln in listing(g).splitlines() if re.match(r"#   [CK]\d+ = ", ln)]
    unplaced = [ln for ln in consts if not re.search(r"(, from |, for the step at |, for the rule at | = the place )"
                                                      r"\S+\.yaml:\d+$", ln)]
    assert consts and not unplaced, unplaced[:5]


def test_a_statement_left_without_its_place_is_found():
    src = ("def _make(C0, ERRS):\n    def run(ctx):\n        L = ctx.loc\n"
           "        Z, V, CH, SEEN, LOG, DEALER, N = ctx.zones\n"
           "        # v.yaml:3\n        if x:\n            # v.yaml:4\n            y = 1\n"
           "        z = 2\n    return run\n")
    assert [place for _l, place in _statements(src)] == [("v.yaml", 3), ("v.yaml", 4), ("v.yaml", 3)]
    assert [place for _l, place in _statements(src.replace("        # v.yaml:3\n", ""))] == [None, ("v.yaml", 4), None]


def test_a_file_name_cannot_end_the_comment_that_names_it(tmp_path, capsys, monkeypatch):
    import sys
    corpus = sys.modules["hostile_corpus"]
    name = "x\nimport os; os.system('echo pwned') #\x1b[2J.yaml"
    (tmp_path / name).write_text(corpus.steps("- say: hello", "- move: {from: deck, to: table, count: 1}"),
                                 encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    g = build_game(load_variant(name))
    code = [p.source for p in parts(g) if p.source is not None and p.source.startswith("def _make(")]
    assert code and all("\nimport os" not in c and "\x1b" not in c for c in code)
    assert any("# x\\nimport os; os.system('echo pwned') #\\x1b[2J.yaml:" in c for c in code)
    out = _listing(capsys, name)
    assert "\x1b" not in out and "\nimport os" not in out


def test_the_dealers_neighbours_written_twice_are_worked_out_once_in_the_header():
    """left_of(dealer)/right_of(dealer) as generated code writes them: read from a local the
    header works out once (on the line of the step counter, after DEALER and N: no line added)
    when written more than once; left where they stand when written once or when the header
    reads no dealer."""
    from rulekit.engine.genframe import round_seats
    header = ("    def run(ctx):\n        Z, V, CH, SEEN, LOG, DEALER, N = ctx.zones, ctx.vars, ctx.chips, ctx.seen, "
              "ctx.logging, ctx.dealer, ctx.n\n        S, SL = ctx.steps, ctx.step_limit\n")
    body = "        a = (p == ((DEALER - 1) % N))\n        b = [((DEALER - 1) % N), ((DEALER + 1) % N)]"
    got, head = round_seats(body, header)
    assert got == "        a = (p == DLEFT)\n        b = [DLEFT, ((DEALER + 1) % N)]"
    assert head.count("\n") == header.count("\n")
    assert head.splitlines()[2] == "        S, SL = ctx.steps, ctx.step_limit; DLEFT = (DEALER - 1) % N"
    for dealer in range(5):  # the same seat as written
        env = {"DEALER": dealer, "N": 5}
        exec(head.splitlines()[2].split("; ")[1], {}, env)
        assert env["DLEFT"] == eval("((DEALER - 1) % N)", {}, {"DEALER": dealer, "N": 5})
    once = body.split("\n")[0]
    assert round_seats(once, header) == (once, header)
    assert round_seats(body * 2, "    def run(ctx):\n") == (body * 2, "    def run(ctx):\n")


def test_a_generated_function_reads_only_the_state_it_uses():
    """The header of a phase's function reads ctx.loc and the parts of the state fixed for the
    round only where its body uses them (a row reading none dropped), with its places intact."""
    from rulekit.engine.stepgen import read_used
    header = ("    def run(ctx):\n        L = ctx.loc\n        Z, V, CH, SEEN, LOG, DEALER, N = ctx.zones, ctx.vars, "
              "ctx.chips, ctx.seen, ctx.logging, ctx.dealer, ctx.n\n        S, SL = ctx.steps, ctx.step_limit\n")
    body = "        z = Z[C0][DEALER]\n        if LOG: C1(ctx, z)\n        CHX = 1"
    assert read_used(header, body) == ("    def run(ctx):\n        Z, LOG, DEALER = ctx.zones, ctx.logging, ctx.dealer\n"
                                       "        S, SL = ctx.steps, ctx.step_limit\n")
    assert read_used(header, "        L[C0] = V[C1]") == ("    def run(ctx):\n        L = ctx.loc\n        V = ctx.vars\n"
                                                         "        S, SL = ctx.steps, ctx.step_limit\n")
    assert read_used(header, "        pass") == "    def run(ctx):\n        S, SL = ctx.steps, ctx.step_limit\n"
    # Otoroku's deal shuffles, cuts and deals: no variable, chips or ctx.loc read, every step placed
    g = build_game(load_variant(variant_path("hanafuda/otoroku.yaml")))
    deal = next(p.run for p in g.phases if p.id == "deal")
    head = deal.source.split("# variants/")[0]
    assert "ctx.vars" not in head and "ctx.chips" not in head and "ctx.loc" not in head and "ctx.zones" in head
    assert all(place is not None for _l, place in _statements(deal.source))


def test_a_zone_read_more_than_once_is_read_once_in_the_header():
    """A zone's list read twice or more outside a failure's handler or the log's lines is read
    once, on the header's row reading the round's state (no line added), into a local; a zone
    read once, or only where code runs on a failure or for the log, or one set, is left as written."""
    from rulekit.engine.genframe import round_zones
    consts = ["deck", "hand", "table", "deck", "pile"]
    lines = ["        z = Z[C0]", "        Z[C1][p].append(z.pop())", "        if len(Z[C3]) > Z[C2][0]:",
             "            x = Z[C1][p]", "        try:", "            y = Z[C2]", "        except ERRS:",
             "            y = Z[C2][0]", "        if LOG:", "            C9(ctx, Z[C2])", "        Z[C4] = []",
             "        w = Z[C4] + Z[C4]"]
    got, reads = round_zones(lines, consts)
    assert reads == "; ZN0 = Z[C0]; ZN1 = Z[C1]; ZN2 = Z[C2]"  # deck (written C0 and C3), hand, table
    assert got[:4] == ["        z = ZN0", "        ZN1[p].append(z.pop())", "        if len(ZN0) > ZN2[0]:",
                       "            x = ZN1[p]"]
    assert got[-2:] == lines[-2:] and got[7] == "            y = ZN2[0]"  # (one local, wherever it is read)
    assert round_zones(lines[:1] + lines[4:10], consts) == (lines[:1] + lines[4:10], "")  # table: once, and cold
    # Otoroku's bettors: the deck and the hands read once a turn, not once a card
    g = build_game(load_variant(variant_path("hanafuda/otoroku.yaml")))
    src = next(p.run for p in g.phases if p.id == "bettors").source
    head = src.split("# variants/")[0]
    assert head.count("; ZN") == 2 and "ZN1[lc0_0].append(" in src
