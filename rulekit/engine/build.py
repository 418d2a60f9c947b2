"""Variant file -> Variant model -> compiled Game, reporting every error of the file at once."""
from __future__ import annotations

import dataclasses
import os
from typing import Any, Callable

from rulekit.lang.decks import Deck, derive, load_deck
from rulekit.engine.extras import Display
from rulekit.engine.game import Game, Phase, YakuEntry, YakuHit, add_grouped
from rulekit.engine.policydefs import described, playout_of, policy_rules
from rulekit.engine.genproof import ranks_most
from rulekit.engine.stepgen import generate_run
from rulekit.engine.yakucall import YakuCalls
from rulekit.engine.yakugen import generate_yaku_table
from rulekit.engine.stepcompile import StepCompiler
from rulekit.core.errors import (Collector, Diagnostic, RulekitError, argument, did_you_mean, error,
                                  sorted_diagnostics)
from rulekit.lang.expr import types as T
from rulekit.lang.expr.fastcode import FastCode
from rulekit.core.gcpause import gc_paused
from rulekit.engine.scope import variant_scope
from rulekit.engine.buildchecks import check_game_ends, check_rounds, compile_functions, group_of, player_sizes, seat_draw_of
from rulekit.engine.builddisplay import (card_facts, display_names, display_opponents, display_parts, display_reach,
                                          display_reasons, display_unasked, zone_groups, zone_last, zone_yaku as yaku_of_zones)
from rulekit.lang.loader import Node, at, load_tree, plain
from rulekit.lang.model import Meta, Variant
from rulekit.engine import variantparts as vp
from rulekit.lang.source import Source

_VAR_TYPES = {"int": 0, "bool": False, "str": ""}


def _variant_path(name: str) -> str:
    """A variant file's path from a path or an id; an unknown id is left for load_tree to report."""
    if os.path.isfile(name) or os.sep in name or name.endswith((".yaml", ".yml")):
        return name
    from rulekit.lang.loader import default_search_path, find_variant
    return find_variant(name, None, default_search_path()) or name


@gc_paused
def load_variant(path: str, search: list[str] | None = None, house: list[str] | tuple[str, ...] = (),
                 schema_errors: list[Diagnostic] | None = None) -> Variant:
    """Read a variant file (and its parents and house-rule files), check it, build the model.

    `path` is a file, or the id of a variant under ./variants or the shipped variants
    (`load_variant("my-game")`). With `schema_errors` (a list), schema errors are put there
    instead of raised, and the model is built as far as the file allows (validation reports
    the schema's errors and the rules' errors in one run)."""
    path = _variant_path(path)
    tree, files = load_tree(path, search)
    housed = vp.with_house(tree, files, path, house)
    tree = vp.own_values_tree(housed.tree)
    data = vp.schema_checked(tree, schema_errors)
    errs = Collector()
    meta = vp.meta_of(data, path)
    options = vp.options_of(data, tree, errs)
    presets = vp.presets_of(data, tree, options, errs)
    decks = vp.decks_of(data, tree, errs)
    default_deck = vp.default_deck_of(data, tree, meta, decks, presets, errs)
    zones = vp.zones_of(data)
    vars_ = vp.vars_of(data, tree, zones, errs)
    _check_players(tree, meta, errs)
    vp.house_option_errors(housed, options, errs)
    errs.raise_if_any()
    variant = Variant(meta=meta, options=options, presets=presets, decks=decks, default_deck=default_deck,
                      zones=zones, vars=vars_, tree=tree, files=tuple(housed.files), file=path,
                      house_options={k: v for k, (v, _s) in housed.options.items()}, house=housed.houses)
    from rulekit.lang.textrefs import register_figures

    def figures() -> Any:  # {fig.NAME}: the source (and its module) made when a text first reads one
        from rulekit.engine.figures import figure_source
        return figure_source(variant, build=build_figures_game)
    register_figures(options, figures)
    return variant


