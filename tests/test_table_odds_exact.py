"""The odds on request checked against the exact count, one stacked spot per seed game: a figure
of answer_odds (the h key at the table) beside the share worked out by stacking, in turn, every
card the deciding seat cannot see where the rules draw it, and playing the round out."""
from __future__ import annotations

import itertools

from rulekit.engine.agents import PolicyAgent
from rulekit.engine.odds import answer_odds
from rulekit.engine.runner import play
from rulekit.engine.testing import Script, game

from .watching import Watching


class Weigh(Watching):
    """Plays `script` at every seat and weighs (as the table's h does) the first decision of
    `choice` at seat `seat`, before answering it."""

    name = "weigh"

    def __init__(self, script: Script, seat: int, choice: str, deals: int, seed: int = 7):
        self.script, self.seat, self.choice, self.deals, self.seed = script, seat, choice, deals, seed
        self.odds: list | None = None
        self.actions: list = []

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


class _Then:
    """Answers the first decisions asked as `moves` say (actions by their values), then plays the
    game's careful policy: the enumeration's way of playing a round on from a stacked spot."""

    name = "then"

    def __init__(self, moves: list[dict], seed: int):
        self.script, self.left, self.policy = Script(list(moves)), len(moves), PolicyAgent("careful", seed)

    def act(self, d):
        if self.left > 0:
            self.left -= 1
            return self.script.act(d)
        return self.policy.act(d)


def _dealt(res) -> list[str]:
    """The round's cards in the order the stock gave them out (the stack that deals them again)."""
    return [c for e in res.events if e["t"] == "move" and e["from"] == "deck" for c in e["cards"]]


def _exact_late_spot(rel: str, n: int, order: list[str], seat: int, asked: list[dict], answer: dict,
                     unseen: list[str], what) -> tuple[float, int]:
    """The share of the arrangements of `unseen` (every order of them over their places in `order`)
    in which `what(events)` holds, each round played as `asked` says up to the weighed decision,
    `answer` there, then carefully to the end."""
    g = game(rel)
    places = [order.index(c) for c in unseen]
    hits = total = 0
    for j, perm in enumerate(itertools.permutations(unseen)):
        top = list(order)
        for p, c in zip(places, perm):
            top[p] = c
        agent = _Then([*asked, answer], j)
        res = play(g, n, 1, [agent] * n, rounds=1, logging=True, dealer=0, stack={"deck": top})
        total += 1
        hits += bool(what(res.events))
    return hits / total, total


# Hiraya: the deal of seed 10, stacked; every seat plays its first card until seat 2's sixth play
# (two cards left). Six cards are then unseen by
# seat 2: the last card of seats 0 and 1 and the four left in the stock, two of which seat 2 draws.
HIRAYA = "hanafuda/hiraya.yaml"
HIRAYA_SEED = 10


def test_hiraya_the_chance_of_a_yaku_that_hangs_on_the_draw_is_the_count_over_every_order_of_the_unseen():
    g = game(HIRAYA)
    first = play(g, 3, HIRAYA_SEED, [Script([])] * 3, rounds=1, logging=True, dealer=0)
    order = _dealt(first)
    assert len(order) == 48  # dealt once: no misdeal
    asked = [e for e in first.events if e["t"] == "choose" and not e.get("forced")]
    k = [i for i, e in enumerate(asked) if e["player"] == 2 and e["choice"] == "play"][5]

    class Sixth(Weigh):
        plays = 0

        def act(self, d):
            if d.player == 2 and d.choice.id == "play":
                self.plays += 1
                if self.plays < 6:
                    self.st.at_decision(d)
                    return self.script.act(d)
            return super().act(d)

    w = Sixth(Script([]), 2, "play", 400)
    play(g, 3, 1, [w] * 3, rounds=1, logging=True, dealer=0, stack={"deck": order})
    assert w.odds and len(w.actions) == 2 and all(o.deals == 400 for o in w.odds)
    where: dict[str, str] = {}
    for e in first.events[:first.events.index(asked[k])]:
        if e["t"] == "move":
            where.update({c: e["to"] for c in e["cards"]})
    unseen = [c for c in order if where.get(c, "deck") in ("deck", "hand[0]", "hand[1]")]
    assert len(unseen) == 6
    before = [e["action"] for e in asked[:k]]
    yaku = ("dekiyaku", "poetry-ribbons")

    def made(events):
        return any(e["t"] == "yaku" and e["player"] == 2 and yaku[1] in e["yaku"] for e in events)

    # no payment before the question (no hand paid at the deal): the round's change is the answer's
    assert not any(e["t"] == "pay" for e in first.events[:first.events.index(asked[k])])

    def ahead(events):
        return sum(e["amount"] * ((e["to"] == 2) - (e["from"] == 2)) for e in events if e["t"] == "pay") > 0

    for i, answer in enumerate(w.actions):
        exact, deals = _exact_late_spot(HIRAYA, 3, order, 2, before, answer, unseen, made)
        assert deals == 720
        assert 0 < exact < 1  # the spot is open: the draws decide
        # 400 deals: a standard error of at most 2.5 points; the seed fixes the figure
        assert abs(w.odds[i].mine.get(yaku, 0.0) - exact) < 0.1, (answer, w.odds[i].mine, exact)
        exact_ahead, _ = _exact_late_spot(HIRAYA, 3, order, 2, before, answer, unseen, ahead)
        assert abs(w.odds[i].ahead - exact_ahead) < 0.1, (answer, w.odds[i].ahead, exact_ahead)



