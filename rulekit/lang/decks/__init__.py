"""Decks as data: load the deck YAML files shipped here, apply derivations (remove/set/map)."""
from __future__ import annotations

import functools
import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Any

from rulekit.core.errors import Collector, RulekitError, Span, did_you_mean, error
from rulekit.lang.expr import CompileError, EvalError, Scope, compile_expr
from rulekit.lang.expr.scope import Global
from rulekit.lang.source import Source, expr_span, read_file

HERE = os.path.dirname(os.path.abspath(__file__))
# the shipped deck files' data as JSON, each with the digest of the text it was read from
# (write_stored() makes it): reading a deck is then a digest and a lookup, not a YAML parse
STORED_PATH = os.path.join(HERE, "decks.json")
_PY_TYPES = {"int": int, "str": str, "bool": bool}


@dataclass(frozen=True)
class AttrDef:
    """A declared card attribute: its type, allowed values and meaning."""

    name: str
    type: str
    description: str = ""
    values: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Card:
    """One card: stable id, attribute values, tags and names."""

    id: str
    attrs: dict[str, Any]
    tags: frozenset[str] = frozenset()
    names: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.names.get("en", self.id)


@dataclass(frozen=True)
class Deck:
    """A deck: its cards in a fixed order and the attributes every card has."""

    id: str
    names: dict[str, str]
    description: str
    cards: tuple[Card, ...]
    attributes: dict[str, AttrDef]
    sources: tuple[str, ...] = ()
    parent: str | None = None
    file: str = ""
    # table size -> ids of the cards a variant's `remove` takes out of play at that size only
    out_of_play: dict[int, frozenset[str]] = field(default_factory=dict)

    def index(self) -> dict[str, int]:
        """Card id -> position in this deck."""
        return {c.id: i for i, c in enumerate(self.cards)}


def deck_names() -> list[str]:
    """Ids of every deck shipped with rulekit."""
    return sorted(f[:-5] for f in os.listdir(HERE) if f.endswith(".yaml"))


def card_scope(deck: Deck, options: dict[Any, Any] | None = None, players: bool = False, functions: dict[Any, Any] | None = None,
               unseen: dict[Any, Any] | None = None) -> Scope:
    """An expression scope where `c` is a card of `deck` (for derivations and filters); a
    variant's deck also sees the game's option values as opt.<name>, n_players and the
    variant's functions; `unseen` names what it cannot read (and why) for clear errors."""
    attrs: dict[str, tuple[str, tuple[Any, ...]]] = {}
    for a in deck.attributes.values():
        attrs[a.name] = (a.type, tuple(c.attrs[a.name] for c in deck.cards))
    attrs["tags"] = ("list<str>", tuple(sorted(c.tags) for c in deck.cards))
    # evaluated once per card when a deck is built: not worth generating code for
    glob = {"n_players": Global("int", lambda ctx: ctx.n, doc="Number of seats at the table.")} if players else {}
    return Scope(glob, attrs=attrs, options=dict(options or {}), card_ids=deck.index(), locals={"c": "card"},
                 codegen=False, functions=dict(functions or {}), unseen=dict(unseen or {}))


class _Eval:
    __slots__ = ("loc", "n", "yaku_eval", "budget")

    def __init__(self) -> None:
        from rulekit.lang.expr.scope import EVAL_BUDGET
        self.budget = EVAL_BUDGET
        self.loc: dict[Any, Any] = {}
        self.n = 1
        self.yaku_eval = None


def eval_per_card(text: Any, deck: Deck, node_span: Span, errs: Collector, what: str,
                  style: str = "", options: dict[Any, Any] | None = None,
                  players: tuple[int, int] | None = None, functions: dict[Any, Any] | None = None,
                  unseen: dict[Any, Any] | None = None) -> dict[int, list[Any]] | list[Any] | None:
    """Evaluate an expression over `c` for every card of `deck`; None after reporting errors.

    With `players` (the table sizes, lowest and highest) the expression may read n_players:
    then the result maps each table size to its values."""
    try:
        comp = compile_expr(text, card_scope(deck, options, players is not None, functions, unseen))
    except CompileError as exc:
        for p in exc.problems:
            errs.add(error(expr_span(node_span, style, p.offset, p.length), p.code, f"{what}: {p.message}", hint=p.hint))
        return None
    sizes = range(players[0], players[1] + 1) if players and "n_players" in comp.deps else None
    ctx = _Eval()
    by_size = {}
    for n in sizes or (1,):
        ctx.n = n
        out = []
        for i in range(len(deck.cards)):
            ctx.loc["c"] = i
            try:
                out.append(comp.fn(ctx))
            except EvalError as exc:
                errs.add(error(expr_span(node_span, style, exc.offset, exc.length), "E034", f"{what}: {exc.message}"))
                return None
        by_size[n] = out
    return by_size if sizes else by_size[1]