def _check_players(tree: Node, meta: Meta, errs: Collector) -> None:
    """players: min <= default <= max, located where the wrong number is written (a house file's
    line when a house file changed it), before anything is played."""
    lo, hi, usual = meta.players_min, meta.players_max, meta.players_default
    if lo > hi:
        n = at(tree, "players", "max") or at(tree, "players")
        errs.add(error(n.span if n else tree.span, "E042", f"players: max {hi} is below min {lo}"))
    elif not lo <= usual <= hi:
        n = at(tree, "players", "default") or at(tree, "players")
        errs.add(error(n.span if n else tree.span, "E042", f"players: the usual number (default) must be from "
                       f"{lo} to {hi}, found {usual}", hint=f"set default to a number from {lo} to {hi}, or change "
                       "min/max too"))


def resolve_options(variant: Variant, given: dict[str, Any] | None = None,
                    preset: str | None = None) -> dict[str, Any]:
    """Defaults, then the preset, then the given values; raise RulekitError on unknown/bad ones."""
    errs = Collector()
    values = {name: o.parse(o.default) for name, o in variant.options.items()}
    if preset is not None:
        if preset not in variant.presets:
            raise RulekitError(error(argument("preset"), "E050", f"unknown preset '{preset}' for {variant.meta.id}",
                                     hint=did_you_mean(preset, variant.presets)))
        for k, v in variant.presets[preset].options.items():
            values[k] = variant.options[k].parse(v)
    for k, v in variant.house_options.items():
        values[k] = variant.options[k].parse(v)
    for k, v in (given or {}).items():
        if k not in variant.options:
            from rulekit.lang.house import option_hint
            errs.add(error(argument("options"), "E050", f"unknown option '{k}' for {variant.meta.id}",
                           hint=option_hint(k, v, variant.options)))
            continue
        try:
            values[k] = variant.options[k].parse(v)
        except ValueError as exc:
            errs.add(error(argument("options"), "E050", f"option '{k}': {exc}"))
    errs.raise_if_any()
    return values


def make_deck(variant: Variant, name: str, errs: Collector, options: dict[str, Any] | None = None) -> Deck | None:
    """The deck a variant plays with under `name`: a shipped deck and the variant's derivation
    (whose expressions may read opt.<name>: the option values given, else the defaults)."""
    choice = variant.decks.get(name)
    if choice is None:
        errs.add(error(argument("deck"), "E040", f"{variant.meta.id} has no deck '{name}'",
                       hint=did_you_mean(name, variant.decks) or f"decks: {', '.join(variant.decks)}"))
        return None
    base = load_deck(choice.base)
    spec = {k: v for k, v in choice.spec.items() if k in ("remove", "set", "map", "attributes")}
    if not spec:
        return base
    src = Source(variant.file, spec)
    node = at(variant.tree, "decks", name)

    # derive() locates errors through a Source; give it one built from the tree's spans
    def fill(n: Node, path: tuple[Any, ...]) -> None:
        src.spans[path] = n.span
        src.styles[path] = n.style
        if isinstance(n.value, dict):
            for k, v in n.value.items():
                fill(v, path + (k,))
    if node is not None:
        fill(node, ())
    if options is None:
        options = {k: o.parse(o.default) for k, o in variant.options.items()}
    meta = variant.meta
    why = "a deck is built before any round is played, so its expressions read the cards, options, " \
          "n_players and functions only"
    unseen = {**{z: why for z in variant.zones}, **{v: why for v in variant.vars},
              **{g: why for g in ("chips", "dealer", "round_no", "seats")}}
    return derive(base, spec, src, errs, (), options, (meta.players_min, meta.players_max),
                  parsed_functions(variant.tree), unseen)


def parsed_functions(tree: Node) -> dict[str, Any]:
    """The variant's `functions:` parsed, silently skipping broken ones (the rules' compile
    reports them, located, in _functions)."""
    from rulekit.lang.expr.inline import UserFunction
    from rulekit.lang.expr.parser import ExprSyntaxError, parse
    fnode = at(tree, "functions")
    out: dict[str, Any] = {}
    if fnode is None or not isinstance(fnode.value, dict):
        return out
    for name, fn in fnode.value.items():
        d = fn.value if isinstance(fn.value, dict) else {}
        body = d.get("body")
        pnode = d.get("params")
        if body is None or not isinstance(body.value, str) or (pnode is not None and not isinstance(pnode.value, list)):
            continue
        try:
            out[str(name)] = UserFunction(str(name), tuple(str(p.value) for p in (pnode.value if pnode else ())),
                                          parse(body.value))
        except ExprSyntaxError:
            continue
    return out


