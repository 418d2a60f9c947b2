"""Generated code (rulekit.lang.expr.codegen, rulekit.engine.stepgen) against the closures.

The closures, evaluating every yaku every time, are the reference implementation. For every variant, deck and preset, the same
seeded rounds are played by the generated code without a log and by the closures with a log;
every observable result must be identical: chips, per-round changes, records, the decisions
taken, where every card ends, what each seat has seen, the variables and the step count.
The generated source may only contain the generator's own names (no text from a variant).
"""
import io
import keyword
import os
import re
import tokenize

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play, round_seed
from rulekit.lang.expr import Scope, compile_expr
from rulekit.lang.expr.codegen import HELPERS, SAFE_BUILTINS

from .conftest import VARIANTS, playable, rel

GAMES = 12  # seeded one-round games per configuration and policy


def configs():
    out = []
    for f in playable():
        v = load_variant(f)
        out += [pytest.param(f, None, d, id=f"{v.meta.id}-{d}") for d in v.decks]
        out += [pytest.param(f, p, None, id=f"{v.meta.id}-preset-{p}") for p in v.presets]
    return out


def state(res):
    ctx = res.state
    return {"chips": res.chips, "deltas": res.round_deltas, "records": res.records, "moves": res.log["moves"],
            "zones": ctx.zones, "seen": ctx.seen, "vars": ctx.vars, "steps": ctx.steps, "dealer": ctx.dealer,
            "next_dealer": ctx.next_dealer}


@pytest.mark.parametrize("path,preset,deck", configs())
def test_generated_code_plays_exactly_like_the_closures(path, preset, deck):
    v = load_variant(path)
    fast = build_game(v, preset=preset, deck=deck)
    slow = build_game(v, preset=preset, deck=deck, codegen=False)
    slow.yaku_cacheable = {}  # the reference evaluates every yaku every time
    assert any(hasattr(ph.run, "source") for ph in fast.phases), "no phase runs on generated code"
    assert not any(hasattr(ph.run, "source") for ph in slow.phases)
    ps = fast.player_sizes()
    n_values = sorted({ps[0], ps[-1], *([v.meta.players_default] if v.meta.players_default in ps else [])})
    for policy in ["random", "first", *fast.policies]:
        for g in range(GAMES):
            n = n_values[g % len(n_values)]
            seed = round_seed(7, g)
            a = play(fast, n, seed, make_agents(fast, n, seed, policy), rounds=2, logging=False)
            b = play(slow, n, seed, make_agents(slow, n, seed, policy), rounds=2, logging=True)
            assert state(a) == state(b), f"{rel(path)} policy {policy} seed {seed} players {n}"


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_generated_code_logs_exactly_like_the_closures(path):
    """With a log, generated code hands every logged step to its closure: same events."""
    v = load_variant(path)
    fast, slow = build_game(v), build_game(v, codegen=False)
    n = v.meta.players_default
    for g in range(4):
        a = play(fast, n, g, make_agents(fast, n, g), rounds=1, logging=True)
        b = play(slow, n, g, make_agents(slow, n, g), rounds=1, logging=True)
        assert a.events == b.events and a.log == b.log


ALLOWED = re.compile(r"^(C\d+|K\d+|M\d+|ZN\d+|lc\d+_\d+|S|SL|DLEFT|DRIGHT|_p(e\d+_)?\d+|_t(e\d+_)?\d+|[a-z]+\d+|ctx|L|Z|V|CH|SEEN|LOG|DEALER|N|MEMO|ERRS|TOO_MANY|PAIRS|SLOW|_make|fast|plain|located|_s\d+"
                     r"|run|h|zones|vars|chips|seen|steps|step_limit|logging|decide|loc|n|dealer|round_no|"
                     r"budget|depth|record|records|get|yaku_eval|id|append|extend|pop|reverse|remove|rng|randrange|stack|relabel|next_dealer|rand|key|"
                     r"__contains__|__getitem__)$")