# shipped deck id -> the deck built from its file: a deck derived from another (as most are)
# takes its parent as built, not read and derived again (decks are immutable and shipped)
_BUILT: dict[str, Deck] = {}


@functools.cache
def load_deck(name: str) -> Deck:
    """Load a shipped deck by id (derived decks resolve their parent); raise RulekitError."""
    # only the shipped ids: a name is never a path (a deck file is not checked against a schema)
    if name not in deck_names():
        raise RulekitError(error(Span("<deck>", 0, 0), "E040", f"no deck named '{name}'",
                                 hint=did_you_mean(name, deck_names())))
    try:
        return _build(_read(name, False), chain=(name,))
    except RulekitError:
        # (a stored deck has no places in its file: read the file itself to say where the error is)
        return _build(_read(name, True), chain=(name,), located=True)


def _read(name: str, located: bool) -> Source:
    """A shipped deck file: its stored data when stored for its very text (`located`: always
    read, with the place of every value)."""
    path = os.path.join(HERE, f"{name}.yaml")
    if not located:
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError:
            raw = b""
        hit = _stored().get(name)
        if hit is not None and hit.get("sha256") == hashlib.sha256(raw).hexdigest():
            return Source(os.path.relpath(path), hit["data"])  # (named as read_file names it)
    return read_file(path)


@functools.cache
def _stored() -> dict[str, Any]:
    """decks.json: deck id -> {"sha256": digest of its file, "data": its data}; {} if unreadable."""
    try:
        with open(STORED_PATH, encoding="utf-8") as fh:
            stored = json.load(fh)
    except (OSError, ValueError):
        return {}
    return stored if isinstance(stored, dict) else {}


def stored_text() -> str:
    """The text of decks.json for the deck files as they are (their data as read_file reads it)."""
    out = {}
    for name in deck_names():
        path = os.path.join(HERE, f"{name}.yaml")
        with open(path, "rb") as fh:
            raw = fh.read()
        data = read_file(path).data
        if repr(json.loads(json.dumps(data))) == repr(data):  # (else: not stored, read from its file)
            out[name] = {"sha256": hashlib.sha256(raw).hexdigest(), "data": data}
    return json.dumps(out, ensure_ascii=False, indent=None, separators=(",", ":")) + "\n"


def write_stored() -> None:
    """Write decks.json again (after an edit of a deck file; tests/test_decks.py says when)."""
    with open(STORED_PATH, "w", encoding="utf-8") as fh:
        fh.write(stored_text())


def _build(src: Source, chain: tuple[str, ...], located: bool = False) -> Deck:
    data = src.data
    errs = Collector()
    # Deck files ship with rulekit and users cannot add any (a variant's own derivation is
    # checked by the variant schema), so schemas/deck.schema.json is checked by the test suite
    # (tests/test_decks.py), not on every load: it was most of the time spent loading a deck.
    attrs = {k: AttrDef(k, v.get("type", "str"), v.get("description", ""), tuple(v.get("values", ())))
             for k, v in (data.get("attributes") or {}).items()}
    if "from" in data:
        parent_name = data["from"]
        if parent_name in chain:
            raise RulekitError(error(src.span(("from",)), "E021", f"deck derivation cycle: {' -> '.join(chain)}"))
        if parent_name not in deck_names():
            raise RulekitError(error(src.span(("from",)), "E040", f"no deck named '{parent_name}'",
                                     hint=did_you_mean(parent_name, deck_names())))
        parent = _BUILT.get(parent_name) or _build(_read(parent_name, located), chain + (parent_name,), located)
        deck = derive(parent, data, src, errs, ())
        errs.raise_if_any()
        built = Deck(data["id"], data.get("names", {}), data.get("description", ""), deck.cards,
                     deck.attributes, tuple(data.get("sources", ())), parent_name, src.file)
        _BUILT[chain[-1]] = built
        return built
    cards = []
    for i, cd in enumerate(data.get("cards", [])):
        values = {k: cd[k] for k in attrs if k in cd}
        for k, a in attrs.items():
            if k not in cd:
                errs.add(error(src.span(("cards", i)), "E010", f"card '{cd.get('id')}' has no value for "
                               f"attribute '{k}'"))
            elif a.values and cd[k] not in a.values:
                errs.add(error(src.span(("cards", i, k)), "E010", f"attribute '{k}': expected one of "
                               f"{', '.join(map(str, a.values))}, found {cd[k]!r}"))
        cards.append(Card(str(cd["id"]), values, frozenset(cd.get("tags", ())), dict(cd.get("names", {}))))
    seen: set[str] = set()  # linear: a deck of 60,000 cards is checked at once
    for i, c in enumerate(cards):
        if c.id in seen:
            errs.add(error(src.span(("cards", i, "id")), "E010", f"duplicate card id '{c.id}'"))
        seen.add(c.id)
    errs.raise_if_any()
    built = Deck(data["id"], data.get("names", {}), data.get("description", ""), tuple(cards), attrs,
                 tuple(data.get("sources", ())), None, src.file)
    _BUILT[chain[-1]] = built
    return built