@gc_paused
def build_game(variant: Variant, options: dict[str, Any] | None = None, preset: str | None = None,
               deck: str | None = None, codegen: bool | None = None) -> Game:
    """Compile a variant for one deck and one set of option values; raise on any error.

    With codegen (the default; RULEKIT_CODEGEN=0 turns it off) each phase and procedure runs as
    one generated Python function (rulekit.engine.stepgen); without, step by step (each step
    generated on its own, calling the steps inside it; expressions on their closures) - the same
    results, slower (tests compare the two)."""
    opts = resolve_options(variant, options, preset)
    if codegen is None:
        codegen = os.environ.get("RULEKIT_CODEGEN", "1") != "0"
    errs = Collector()
    deck_name, d = _deck_for(variant, deck, preset, opts, errs)
    game = _compile(variant, d, deck_name, opts, errs, codegen)
    if errs.diagnostics:
        from rulekit.lang.removals import relocate
        errs.diagnostics = relocate(errs.diagnostics, list(variant.tree.removals))
    errs.raise_if_any()
    game.preset = preset
    return game


def _yaku_when(ed: dict[str, Node]) -> Node:
    """A yaku's condition: its `when`, and with the one-line `cards:` form every listed card among
    the cards (a name or id is checked by card(), located at the list)."""
    if "cards" not in ed:
        return ed["when"]
    cn = ed["cards"]
    names = [str(c.value) for c in cn.value] if isinstance(cn.value, list) else []
    listed = ", ".join("card(" + repr(n) + ")" for n in names)
    cond = f"all([{listed}], k -> k in cards)"
    if "when" in ed and isinstance(ed["when"].value, str):
        cond = f"({ed['when'].value}) and {cond}"
    return Node(cond, cn.span)


def _rank(sc: StepCompiler, ed: dict[str, Node], loc: dict[str, Any]) -> Any:
    """A yaku's rank; it may read `value`, the yaku's own value (`rank: value` ranks a table by
    value without writing each value twice). Checked as written (errors located in it), then
    compiled as `let value = (<value>) in (<rank>)`."""
    node = ed["rank"]
    text = node.value
    if not isinstance(text, str) or "value" in sc.scope.globals or "value" not in text or "value" not in ed:
        return sc.expr(node, loc, T.NUM, "rank")[0]
    errors = len(sc.errs.diagnostics)
    fn = sc.expr(node, {**loc, "value": T.NUM}, T.NUM, "rank")[0]
    vtext = ed["value"].value
    if len(sc.errs.diagnostics) > errors or "value" not in _names_read(text):
        return fn
    return sc.expr(Node(f"let value = ({vtext}) in ({text})", node.span, node.key_span, node.style), loc, T.NUM,
                   "rank")[0]


def _names_read(text: str) -> set[str]:
    """The plain names an expression reads (not attributes such as c.value)."""
    from rulekit.lang.expr import ast
    from rulekit.lang.expr.parser import parse
    todo, out = [parse(text)], set()
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name):
            out.add(n.name)
        todo.extend(ast.children(n))
    return out


def _here(tree: Node, *path: Any) -> Node:
    """The node at `path` below `tree`, which a caller read from that very tree (`tree` if not)."""
    return at(tree, *path) or tree


class LazyProcedure:
    """A procedure's generated function (rulekit.engine.stepgen), made the first time it is called:
    the phases write most calls of a procedure out where they stand, so most are never called on
    their own. Once made it takes its own place in `procs`, where generated code looks it up; it
    shows its function's `source` and constants (`rulekit show --compiled`)."""

    def __init__(self, procs: dict[str, Any], name: str, steps_of: dict[str, Any]):
        self.procs, self.name, self.steps_of = procs, name, steps_of
        self.fn: Any = None

    def made(self) -> Any:
        """The procedure's function (generated now if it is not yet)."""
        if self.fn is None:
            self.fn = generate_run(self.steps_of[self.name], f"<procedure {self.name}>", self.steps_of)
            if self.procs.get(self.name) is self:
                self.procs[self.name] = self.fn
        return self.fn

    def __call__(self, ctx: Any) -> Any:
        return self.made()(ctx)

    @property
    def source(self) -> Any:
        return getattr(self.made(), "source", None)

    @property
    def __code__(self) -> Any:
        return getattr(self.made(), "__code__", None)

    @property
    def __closure__(self) -> Any:
        return getattr(self.made(), "__closure__", None)