def names_in(src: str) -> set[str]:
    out = set()
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
            out.add(tok.string)
        if tok.type == tokenize.STRING:
            assert tok.string == "'yaku:'", f"a string literal in generated code: {tok.string}"
    return out


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_generated_source_holds_only_generator_names(path):
    game = build_game(load_variant(path))
    sources = [ph.run.source for ph in game.phases if hasattr(ph.run, "source")]
    assert sources
    for src in sources:
        stray = {n for n in names_in(src) if not ALLOWED.match(n) and n not in HELPERS and n not in SAFE_BUILTINS}
        assert not stray, f"unexpected names {stray} in generated code"


@pytest.mark.parametrize("text", [
    "'__import__(\"os\").system(\"true\")' == s",
    "s + '\\n    import os' == 'x'",
    "count([s, 'a\\'b', \"c\\\"d\"], x -> x == s)",
    "len == 1",
])
def test_text_from_rules_never_becomes_code(text):
    """Strings (with quotes, newlines or code in them) reach generated code only as constants."""
    from rulekit.lang.expr import Global
    scope = Scope(globals={"s": Global("str", lambda ctx: "abc"), "len": Global("int", lambda ctx: 1)})
    try:
        comp = compile_expr(text, scope)
    except Exception:  # noqa: BLE001 - a rejected expression is fine too
        return
    if comp.fast is not None:
        stray = {n for n in names_in(comp.fast.source)
                 if not ALLOWED.match(n) and n not in HELPERS and n not in SAFE_BUILTINS}
        assert not stray


def test_pairs_is_the_list_of_actions_it_stands_for():
    from rulekit.engine.stepgen import Pairs
    acts = Pairs([(-1, [0], 0), (1, [1, 2, 3], 1)], 4)  # as generated code groups them
    want = [(-1, 0), (1, 1), (1, 2), (1, 3)]
    assert len(acts) == 4 and list(acts) == want
    assert [acts[i] for i in range(4)] == want and acts[-1] == (1, 3)
    for bad in (4, -5):
        with pytest.raises(IndexError):
            acts[bad]
    assert not Pairs()


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_generated_yaku_tables_find_what_the_closures_find(path):
    """Every yaku table, on 300 random hands of 0 to 8 cards for each seat: the same yaku, values
    and ranks from the generated table (with its shared MEMO slots) as from the closures."""
    import random
    v = load_variant(path)
    fast, slow = build_game(v), build_game(v, codegen=False)
    n = v.meta.players_default
    a, b = fast.new_ctx(n, 1, None), slow.new_ctx(n, 1, None)
    fast.reset_round(a)
    slow.reset_round(b)
    rng = random.Random(3)
    for table in fast.yaku:
        for _ in range(300):
            cards = rng.sample(range(len(fast.card_ids)), rng.randrange(0, 9))
            seat = rng.randrange(n)
            got = [(h.id, h.value, h.rank) for h in fast._yaku_evaluator(a)(table, cards, seat)]
            want = [(h.id, h.value, h.rank) for h in slow._yaku_evaluator(b)(table, cards, seat)]
            assert got == want, (table, cards, seat)


SHARED = re.compile(r"\b(M\d+) if \1 is not H_UNSET else \(\1 := ")  # a slot filled at its first use


def test_a_yaku_table_computes_a_shared_call_once():
    # Otoroku's teyaku sort the values of the same two cards in several yaku
    game = build_game(load_variant(os.path.join(VARIANTS, "hanafuda", "otoroku.yaml")))
    assert game.yaku_fns is not None and SHARED.search(game.yaku_fns["teyaku"].source)


