"""The scope of a variant: every name its expressions may read, with types and docs."""
from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any, Callable

from rulekit.lang.decks import Deck
from rulekit.lang.expr import Global, Scope
from rulekit.lang.expr.scope import fold_name
from rulekit.lang.expr import types as T
from rulekit.lang.loader import at, plain
from rulekit.lang.model import Variant


def _zone_reader(name: str) -> Callable[[Any], Any]:
    return lambda ctx: ctx.zones[name]


def _var_reader(name: str) -> Callable[[Any], Any]:
    return lambda ctx: ctx.vars[name]


def variant_scope(variant: Variant, deck: Deck, options: dict[str, Any]) -> Scope:
    """The names a variant's expressions see: zones, variables, table globals, card attributes, options."""
    glob: dict[str, Global] = {}
    for zname, z in variant.zones.items():
        t = "list<card>" if z.kind == "single" else "list<list<card>>"
        glob[zname] = Global(t, _zone_reader(zname), doc=z.description, code=("zones", zname))
    for vname, v in variant.vars.items():
        base_t = T.type_of_value(v.init) if not isinstance(v.init, str) or v.init in ("",) else T.ANY
        if isinstance(v.init, str):
            base_t = T.ANY  # an expression; typed when compiled
        t = base_t if v.kind == "single" else T.list_of(base_t)
        glob[vname] = Global(t, _var_reader(vname), doc=v.description, code=("vars", vname))
    glob["chips"] = Global("list<int>", lambda ctx: ctx.chips, doc="Each seat's chips (game total).", code="chips")
    glob["dealer"] = Global(T.INT, lambda ctx: ctx.dealer, doc="The dealer's seat this round.", code="dealer")
    glob["n_players"] = Global(T.INT, lambda ctx: ctx.n, doc="Number of seats at the table.", code="n_players")
    glob["round_no"] = Global(T.INT, lambda ctx: ctx.round_no, doc="Round number, from 0.", code="round_no")
    glob["seats"] = Global("list<int>", lambda ctx: list(range(ctx.n)), doc="Every seat, 0 to n-1.", code="seats")
    glob["cards_in_play"] = Global("list<card>", lambda ctx: list(ctx.game.in_play(ctx.n)),
                                   doc="Every card in play at this table, wherever it lies now (the whole deck "
                                       "less any the deck takes out at this table size).", code="cards_in_play")
    attrs = {}
    for a in deck.attributes.values():
        attrs[a.name] = (a.type, tuple(c.attrs[a.name] for c in deck.cards))
    attrs["tags"] = ("list<str>", tuple(sorted(c.tags) for c in deck.cards))
    ynode = at(variant.tree, "yaku")
    yaku_tables = frozenset((plain(ynode) or {}).keys()) if ynode else frozenset()
    scope = Scope(glob, attrs, dict(options), deck.index(), yaku_tables)
    scope.option_values = {k: tuple(v for v, _ in o.values) for k, o in variant.options.items()
                           if o.type == "choice" and o.values}
    scope.all_card_ids = EveryCardId(deck.index(), variant)
    scope.seats_max = variant.meta.players_max  # Game.new_ctx seats no more
    # a seat's pile or value is set item by item (a step cannot replace the whole list)
    scope.per_seat = frozenset([*(z for z, d in variant.zones.items() if d.kind == "player"),
                                *(v for v, d in variant.vars.items() if d.kind == "player"), "chips"])
    names: dict[str, list[str]] = {}
    for c in deck.cards:  # card(NAME) is card(ID); a name shared by several cards names none
        if c.names.get("en"):
            names.setdefault(fold_name(c.names["en"]), []).append(c.id)
    scope.card_names = {k: tuple(dict.fromkeys(v)) for k, v in names.items()}
    return scope


class EveryCardId(Collection[str]):
    """The card ids of the deck played and of every other deck the variant can be played with;
    the other decks are built only when an id not in the deck played is looked up (most variants
    never do: building them was a tenth of the command line's start-up)."""

    def __init__(self, here: Collection[str], variant: Variant) -> None:
        self.here = frozenset(here)
        self.variant = variant
        self.every: frozenset[str] | None = None

    def all(self) -> frozenset[str]:
        """Every id, the other decks built on first use."""
        if self.every is None:
            self.every = self.here | _every_card_id(self.variant)
        return self.every

    def __contains__(self, item: object) -> bool:
        return item in self.here or item in self.all()

    def __iter__(self) -> Iterator[str]:
        return iter(self.all())

    def __len__(self) -> int:
        return len(self.all())

    def __bool__(self) -> bool:
        return bool(self.here) or bool(self.all())


def _every_card_id(variant: Variant) -> frozenset[Any]:
    """The card ids of every deck the variant can be played with (their shipped bases)."""
    from rulekit.lang.decks import load_deck
    out: set[Any] = set()
    for choice in variant.decks.values():
        try:
            out.update(c.id for c in load_deck(choice.base).cards)
        except Exception:  # noqa: BLE001 - an unknown deck is reported where it is named
            continue
    return frozenset(out)