def _zero(ctx: Any) -> int:
    return 0


def _value(val: Any) -> Callable[[Any], Any]:
    """A variable's start that is a plain value (not an expression); generated code reads the
    value as a bound constant (the round's start, rulekit.engine.roundstart)."""
    def fn(ctx: Any) -> Any:
        return val
    fn.fastcode = FastCode("K0", (val,), fn)  # type: ignore[attr-defined]
    return fn


def _constant(v: Any) -> Any:
    """A rule part left out of the file: a constant, which generated code inlines."""
    def fn(ctx: Any) -> Any:
        return v
    fn.fastcode = FastCode(repr(v), (), fn)  # type: ignore[attr-defined]
    fn.deps = frozenset()  # type: ignore[attr-defined]
    return fn


def _deck_for(variant: Variant, deck: str | None, preset: str | None, opts: dict[str, Any],
              errs: Collector) -> tuple[str, Deck]:
    """The deck asked for (else the preset's, else the variant's default), made; raises what is wrong."""
    deck_name = deck or (variant.presets[preset].deck if preset and variant.presets[preset].deck else None) \
        or variant.default_deck
    d = make_deck(variant, deck_name, errs, opts)
    errs.raise_if_any()
    assert d is not None  # make_deck reports why it made none, and raise_if_any raised it
    return deck_name, d


def _scope_and_vars(variant: Variant, deck: Deck, opts: dict[str, Any], errs: Collector,
                    codegen: bool) -> tuple[Any, StepCompiler, dict[str, Callable[[Any], Any]]]:
    """The variant's scope under these options (its functions checked), a step compiler on it, and
    each variable's start: the first part of a full build and of a figures-only one alike."""
    tree = variant.tree
    scope = variant_scope(variant, deck, opts)
    scope.codegen = codegen
    scope.functions = compile_functions(tree, scope, errs)
    sc = StepCompiler(scope, variant.zones, variant.vars, errs, at(tree, "procedures"))
    var_init: dict[str, Callable[[Any], Any]] = {}
    for vname, v in variant.vars.items():
        vnode = at(tree, "vars", vname, "init")
        if vnode is None:
            var_init[vname] = _zero
        elif isinstance(v.init, str):
            var_init[vname] = sc.expr(vnode, {}, None, f"init of {vname}", True)[0]
        else:
            var_init[vname] = _value(v.init)
    return scope, sc, var_init