def kyo_kabu_table(whens: list[str]):
    """Kyō-Kabu's game and a generated yaku table of one yaku per condition in `whens`."""
    from types import SimpleNamespace

    from rulekit.engine.scope import variant_scope
    from rulekit.engine.game import YakuHit, add_grouped
    from rulekit.engine.yakugen import generate_yaku_table
    from rulekit.lang.expr.fastcode import FastCode
    from rulekit.lang.expr import types as T

    game = build_game(load_variant(os.path.join(VARIANTS, "kabufuda", "kyo-kabu.yaml")))
    scope = variant_scope(game.variant, game.deck, game.options).with_locals({"cards": "list<card>", "seat": T.INT})
    entries = []
    for i, text in enumerate(whens):
        comp = compile_expr(text, scope)
        when = comp.fast
        when.deps = comp.deps
        zero = FastCode("0", (), lambda ctx: 0)
        entries.append(SimpleNamespace(id=f"y{i}", group="", claim=None, when=when, value=zero, rank=zero))
    return game, entries, generate_yaku_table(entries, YakuHit, add_grouped, "<test>")


def finds_what_the_located_code_finds(game, entries, table) -> None:
    """The table's yaku on 400 random hands are those the located code of each condition finds."""
    import random
    ctx = game.new_ctx(5, 1, None)
    game.reset_round(ctx)
    rng = random.Random(5)
    for _ in range(400):
        cards = rng.sample(range(len(game.card_ids)), rng.randrange(0, 5))
        ctx.loc = {"cards": cards, "seat": 0}
        want = [e.id for e in entries if e.when.fastcode.slow(ctx)]
        assert [h.id for h in table(ctx, cards, 0)] == want, [game.card_ids[c] for c in cards]


def test_shared_calls_inside_functions_are_not_shared():
    """A call inside `x -> ...` that reads x differs for every x: the MEMO must not keep it,
    while a call repeated outside functions is computed once and still gives the same yaku."""
    game, entries, table = kyo_kabu_table([
        "count(cards, c -> count(filter(cards, d -> d.value == c.value)) > 1) == 2",  # a pair
        "any(cards, c -> count(filter(cards, d -> d.value == c.value)) == 3)",  # three of a kind
        "sum(map(cards, c -> c.value)) % 10 == 9",
        "sum(map(cards, c -> c.value)) % 10 == 0 and count(cards) == 2",
    ])
    assert table is not None and SHARED.search(table.source)
    finds_what_the_located_code_finds(game, entries, table)


def test_a_shared_call_gone_through_by_a_loop_is_kept_in_the_memo_list():
    """Python allows no := in a comprehension's iterable: a shared call that a loop goes through
    is kept in the list MEMO there (the same yaku), and in a local slot elsewhere."""
    game, entries, table = kyo_kabu_table([
        "any(sorted(map(cards, c -> c.value)), v -> v >= 8)",
        "sum(sorted(map(cards, c -> c.value))) % 10 == 9",
        "count(cards) == 3 and sum(sorted(map(cards, c -> c.value))) > 20",
    ])
    assert table is not None and "MEMO = [H_UNSET]" in table.source and "H_memo(MEMO, " in table.source
    assert SHARED.search(table.source)
    finds_what_the_located_code_finds(game, entries, table)


def test_generated_code_bounds_numbers_as_the_compiler_does():
    from rulekit.lang.expr import codegen, compiler
    assert codegen.MAX_INT == compiler.MAX_INT


def test_a_card_attribute_summed_or_mapped_is_looked_up_in_c_and_gives_what_the_located_code_gives():
    from rulekit.engine.scope import variant_scope
    from rulekit.lang.expr import types as T

    game = build_game(load_variant(os.path.join(VARIANTS, "kabufuda", "kyo-kabu.yaml")))
    scope = variant_scope(game.variant, game.deck, game.options).with_locals({"cards": "list<card>", "seat": T.INT})
    ctx = game.new_ctx(5, 1, None)
    game.reset_round(ctx)
    import random
    rng = random.Random(3)
    for text in ["sum(map(cards, c -> c.value)) % 10", "sum(cards, c -> c.value)", "map(cards, c -> c.value)"]:
        fast = compile_expr(text, scope).fast
        assert "for _p" not in fast.fastcode.body, fast.fastcode.body  # no Python loop over the cards
        for _ in range(50):
            cards = rng.sample(range(len(game.card_ids)), rng.randrange(0, 6))
            ctx.loc = {"cards": cards, "seat": 0}
            assert fast(ctx) == fast.fastcode.slow(ctx)
