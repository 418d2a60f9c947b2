"""The odds on request checked against the exact count, one stacked spot per seed game: a figure
of answer_odds (the h key at the table) beside the share worked out by stacking, in turn, every
card the deciding seat cannot see where the rules draw it, and playing the round out."""
from __future__ import annotations

from rulekit.engine.odds import answer_odds, watcher
from rulekit.engine.runner import play
from rulekit.engine.testing import Script, game


class Weigh:
    """Plays `script` at every seat and weighs (as the table's h does) the first decision of
    `choice` at seat `seat`, before answering it."""

    name = "weigh"

    def __init__(self, script: Script, seat: int, choice: str, deals: int, seed: int = 7):
        self.script, self.seat, self.choice, self.deals, self.seed = script, seat, choice, deals, seed
        self.odds: list | None = None
        self.actions: list = []

    def watch(self, g, n, seed, moves, values):
        self.st = watcher(g, n, seed, moves, values)

    def round_start(self, ctx, r, total, deltas):
        self.st.at_round(ctx, r, total, deltas)

    def act(self, d):
        self.st.at_decision(d)
        if d.player == self.seat and d.choice.id == self.choice and self.odds is None:
            self.odds = answer_odds(self.st, deals=self.deals, seed=self.seed)
            self.actions = d.legal
        return self.script.act(d)


def _weighed(rel: str, n: int, top: list[str], script: Script, seat: int, choice: str, deals: int) -> Weigh:
    g = game(rel)
    w = Weigh(script, seat, choice, deals)
    play(g, n, 1, [w] * n, rounds=1, logging=True, dealer=0, stack={"deck": list(top)})
    assert w.odds, "no deal agreed with what the seat saw"
    assert all(o.deals == deals for o in w.odds)
    return w


# Kyō-Kabu, two players: seat 1 stakes on the column of the 7 (third column) and its hidden card
# is another 7: 7 + 7 = 14, worth 4, a free choice; a third 7 makes Sorokabu. The first field
# (5-4, 6-4, 7-4, 8-4) is set out before the stack; then the dealer's first card, the four hidden
# cards, the third card.
KYO = "kabufuda/kyo-kabu.yaml"
KYO_FIELD = ["5-4", "6-4", "7-4", "8-4"]
KYO_TOP = ["2-1", "1-1", "1-2", "7-2", "1-3"]


def _kyo_script(take: bool) -> Script:
    return Script([], {"bet": [{"col": 2, "amount": 1}], "third_card": [{"take": take}],
                       "dealer_third": [{"take": False}]})


def _exact_sorokabu_share() -> tuple[float, int]:
    """Of the cards seat 1 cannot see, the share that makes Sorokabu as its column's third card:
    each stacked there in turn (the cards before it, unseen too, chosen among the others)."""
    g = game(KYO)
    seen = KYO_FIELD + ["7-2"]
    soro = tried = 0
    for c in g.card_ids:
        if c in seen:
            continue
        others = [x for x in g.card_ids if x not in seen and x != c]
        top = [others[0], others[1], others[2], "7-2", others[3], c]
        res = play(g, 2, 1, [_kyo_script(True)] * 2, rounds=1, logging=True, dealer=0, stack={"deck": top})
        tried += 1
        soro += any(e["t"] == "yaku" and e["table"] == "column" and "sorokabu" in e["yaku"] for e in res.events)
    return soro / tried, tried


def test_kyo_kabu_the_chance_a_third_card_makes_sorokabu_is_the_share_of_sevens_unseen():
    w = _weighed(KYO, 2, KYO_TOP, _kyo_script(False), 1, "third_card", 400)
    take = next(i for i, a in enumerate(w.actions) if a["take"])
    soro = ("column", "sorokabu")
    exact, cards = _exact_sorokabu_share()
    assert cards == 40 - 5 and exact == 2 / 35  # the two 7s seat 1 has not seen, of 35 cards
    # 400 deals: a standard error of 1.2 points; the seed fixes the figure
    assert abs(w.odds[take].theirs.get(soro, 0.0) - exact) < 0.04, (w.odds[take].theirs, exact)
    assert soro not in w.odds[1 - take].theirs  # two cards are never three of a kind