def _compile(variant: Variant, deck: Deck, deck_name: str, opts: dict[str, Any], errs: Collector,
             codegen: bool = False) -> Game:
    tree = variant.tree
    scope, sc, var_init = _scope_and_vars(variant, deck, opts, errs, codegen)
    # the functions generated expressions call for yaku of a constant table (bound to the tables
    # whenever a game state is made: Game.yaku_eval_for)
    yaku_calls = scope.yaku_calls = YakuCalls() if codegen else None
    # yaku tables
    yaku: dict[str, list[YakuEntry]] = {}
    ynode = at(tree, "yaku")
    if ynode is not None and isinstance(ynode.value, dict):
        for table, entries in ynode.value.items():
            yaku[table] = []
            for e in entries.value if isinstance(entries.value, list) else []:
                ed = e.value
                loc = {"cards": "list<card>", "seat": T.INT}
                sc.phase = f"yaku {table}/{ed.get('id').value if 'id' in ed else '?'}"
                when = sc.expr(_yaku_when(ed), loc, T.BOOL, "when")[0] if "when" in ed or "cards" in ed \
                    else _constant(False)
                claim = sc.expr(ed["claim"], loc, T.BOOL, "claim")[0] if "claim" in ed else None
                value = sc.expr(ed["value"], loc, T.NUM, "value")[0] if "value" in ed else _constant(0)
                rank = _rank(sc, ed, loc) if "rank" in ed else _constant(0)
                yaku[table].append(YakuEntry(
                    id=str(ed["id"].value), names=plain(ed["names"]) if "names" in ed else {},
                    group=group_of(ed["group"], scope, errs) if "group" in ed else "", when=when, claim=claim,
                    value=value, rank=rank, description=str(ed["description"].value) if "description" in ed else ""))
    scope.rank_most = ranks_most({t: [y.rank for y in es] for t, es in yaku.items()})  # (genproof.scalar)
    phases = []
    rnode = at(tree, "round")
    for ph in (rnode.value if rnode is not None and isinstance(rnode.value, list) else []):
        pd = ph.value
        pid = str(pd["id"].value) if "id" in pd else "?"
        sc.phase = pid
        when = sc.expr(pd["when"], {}, T.BOOL, "when", True)[0] if "when" in pd else None
        run = sc.block(pd.get("steps"), {})
        phases.append(Phase(id=pid, name=str(pd["name"].value) if "name" in pd else pid, when=when, run=run,
                            span=ph.span))
    sc.phase = ""
    for name in sc.proc_nodes:  # report errors in procedures nobody calls too
        sc.compile_proc(name)
    gnode = at(tree, "game")
    g = gnode.value if gnode is not None and isinstance(gnode.value, dict) else {}
    rounds = sc.expr(g["rounds"], {}, T.INT, "rounds")[0] if "rounds" in g else (lambda ctx: 1)
    first_dealer = None
    if "first_dealer" in g and g["first_dealer"].value != "random":
        first_dealer = sc.expr(g["first_dealer"], {}, T.INT, "first_dealer")[0]
    end_when = sc.expr(g["end_when"], {}, T.BOOL, "end_when")[0] if "end_when" in g else None
    start_chips = int(g["start_chips"].value) if "start_chips" in g else 0
    deck_zone = str(g["deck_zone"].value) if "deck_zone" in g else "deck"
    if deck_zone not in variant.zones:
        errs.add(error(tree.span if "deck_zone" not in g else g["deck_zone"].span, "E040",
                       f"the cards start in zone '{deck_zone}', which is not declared under zones:",
                       hint="declare a zone 'deck' or set game: deck_zone"))
    policies = _policies(variant, sc, errs)
    zone_show, card_show, display_table = display_parts(variant, sc)
    facts = card_facts(variant, sc)
    zone_yaku = yaku_of_zones(variant, list(yaku), errs)
    yaku_fns_ok = False
    if codegen and not errs.diagnostics:
        steps_of = dict(sc.procs)  # each procedure's compiled steps, which calls may write out in place
        phases = [dataclasses.replace(ph, run=generate_run(ph.run, f"<phase {ph.id}>", steps_of, top=True)) for ph in phases]
        for name in list(sc.procs):
            # (the phases write their calls out in place: a procedure's own function is made if one calls it)
            sc.procs[name] = LazyProcedure(sc.procs, name, steps_of)
        yaku_fns = {t: generate_yaku_table(es, YakuHit, add_grouped, f"<yaku {t}>") for t, es in yaku.items()}
        yaku_fns_ok = all(f is not None for f in yaku_fns.values())
    game = Game(variant=variant, deck=deck, deck_name=deck_name, options=opts, card_ids=tuple(c.id for c in deck.cards),
                phases=phases, yaku=yaku, choices=sc.choices, policies=policies, rounds=rounds,
                first_dealer=first_dealer, end_when=end_when, start_chips=start_chips, deck_zone=deck_zone,
                var_init=var_init, procedures=dict(sc.procs), yaku_calls=yaku_calls)
    extra = game.extra
    pnode = at(tree, "players", "sizes")
    if pnode is not None:
        extra.player_sizes = player_sizes(pnode, scope, variant.meta, errs)
    if "open_ended" in g:
        extra.open_ended = sc.expr(g["open_ended"], {}, T.BOOL, "open_ended")[0]
        if not errs.diagnostics:
            check_game_ends(g, scope, errs)
    if "rounds" in g and not errs.diagnostics:
        extra.rounds_span = g["rounds"].span  # a length found wrong in play is reported here
        check_rounds(g, scope, errs)
    if "draw" in g and isinstance(g["draw"].value, dict):
        extra.seat_draw = seat_draw_of(g["draw"], sc)
    extra.display = Display(zone_show=zone_show, card_show=card_show, card_facts=facts, zone_yaku=zone_yaku,
                            table=display_table, reasons=display_reasons(variant), names=display_names(variant),
                            reach=display_reach(variant, yaku, errs), zone_groups=zone_groups(variant),
                            zone_last=zone_last(variant),
                            opponents=display_opponents(variant, policies, errs))
    extra.functions = scope.functions  # statistics and other late readers see them too
    inode = at(tree, "display", "intro")
    intro = sc._template(inode, {}, "display.intro") if inode is not None else None
    if intro is not None and not errs.diagnostics:
        # said on the first screen at the table, under the options in play ('' says nothing)
        said = " ".join(intro(game.new_ctx(variant.meta.players_default, 0, None)).split())
        extra.display = dataclasses.replace(extra.display, intro=said)
    # questions the table answers for a person (display.unasked), said on the first screen
    unasked = display_unasked(at(tree, "display", "unasked"), sc)
    if not errs.diagnostics:
        c0 = game.new_ctx(variant.meta.players_default, 0, None)
        told_unasked = {cid: (" ".join(say(c0).split()), told) for cid, (w, say, told) in unasked.items()
                        if w is None or w(c0)}
        extra.display = dataclasses.replace(extra.display, unasked=told_unasked)
    for pol in policies.values():
        for key in ("description", "brief"):
            describe = pol.pop("describe_" + key, None)
            if describe is not None and not errs.diagnostics:
                # a policy's words say only what applies under the options in play
                pol[key] = " ".join(describe(game.new_ctx(variant.meta.players_default, 0, None)).split())
    game.random_first_dealer = "first_dealer" in g and g["first_dealer"].value == "random"
    # a table whose rules read only the cards, the seat, options and what stays fixed for a
    # round may have its results remembered for the round
    fixed = {"dealer", "n_players", "seats", "round_no"}
    game.yaku_cacheable = {
        t: all(getattr(f, "deps", {"?"}) <= fixed for y in es for f in (y.when, y.claim, y.value, y.rank)
               if f is not None)
        for t, es in yaku.items()}
    if codegen and not errs.diagnostics and yaku_fns_ok:
        game.yaku_fns = {t: f for t, f in yaku_fns.items() if f is not None}  # (all are: yaku_fns_ok)
    return game


