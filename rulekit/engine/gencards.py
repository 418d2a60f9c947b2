"""Write the generated code of the card steps: move, reveal, shuffle, cut, deal, hide and swap.

A mixin of rulekit.engine.stepgen's writer (Gen), whose `emit`, `expr`, `bind`, `zone` and locals
helpers it uses; for each of these kinds it writes the step's one implementation, log events and
located errors included.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rulekit.lang.expr.fastcode import fast_code
from rulekit.lang.expr.helpers import card_table
from rulekit.engine.genbase import WriterCalls
from rulekit.engine.genvalues import unseen
from rulekit.engine.stepkinds import CutGen, DealGen, HideGen, MoveGen, RevealGen, ShuffleGen, SwapGen
from rulekit.engine.steps import (ALL_SEATS, Fn, log_cut, log_deal, log_hide, log_move, log_reveal, log_shuffle,
                                  log_swap, relabel, shuffle_list, stack_named, zone_getter)

if TYPE_CHECKING:
    from rulekit.engine.genframe import Frame

_FIRST_EQ = re.compile(r"\((C\d+)\[(\w+)\] == ([\w +()-]+)\)")


def _balanced(text: str) -> bool:
    """Whether the parentheses of `text` pair up in order (it is one operand, not two)."""
    depth = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


class CardWriter(WriterCalls):
    """Writes the code of the steps that move, deal, shuffle, cut, swap, reveal and hide cards."""

    frame: Frame
    promote: bool
    slow: bool
    consts: list[Any]
    lines: list[str]
    # where the last reveal to everyone of a zone's cards ended (the line count) and the zone's code
    all_seen: tuple[int, str] | None

    if TYPE_CHECKING:  # (the writer's other calls: WriterCalls)
        def zone(self, getter: Fn, ind: int) -> str: ...

    def k_move(self, run: Any, gen: MoveGen, ind: int) -> None:
        src, si, dst, di, count, where = gen.src, gen.si, gen.dst, gen.di, gen.count, gen.where
        face, bottom, too_few, too_few_matching = gen.face, gen.bottom, gen.too_few, gen.too_few_matching
        z = self.new("z")
        mark = len(self.lines)
        pile = self.zone(zone_getter(src, si), ind)
        # cards of a zone just shown to everyone, nothing run since: already seen by all
        shown = face == "up" and self.all_seen == (len(self.lines), pile) == (mark, pile)
        self.emit(ind, f"{z} = {pile}")
        got = self.new("g")
        one = None  # the card, where exactly one is moved (no list made unless a log needs it)
        if gen.cards is not None:
            # the very cards named: a card or a list of them, each taken out of the zone
            v = self.expr(gen.cards, ind)
            self.emit(ind, f"{got} = [{v}] if {self.bind(isinstance)}({v}, {self.bind(int)}) else list({v})")
            c = self.new("c")
            self.emit(ind, f"for {c} in {got}:")
            self.emit(ind + 1, "try:")
            self.emit(ind + 2, f"{z}.remove({c})")
            self.emit(ind + 1, f"except {self.bind(ValueError)}:")
            self.emit(ind + 2, f"{self.bind(gen.not_in)}(ctx, {c})")
        elif where is not None:
            want = self.expr(count, ind, hold=True) if count is not None else f"len({z})"
            picked, k, cv = self.new("pk"), self.new("k"), self.new("cv")
            self.emit(ind, f"{picked} = []")
            self.emit(ind, f"{cv} = None")
            eq = self.first_eq(where, cv) if want == "1" else None
            at = ind
            if eq is not None:
                # one card whose attribute equals a value not of the card: found in C, the loop
                # below kept for a value that fails (to fail as it does, at its place)
                self.emit(ind, "try:")
                self.emit(ind + 1, f"{k} = H_first_eq({eq[0]}, {z}, {eq[1]}) if {z} else -2")
                self.emit(ind, "except ERRS:")
                self.emit(ind + 1, f"{k} = -3")
                self.emit(ind, f"if {k} >= 0: {cv} = {z}[{k}]; {picked}.append({k})")
                self.emit(ind, f"elif {k} == -1: {cv} = {z}[0]")
                self.emit(ind, f"elif {k} == -3:")
                at = ind + 1
            # as the closure: cards from the top until `want` match (checked after each match)
            self.emit(at, f"for {k} in range(len({z}) - 1 if {want} > 0 else -1, -1, -1):")
            self.emit(at + 1, f"{cv} = {z}[{k}]")
            w = self.expr(where, at + 1, {"c": cv})
            self.emit(at + 1, f"if {w}:")
            self.emit(at + 2, f"{picked}.append({k})")
            self.emit(at + 2, f"if len({picked}) >= {want}: break")
            # as the closure leaves it: `c` is the last card looked at (a step local `c` of the rules too)
            if not self.promote:
                self.emit(ind, f"L[{self.bind('c')}] = {cv}")
            elif "c" in self.frame.slots:
                self.emit(ind, f"{self.frame.wrote('c')} = {cv}")
            if count is not None:
                self.emit(ind, f"if len({picked}) < {want}: {self.bind(too_few_matching)}(len({picked}), {want})")
            self.emit(ind, f"{got} = [{z}.pop({k}) for {k} in {picked}]")
        elif gen.at is not None:
            i = self.expr(gen.at, ind)
            self.emit(ind, f"if not 0 <= {i} < len({z}): {self.bind(gen.no_card_at)}(len({z}), {i})")
            self.emit(ind, f"{got} = [{z}.pop(len({z}) - 1 - {i})]")
        elif count is not None and getattr(fast_code(count), "body", None) == "1":  # one card, the usual case
            self.emit(ind, f"if not {z}: {self.bind(too_few)}(0, 1)")
            one = self.new("c")
            self.emit(ind, f"{one} = {z}.pop()")
        elif count is None:  # the whole zone, its top card first
            self.emit(ind, f"{got} = {z}[::-1]")
            self.emit(ind, f"del {z}[:]")
        else:
            n = self.expr(count, ind)
            if n.isdigit() and int(n) > 0:  # as many cards as the rule wrote
                self.emit(ind, f"if len({z}) < {n}: {self.bind(too_few)}(len({z}), {n})")
                self.emit(ind, f"{got} = {z}[-{n}:]")
                self.emit(ind, f"del {z}[-{n}:]")
                self.emit(ind, f"{got}.reverse()")
            else:
                self.emit(ind, f"if {n} > len({z}) or {n} < 0: {self.bind(too_few)}(len({z}), {n})")
                self.emit(ind, f"if {n}:")
                self.emit(ind + 1, f"{got} = {z}[-{n}:]")
                self.emit(ind + 1, f"del {z}[-{n}:]")
                self.emit(ind + 1, f"{got}.reverse()")
                self.emit(ind, "else:")
                self.emit(ind + 1, f"{got} = []")
        d = self.zone(zone_getter(dst, di), ind)
        if one is not None:
            self.emit(ind, f"{d}.insert(0, {one})" if bottom else f"{d}.append({one})")
            if face is not None and not shown:
                self.emit(ind, f"SEEN[{one}] = {ALL_SEATS if face == 'up' else 0}")
            got = f"[{one}]"
        elif bottom:
            self.emit(ind, f"{d}[0:0] = {got}")
        else:
            self.emit(ind, f"{d}.extend({got})")
        if face is not None and one is None and not shown:
            c = self.new("c")
            self.emit(ind, f"for {c} in {got}: ctx.seen[{c}] = {ALL_SEATS if face == 'up' else 0}")
        self.log(ind, f"{self.bind(log_move)}(ctx, {self.bind(src)}, {self.bind(si)}, {self.bind(dst)}, "
                       f"{self.bind(di)}, {got}, {self.bind(face)}, {self.bind(gen.by)})")

    def first_eq(self, where: Any, cv: str) -> tuple[str, str] | None:
        """(the table as a scan reads it, value) where `where` reads `table[card] == value` (a tuple of ints or texts, and
        sums of names and numbers that cannot charge, change or read the card), else None."""
        code = None if self.slow else fast_code(where)
        m = _FIRST_EQ.fullmatch(self.written(code, {"c": cv})) if code is not None else None
        if m is None or m.group(2) != cv or re.search(rf"\b{cv}\b|\w\s*\(", m.group(3)) or not _balanced(m.group(3)):
            return None
        table = self.consts[int(m.group(1)[1:])]
        ok = type(table) is tuple and all(type(x) in (int, str) for x in table)
        return (self.bind(card_table(table)), m.group(3)) if ok else None

    def k_reveal(self, run: Any, gen: RevealGen, ind: int) -> None:
        cards, everyone, to = gen.cards, gen.everyone, gen.to
        cs = self.new("cs")
        pile = self.zone(cards, ind)
        self.emit(ind, f"{cs} = {pile}")
        if getattr(cards, "zone", None) is None:  # (a zone is a list; an expression may give one card)
            self.emit(ind, f"if type({cs}) is int: {cs} = [{cs}]")
        mask = self.new("m")
        if everyone:
            c = self.new("c")
            self.emit(ind, f"for {c} in {cs}: SEEN[{c}] = {ALL_SEATS}")  # (what `|= ALL_SEATS` gives)
            self.log(ind, f"{self.bind(log_reveal)}(ctx, {cs}, {self.bind('all')})")
            if getattr(cards, "zone", None) is not None:  # (a move of its cards face up, next, sets none)
                self.all_seen = (len(self.lines), pile)
            return
        who = self.expr(to, ind, hold=True)
        self.emit(ind, f"if type({who}) is int: {who} = [{who}]")
        self.emit(ind, f"{mask} = 0")
        q = self.new("q")
        self.emit(ind, f"for {q} in {who}:")
        self.emit(ind + 1, f"if not 0 <= {q} < N: {self.bind(gen.no_seat)}({q}, N)")
        self.emit(ind + 1, f"{mask} |= 1 << {q}")
        c = self.new("c")
        self.emit(ind, f"for {c} in {cs}: SEEN[{c}] |= {mask}")
        self.log(ind, f"{self.bind(log_reveal)}(ctx, {cs}, {who})")

    def k_shuffle(self, run: Any, gen: ShuffleGen, ind: int) -> None:
        z = self.new("z")
        self.emit(ind, f"{z} = {self.zone(gen.zone, ind)}")
        self.emit(ind, f"{self.bind(shuffle_list)}(ctx.rng, {z})")
        # a stacked deck (tests, examples) and a sampled deal (the search bot), in that order
        self.emit(ind, f"if ctx.stack is not None: {self.bind(stack_named)}(ctx, {z}, {self.bind(gen.name)})")
        self.emit(ind, f"if ctx.relabel is not None: {self.bind(relabel)}(ctx, {z})")
        self.emit(ind, f"{self.bind(unseen)}(SEEN, {z})")
        self.log(ind, f"{self.bind(log_shuffle)}(ctx, {self.bind(gen.name)}, {z})")

    def k_cut(self, run: Any, gen: CutGen, ind: int) -> None:
        z, k = self.new("z"), self.new("k")
        name = self.bind(gen.name)
        self.emit(ind, f"{z} = {self.zone(gen.zone, ind)}")
        self.emit(ind, f"if len({z}) > 1 and (ctx.stack is None or {name} not in ctx.stack):")
        from rulekit.engine.steps import cut_point  # (rng.randrange(1, size), the same draws)
        self.emit(ind + 1, f"{k} = {self.bind(cut_point)}(ctx.rng, len({z}))")
        self.emit(ind + 1, f"{z}[:] = {z}[{k}:] + {z}[:{k}]")
        self.log(ind + 1, f"{self.bind(log_cut)}(ctx, {name}, {k})")

    def k_deal(self, run: Any, gen: DealGen, ind: int) -> None:
        z, hands, p = self.new("z"), self.new("hs"), self.new("p")
        self.emit(ind, f"{z} = {self.zone(gen.src, ind)}")
        if gen.players is None:  # from the dealer's left, everyone
            order = self.new("ord")
            self.emit(ind, f"{order} = [(DEALER + 1 + {p}) % N for {p} in range(N)]")
        else:
            order = self.expr(gen.players, ind)
        self.emit(ind, f"{hands} = Z[{self.bind(gen.dst)}]")
        k = "1" if gen.count is None else self.expr(gen.count, ind)
        self.emit(ind, f"if {k} * len({order}) > len({z}): {self.bind(gen.too_few)}({k}, len({order}), len({z}))")
        if gen.players is not None:  # (the seats from the dealer's left are seats)
            self.emit(ind, f"if {order} and not (0 <= {self.bind(min)}({order}) and {self.bind(max)}({order}) < N):")  # (in C)
            self.seats_check(ind, gen.players)
            self.emit(ind + 1, f"for {p} in {order}:")
            self.emit(ind + 2, f"if not 0 <= {p} < N: {self.bind(gen.no_seat)}({p}, N)")
        inner = ind
        if k != "1":
            self.emit(ind, f"for {self.new('r')} in range({k}):")
            inner += 1
        c = self.new("c")
        self.emit(inner, f"for {p} in {order}:")
        if gen.face == "up":
            self.emit(inner + 1, f"{c} = {z}.pop()")
            self.emit(inner + 1, f"{hands}[{p}].append({c})")
            self.emit(inner + 1, f"SEEN[{c}] = {ALL_SEATS}")
        else:
            self.emit(inner + 1, f"{hands}[{p}].append({z}.pop())")
        self.log(ind, f"{self.bind(log_deal)}(ctx, {self.bind(gen.src_name)}, {self.bind(gen.dst)}, {k}, "
                       f"{order}, {self.bind(gen.face)})")

    def k_hide(self, run: Any, gen: HideGen, ind: int) -> None:
        cs, c = self.new("cs"), self.new("c")
        self.emit(ind, f"{cs} = {self.zone(gen.cards, ind)}")
        if getattr(gen.cards, "zone", None) is None:
            self.emit(ind, f"if type({cs}) is int: {cs} = [{cs}]")
        self.emit(ind, f"for {c} in {cs}: SEEN[{c}] = 0")
        self.log(ind, f"{self.bind(log_hide)}(ctx, {cs})")

    def k_swap(self, run: Any, gen: SwapGen, ind: int) -> None:
        a, b = self.new("za"), self.new("zb")
        self.emit(ind, f"{a} = {self.zone(gen.a, ind)}")
        self.emit(ind, f"{b} = {self.zone(gen.b, ind)}")
        self.emit(ind, f"{a}[:], {b}[:] = list({b}), list({a})")
        (an, ai), (bn, bi) = gen.labels
        self.log(ind, f"{self.bind(log_swap)}(ctx, {self.bind(an)}, {self.bind(ai)}, {self.bind(bn)}, "
                       f"{self.bind(bi)})")
