"""The scope of a variant: every name its expressions may read, with types and docs."""
from __future__ import annotations

from typing import Any

from rulekit.lang.decks import Deck
from rulekit.lang.expr import Global, Scope
from rulekit.lang.expr.scope import fold_name
from rulekit.lang.expr import types as T
from rulekit.lang.loader import at, plain
from rulekit.lang.model import Variant


def variant_scope(variant: Variant, deck: Deck, options: dict[str, Any]) -> Scope:
    """The names a variant's expressions see: zones, variables, table globals, card attributes, options."""
    glob: dict[str, Global] = {}
    for zname, z in variant.zones.items():
        t = "list<card>" if z.kind == "single" else "list<list<card>>"
        glob[zname] = Global(t, (lambda ctx, k=zname: ctx.zones[k]), doc=z.description, code=("zones", zname))
    for vname, v in variant.vars.items():
        base_t = T.type_of_value(v.init) if not isinstance(v.init, str) or v.init in ("",) else T.ANY
        if isinstance(v.init, str):
            base_t = T.ANY  # an expression; typed when compiled
        t = base_t if v.kind == "single" else T.list_of(base_t)
        glob[vname] = Global(t, (lambda ctx, k=vname: ctx.vars[k]), doc=v.description, code=("vars", vname))
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
    yaku_tables = frozenset((plain(at(variant.tree, "yaku")) or {}).keys()) if at(variant.tree, "yaku") else frozenset()
    scope = Scope(glob, attrs, dict(options), deck.index(), yaku_tables)
    scope.option_values = {k: tuple(v for v, _ in o.values) for k, o in variant.options.items()
                           if o.type == "choice" and o.values}
    scope.all_card_ids = frozenset(deck.index()) | _every_card_id(variant)
    names: dict[str, list[str]] = {}
    for c in deck.cards:  # card(NAME) is card(ID); a name shared by several cards names none
        if c.names.get("en"):
            names.setdefault(fold_name(c.names["en"]), []).append(c.id)
    scope.card_names = {k: tuple(dict.fromkeys(v)) for k, v in names.items()}
    return scope


def _every_card_id(variant: Variant) -> frozenset:
    """The card ids of every deck the variant can be played with (their shipped bases)."""
    from rulekit.lang.decks import load_deck
    out: set = set()
    for choice in variant.decks.values():
        try:
            out.update(c.id for c in load_deck(choice.base).cards)
        except Exception:  # noqa: BLE001 - an unknown deck is reported where it is named
            continue
    return frozenset(out)