@gc_paused
def build_figures_game(variant: Variant, options: dict[str, Any] | None = None, preset: str | None = None,
                       deck: str | None = None, codegen: bool | None = None) -> Game:
    """A game with only what its figures read (rulekit.engine.figures): options, deck, players,
    functions and variables' starts; no phases, yaku, policies or display. Raises as build_game
    does on what those parts check (figures tests compare the two for every option value)."""
    opts = resolve_options(variant, options, preset)
    errs = Collector()
    deck_name, d = _deck_for(variant, deck, preset, opts, errs)
    tree = variant.tree
    scope, sc, var_init = _scope_and_vars(variant, d, opts, errs, False)
    gnode = at(tree, "game")
    g = gnode.value if gnode is not None and isinstance(gnode.value, dict) else {}
    game = Game(variant=variant, deck=d, deck_name=deck_name, options=opts, card_ids=tuple(c.id for c in d.cards),
                phases=[], yaku={}, choices={}, policies={}, rounds=lambda ctx: 1, first_dealer=None, end_when=None,
                start_chips=int(g["start_chips"].value) if "start_chips" in g else 0,
                deck_zone=str(g["deck_zone"].value) if "deck_zone" in g else "deck", var_init=var_init,
                procedures={})
    pnode = at(tree, "players", "sizes")
    if pnode is not None:
        game.extra.player_sizes = player_sizes(pnode, scope, variant.meta, errs)
    game.extra.functions = scope.functions
    # the game's length and end are checked as build_game checks them: rules that refuse these
    # option values give no figures either
    if "rounds" in g:
        sc.expr(g["rounds"], {}, T.INT, "rounds")
    if "open_ended" in g:
        sc.expr(g["open_ended"], {}, T.BOOL, "open_ended")
        if not errs.diagnostics:
            check_game_ends(g, scope, errs)
    if "rounds" in g and not errs.diagnostics:
        check_rounds(g, scope, errs)
    errs.raise_if_any()
    return game