# Dare, two players, the field 10 9 8 (key number 7): seat 1 (first to lay down) holds
# 1 1 2 4 5 6 6 8 9 and lays down two sets, keeping three cards hidden; seat 0 (the dealer, last)
# holds 2 3 4 5 5 5 7 8 10, two sets whichever way, keeping a hand worth 5.
def test_dare_the_chance_of_taking_the_pot_at_the_showdown_is_the_share_of_the_hidden_hands_it_beats():
    from .test_dare import V, X, Y, stack

    top = stack({0: X, 1: Y})
    w = _weighed(V, 2, top, Script([]), 0, "sets", 400)
    g = game(V)
    real = play(g, 2, 1, [Script([])] * 2, rounds=1, logging=True, dealer=0, stack={"deck": top})
    laid = next(e["action"]["fam"] for e in real.events if e["t"] == "choose" and e["player"] == 1)
    hand1 = top[0:18:2]  # dealt one at a time from the dealer's right: seat 1 first
    kept = [c for c in hand1 if not any(c in s for s in laid)]
    places = [top.index(c) for c in kept]
    seen = set(top[1:18:2]) | set(top[18:]) | {c for s in laid for c in s}
    unseen = [c for c in g.card_ids if c not in seen]
    assert len(unseen) == 39 - 9 - 3 - 6  # seat 1's three kept cards and the 18 left in the stock

    def same(fam):
        return lambda a: sorted(map(sorted, a["fam"])) == sorted(map(sorted, fam))

    answer = 0
    ahead = alone = tried = agreeing = 0
    for triple in itertools.combinations(unseen, 3):
        deal = list(top)
        for p, c in zip(places, triple):
            deal[p] = c
        script = Script([], {"sets": [same(laid), same(w.actions[answer]["fam"])]})
        tried += 1
        try:
            res = play(g, 2, 1, [script] * 2, rounds=1, logging=True, dealer=0, stack={"deck": deal})
        except AssertionError:
            continue  # seat 1 could not have laid down those sets (or would have called Dare)
        agreeing += 1
        pays = [e for e in res.events if e["t"] == "pay" and e["to"] == 0]  # the antes are paid before
        ahead += bool(pays)
        alone += any(e["why"] == "the best showdown hand, worth 5" for e in pays)
    exact, exact_alone = ahead / agreeing, alone / agreeing
    assert tried == 1330 and 0 < agreeing < tried and 0 < exact_alone < exact < 1
    o = w.odds[answer]
    # 400 deals: a standard error of at most 2.5 points; the seed fixes the figure. Ahead of where
    # the question found it (the antes paid): the pot taken or shared
    assert abs(o.ahead - exact) < 0.1, (o.ahead, exact, agreeing)
    assert abs(o.won.get("the best showdown hand, worth 5", 0.0) - exact_alone) < 0.1, (o.won, exact_alone)