def derive(parent: Deck, spec: dict[Any, Any], src: Source, errs: Collector, path: tuple[Any, ...],
           options: dict[Any, Any] | None = None, players: tuple[int, int] | None = None, functions: dict[Any, Any] | None = None,
           unseen: dict[Any, Any] | None = None) -> Deck:
    """Apply a derivation (remove / attributes / set / map) to a deck; used by decks and variants
    (whose expressions may read the game's options, and whose `remove` may read n_players: the
    cards it removes at some table sizes only stay in the deck, out of play at those sizes)."""
    deck = parent
    out_of_play: dict[int, frozenset[str]] = {}
    if spec.get("remove") is not None:
        drop = eval_per_card(spec["remove"], deck, src.span(path + ("remove",)), errs, "remove",
                             src.styles.get(path + ("remove",), ""), options, players, functions, unseen)
        if isinstance(drop, dict):  # it reads n_players: what goes at every size leaves the deck
            gone = [all(d[i] for d in drop.values()) for i in range(len(deck.cards))]
            deck = _replace_cards(deck, [c for c, g in zip(deck.cards, gone) if not g])
            out_of_play = {n: frozenset(c.id for c, g, x in zip(parent.cards, gone, d) if x and not g)
                           for n, d in drop.items()}
            out_of_play = {n: ids for n, ids in out_of_play.items() if ids}
        elif drop is not None:
            deck = _replace_cards(deck, [c for c, d in zip(deck.cards, drop) if not d])
    new_attrs = dict(deck.attributes)
    for k, v in (spec.get("attributes") or {}).items():
        new_attrs[k] = AttrDef(k, v.get("type", "str"), v.get("description", ""), tuple(v.get("values", ())))
    cards = [Card(c.id, dict(c.attrs), c.tags, c.names) for c in deck.cards]
    for attr, text in (spec.get("set") or {}).items():
        if attr not in new_attrs:
            errs.add(error(src.span(path + ("set", attr)), "E040", f"set: attribute '{attr}' is not declared "
                           "under attributes:", hint=did_you_mean(attr, new_attrs)))
            continue
        vals = eval_per_card(text, deck, src.span(path + ("set", attr)), errs, f"set {attr}",
                             src.styles.get(path + ("set", attr), ""), options, players, functions, unseen)
        if isinstance(vals, dict):
            errs.add(error(src.span(path + ("set", attr)), "E040", f"set {attr}: a card's attributes are the same "
                           "at every table size, so set: cannot read n_players",
                           hint="take cards out of play by table size with remove:, or read n_players in the rules"))
        elif vals is not None:
            for c, v in zip(cards, vals):
                c.attrs[attr] = v
    index = {c.id: c for c in cards}
    for cid, values in (spec.get("map") or {}).items():
        card = index.get(str(cid))
        if card is None:
            errs.add(error(src.span(path + ("map", cid)), "E040", f"map: no card '{cid}' in deck '{parent.id}'",
                           hint=did_you_mean(str(cid), index)))
            continue
        for k, v in values.items():
            if k not in new_attrs:
                errs.add(error(src.span(path + ("map", cid, k)), "E040", f"map: attribute '{k}' is not declared",
                               hint=did_you_mean(k, new_attrs)))
            card.attrs[k] = v
    for k, a in new_attrs.items():
        for c in cards:
            if k not in c.attrs:
                errs.add(error(src.span(path), "E042", f"after the derivation card '{c.id}' has no value "
                               f"for attribute '{k}'"))
                break
            want = _PY_TYPES.get(a.type)
            if want and not (isinstance(c.attrs[k], want) and not (want is int and isinstance(c.attrs[k], bool))):
                errs.add(error(src.span(path), "E033", f"attribute '{k}' of card '{c.id}': expected {a.type}, "
                               f"found {c.attrs[k]!r}"))
                break
    return Deck(parent.id, parent.names, parent.description, tuple(cards), new_attrs, parent.sources,
                parent.parent, parent.file, out_of_play)


def _replace_cards(deck: Deck, cards: list[Card]) -> Deck:
    return Deck(deck.id, deck.names, deck.description, tuple(cards), deck.attributes, deck.sources,
                deck.parent, deck.file)