def _policies(variant: Variant, sc: StepCompiler, errs: Collector) -> dict[str, dict[str, Any]]:
    """Compile YAML policies against the scope of each choice they name."""
    out: dict[str, dict[str, Any]] = {}
    pnode = at(variant.tree, "policies")
    if pnode is None or not isinstance(pnode.value, dict):
        return out
    for pname, p in pnode.value.items():
        for r in policy_rules(pnode, str(pname), errs):
            rd = r.value
            cid = str(rd["choice"].value) if "choice" in rd else ""
            if cid not in sc.choices:
                span = rd["choice"].span if "choice" in rd else r.span
                msg, hint = f"policy '{pname}': no choice '{cid}'", did_you_mean(cid, sc.choices)
                if span.file != variant.file:
                    # the rule is inherited: the file to change is the child that dropped the choice
                    msg += f" in {variant.file}, which extends the file where this policy is written"
                    hint = (f"in {variant.file}, override policy '{pname}' without this rule (or remove it "
                            f"with '{pname}: {{remove: true}}')")
                errs.add(error(span, "E040", msg, hint=hint))
                continue
            for ch in sc.choices[cid]:
                sc.phase = f"policy {pname}"
                when = sc.expr(rd["when"], ch.scope_locals, T.BOOL, "when")[0] if "when" in rd else None
                prefer = sc.expr(rd["prefer"], ch.scope_locals, T.BOOL, "prefer")[0] if "prefer" in rd else None
                ch.policies.setdefault(pname, []).append((when, prefer))
        out[pname] = {}
        for key in ("description", "brief"):
            p = described(pnode, str(pname), key)
            out[pname][key] = str(p.value[key].value) if isinstance(p.value, dict) and key in p.value else ""
            if "{" in out[pname][key]:
                # {expression} parts (over the options): the words for the rules in play, filled in
                # once the game is built
                out[pname]["describe_" + key] = sc._template(p.value[key], {}, f"policy {pname} {key}")
        playout = playout_of(pnode, str(pname), errs)
        if playout is not None:
            out[pname]["playout"] = playout
    sc.phase = ""
    return out


@gc_paused
def check_house(path: str, strict: bool = False) -> list[Diagnostic]:
    """Every error of a house-rule file, checked against the game it names (its `target`): the
    file's own shape, unknown or out-of-range options and players, yaku it cannot change, and
    (strict) the game with the house rules applied compiled for every deck and played one round."""
    from rulekit.lang.house import load_house
    from rulekit.lang.loader import default_search_path, find_variant
    try:
        h = load_house(path)
        vpath = find_variant(h.target, None, default_search_path())
        if vpath is None:
            from rulekit.lang.loader import all_variant_ids
            return [error(h.target_span, "E051", f"house rules for '{h.target}': no such game",
                          hint=did_you_mean(h.target, all_variant_ids(default_search_path())))]
        variant = load_variant(vpath, house=(path,))
        errs = Collector()
        opts = resolve_options(variant)
        d = make_deck(variant, variant.default_deck, errs, opts)
        if d is not None and not errs.diagnostics:
            game = _compile(variant, d, variant.default_deck, opts, errs)
            if strict and not errs.diagnostics:
                from rulekit.engine.runner import smoke_round
                for n in sorted({variant.meta.players_min, variant.meta.players_default, variant.meta.players_max}):
                    smoke_round(game, n)
        from rulekit.lang.house import unsaid_hands
        return sorted_diagnostics(errs.diagnostics + unsaid_hands(h, variant))
    except RulekitError as exc:
        return sorted_diagnostics(exc.diagnostics)