# Kakkuri, seven players, seat 0 deals and holds Dragon of Clubs and Two of Coins (the two wild
# cards), Maid of Cups (10), Horse of Swords and Horse of Cups (11) and Five of Swords; the box
# turns King of Swords, then King of Cups (12: any card may follow). Seat 0 plays both wilds, the
# 10 and the Horse of Swords; nobody can follow an 11 (no wild and no King unseen outside the
# box: the two Kings left must be in the box), so all six pass and seat 0 turns the King of Cups.
# Its question: the Horse of Cups or the Five. After the Horse the others must pass again and seat
# 0 turns the next box card: the Five goes out on a 4 or a King, else seat 0 pays for a turn
# without a card.
KAKKURI = "mekurifuda/kakkuri.yaml"


def _kakkuri_spot():
    from .test_kakkuri import Plan, cards, deal_top, ids, kk
    g = kk()
    hand, box = ids("c1 o2 u10 s11 u11 s5"), ids("s12 u12 c12 o12")
    top, _, full_box = deal_top(g, {0: hand}, box=box)
    before = [cards("c1"), cards("o2"), cards("u10"), cards("s11")]
    return g, top, hand, full_box, before, Plan, cards, ids, deal_top


def _exact_kakkuri_pass_share() -> tuple[float, int]:
    """The chance that seat 0, playing the Horse of Cups, pays for a turn without a card: every
    card it cannot see stacked in turn as the box's third card and the round played; each weighed
    by how many deals of the other unseen cards agree with what seat 0 saw (the two Kings left in
    the box, and no hand holding all three Utazu cards, else the round had ended at the deal)."""
    from math import factorial
    g, _, hand, _, before, Plan, cards, ids, deal_top = _kakkuri_spot()
    seen = set(hand) | set(ids("s12 u12"))
    kings = set(ids("c12 o12"))
    utazu = set(ids("s1 u1 o1"))
    unseen = [c for c in g.card_ids if c not in seen]
    assert len(unseen) == 40
    weight_sum = passed = 0
    for c in unseen:
        left = kings - {c}  # Kings that must fill the box's last three places
        places = 3 * 2 if len(left) == 2 else 3
        rest = 39 - len(left)  # the others fill the other places: 36 in hands, 3 - len(left) in the box
        # arrangements with all three Utazu cards in one hand: the hand, their places in it, the rest
        bad = 0 if c in utazu else 6 * (6 * 5 * 4) * factorial(rest - 3)
        weight = places * (factorial(rest) - bad)
        box = ids("s12 u12") + [c] + sorted(left) + [x for x in unseen if x != c and x not in kings][:3 - len(left)]
        top, _, _ = deal_top(g, {0: hand}, box=box)
        plan = Plan({("play", 0): [*before, cards("u11")]})
        res = play(g, 7, 1, [plan] * 7, rounds=1, logging=True, dealer=0, stack={"deck": top})
        after = res.events[next(i for i, e in enumerate(res.events)
                                if e["t"] == "choose" and e["action"].get("cards") == ids("u11")):]
        weight_sum += weight
        passed += weight * any(e["t"] == "pay" and e["from"] == 0 and e["why"] == "pass" for e in after)
    return passed / weight_sum, len(unseen)


def test_kakkuri_the_chance_of_a_turn_without_a_card_is_the_weighed_share_of_box_cards_that_do_not_fit():
    g, top, hand, _, before, Plan, cards, ids, _ = _kakkuri_spot()

    class Fifth(Weigh):
        plays = 0

        def act(self, d):
            if d.player == 0 and d.choice.id == "play" and len(d.legal) > 1:
                self.plays += 1
                if self.plays < 5:
                    self.st.at_decision(d)
                    return self.script.act(d)
            return super().act(d)

    w = Fifth(Plan({("play", 0): [*before, cards("u11")]}), 0, "play", 400)
    play(g, 7, 1, [w] * 7, rounds=1, logging=True, dealer=0, stack={"deck": top})
    assert w.odds and all(o.deals == 400 for o in w.odds)
    horse = next(i for i, a in enumerate(w.actions) if a["cards"] == ids("u11"))
    exact, cards_tried = _exact_kakkuri_pass_share()
    assert cards_tried == 40
    # the Five goes out on any of the two Kings (half the deals) or the four 4s: a little over half
    assert 0.4 < exact < 0.5, exact
    # 400 deals: a standard error of 2.5 points; the seed fixes the figure
    assert abs(w.odds[horse].lost.get("pass", 0.0) - exact) < 0.1, (w.odds[horse].lost, exact)