def _with_rules_errors(path: str, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """A file refused by the schema: its schema errors, and the errors of the rules found by
    compiling what can be compiled (every configuration), so one run reports both. A file the
    rules' pass cannot read at all keeps the schema's errors alone."""
    if not diagnostics or any(d.code in ("E001", "E002", "E003", "E004") for d in diagnostics):
        return diagnostics  # not read, or not parsed: nothing more to check
    found: list[Diagnostic] = []
    more = Collector()
    try:
        variant = load_variant(path, schema_errors=found)
        if variant.meta.abstract:
            return diagnostics
        opts = resolve_options(variant, None, None)
        deck = make_deck(variant, variant.default_deck, more, opts)
        if deck is not None and not more.diagnostics:
            _compile(variant, deck, variant.default_deck, opts, more)
    except RulekitError as exc:
        more.extend(exc.diagnostics)
    except Exception:  # noqa: BLE001 - data the schema refused may break the rules' pass: report the schema's
        return diagnostics
    seen = {(d.span, d.code, d.message) for d in diagnostics}
    extra = [d for d in more.diagnostics if (d.span, d.code, d.message) not in seen
             and not any(d.span.file == s.span.file and d.span.line == s.span.line for s in diagnostics)]
    return sorted_diagnostics(list(diagnostics) + extra)


def check_variant(path: str, strict: bool = False, require_text: bool | None = None) -> list[Diagnostic]:
    """Every error in a variant file: schema, names, expressions for every deck and preset.

    `strict` also plays a round with every deck and preset and (unless `require_text` is
    False) reports each phase, choice, yaku and payout without rules text for players."""
    try:
        variant = load_variant(path)
    except RulekitError as exc:
        return _with_rules_errors(path, exc.diagnostics)
    if variant.meta.abstract:
        return []
    errs = Collector()
    from rulekit.lang.prosecheck import placeholder_errors, strict_warnings
    errs.extend(placeholder_errors(variant))
    if strict if require_text is None else require_text:
        from rulekit.lang.rulestext import missing_text
        errs.extend(missing_text(variant))
        from rulekit.lang.vocabcheck import prose_problems
        errs.extend(prose_problems(variant))  # E092: program words in text for players
    from rulekit.lang.handvalues import literal_hand_values
    warnings = strict_warnings(variant) + literal_hand_values(variant) if strict else []
    configs: list[tuple[str | None, str]] = [(None, d) for d in variant.decks]
    configs += [(p, variant.presets[p].deck or variant.default_deck) for p in variant.presets]
    games = []
    done: set[str] = set()
    from rulekit.engine.lint import appended_phase_warnings
    warned: list[Diagnostic] = appended_phase_warnings(variant)
    for preset, deck_name in configs:
        try:
            opts = resolve_options(variant, None, preset)
        except RulekitError as exc:
            errs.extend(exc.diagnostics)
            continue
        key = repr((deck_name, sorted(opts.items())))
        if key in done:  # a preset that only repeats another configuration compiles the same
            continue
        done.add(key)
        local = Collector()
        d = make_deck(variant, deck_name, local, opts)
        if d is not None and not local.diagnostics:
            from rulekit.engine.lint import deck_warnings, label_warnings
            warned += deck_warnings(variant, deck_name, d, load_deck(variant.decks[deck_name].base))
            games.append(_compile(variant, d, deck_name, opts, local))
            warned += label_warnings(games[-1])
            if at(variant.tree, "stats") is not None and not local.diagnostics:
                # the variant's own statistics compile against every configuration too
                from rulekit.engine.statsdecl import prepare
                try:
                    # attached as simulate attaches them: the smoke round reads them within the same budget
                    games[-1] = prepare(games[-1], None)
                except RulekitError as exc:
                    local.extend(exc.diagnostics)
        errs.extend(local.diagnostics)
    from rulekit.engine.varvis import visibility_problems
    for vname, message in visibility_problems(variant):
        vn = at(variant.tree, "vars", vname, "visibility") or _here(variant.tree, "vars", vname)
        errs.add(error(vn.span, "E043", message))
    if not [d for d in errs.diagnostics if d.severity == "error"] and games:
        # play one seeded round at the smallest and largest table, and at every size whose deck
        # differs: finds deals that do not fit
        from rulekit.engine.runner import smoke_round
        played = games[0].player_sizes()
        sizes = {played[0], played[-1]}
        sizes.update(n for g in games for n in g.deck.out_of_play if n in played)
        for n in sorted(sizes):
            for game in games[: (len(games) if strict else 1)]:
                try:
                    smoke_round(game, n)
                except RulekitError as exc:
                    errs.extend(exc.diagnostics)
        if not errs.diagnostics and any(getattr(ch, "quiet_where", False) for chs in games[0].choices.values()
                                        for ch in chs):
            from rulekit.engine.lint import where_warnings
            warned += where_warnings(variant, games[0].deck_name, games[0].options, sorted(sizes), build_game)
    if strict and games and not [d for d in errs.diagnostics if d.severity == "error"]:
        from rulekit.engine.figures import literal_figure_warnings
        warned += literal_figure_warnings(variant, games[0], build_figures_game)
    from rulekit.lang.removals import relocate
    return sorted_diagnostics(relocate(errs.diagnostics + warnings + warned, list(variant.tree.removals)))
