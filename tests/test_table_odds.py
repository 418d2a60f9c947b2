"""The odds on request: for each answer, what the rules make likely, from deals of the cards the
seat cannot see (rulekit.engine.odds.answer_odds, the h key at the table). Checked on stacked
decks against the exact count, worked out by playing every card that could come."""
from __future__ import annotations

import io

import pytest

from rulekit.engine.odds import answer_odds
from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import DrawTo, game
from rulekit.people.table import Screen, Table

from .watching import Watching

OTO = "hanafuda/otoroku.yaml"
# seat 1 (the first bettor) holds Geese (8) face down and a Plum (2) face up: 10; seat 2 and the
# dealer (seat 0) hold one card each, unseen
TOP = ["8-1", "4-3", "6-3", "2-1"]


class _Weigh(Watching, DrawTo):
    """Seat 1's first question weighed (as the table's h does) before its answer: stand."""

    def __init__(self, deals: int):
        super().__init__({1: 2, 2: 2, 0: 2})
        self.deals, self.odds, self.actions = deals, None, None

    def act(self, d):
        self.st.at_decision(d)
        if d.player == 1 and self.odds is None:
            self.odds = answer_odds(self.st, deals=self.deals, seed=7)
            self.actions = d.legal
        return super().act(d)


def _exact_buta_share() -> tuple[float, int]:
    """Of the cards seat 1 cannot see, the share that puts it over the limit when it takes one:
    every such card stacked as its next card and the round played."""
    g = game(OTO)
    buta = 0
    tried = 0
    mine = [TOP[0], TOP[3]]
    for c in g.card_ids:
        if c in mine:
            continue
        # any card seat 1 has not seen may come next (the others' face-down cards are unseen too)
        others = [x for x in g.card_ids if x not in mine and x != c][:2]
        top = [mine[0], *others, mine[1], c]
        script = DrawTo({1: 3, 2: 2, 0: 2})
        res = play(g, 3, 1, [script] * 3, rounds=1, logging=True, dealer=0, stack={"deck": top})
        tried += 1
        buta += any(e["t"] == "pay" and e["from"] == 1 and e.get("why") == "buta" for e in res.events)
    return buta / tried, tried


def test_the_chance_of_buta_when_you_take_a_card_is_the_share_of_cards_that_bust_you():
    g = game(OTO)
    agent = _Weigh(deals=400)
    play(g, 3, 1, [agent] * 3, rounds=1, logging=True, dealer=0, stack={"deck": TOP})
    assert agent.odds, "no deal agreed with what seat 1 saw"
    take = next(i for i, a in enumerate(agent.actions) if a["hit"])
    o = agent.odds[take]
    assert o.deals == 400
    exact, cards = _exact_buta_share()
    assert cards == len(game(OTO).card_ids) - 2  # every card but seat 1's two
    # 400 deals: a standard error of at most 2.5 points; the seed fixes the figure
    assert abs(o.lost.get("buta", 0.0) - exact) < 0.1, (o.lost, exact)
    stand = agent.odds[1 - take]
    assert "buta" not in stand.lost  # standing on 10 never goes over


def test_h_at_the_table_shows_each_answer_with_its_chances_in_per_cent():
    g = game(OTO)
    out = io.StringIO()
    table = Table(g, 3, 1, Screen(io.StringIO("h\n2\n" + "1\n" * 50), out), pause=False)
    play(g, 3, 1, make_agents(g, 3, 1, "careful", human=1, human_agent=table), rounds=1, dealer=0,
         observe=table.observe, stack={"deck": TOP})
    text = out.getvalue()
    block = text.split("What each answer makes likely, over ", 1)[1].split("Your turn", 1)[0]
    # how many deals, and how far a share may be off from that many (19 times in 20)
    # two answers: 80 deals (MOST), drawn apart here (many re-deals agree with what seat 1 saw)
    assert block.startswith("80 deals of the cards you cannot see")
    assert "a share may be off by about 11 points" in block.splitlines()[0]
    lines = block.splitlines()[1:]
    answers = [ln for ln in lines if ln.startswith("  ") and not ln.startswith("    ") and "chips on average" in ln]
    # numbered as the menu numbers them, each with what the rules name on the line below
    assert [ln.split(":")[0].strip() for ln in answers] == ["1) take another card", "2) stand"]
    below = lines[lines.index(answers[0]) + 1]
    assert below.startswith("    ") and "payments by you: Buta" in below.lower().replace("buta", "Buta")
    assert below.endswith("%.")
    assert "chips on average" in answers[1]


def test_the_odds_of_feeding_a_yaku_in_a_capture_game():
    """Hiraya, the stacked spot of test_table_threats: seat 0 weighs its second play. Leaving the
    Cherry poetry ribbon on the table gives seat 1 (Pine and Plum poetry ribbons taken) Poetry
    Ribbons far more often than any other play does."""
    from .hanafuda_stack import HIRAYA, cached_game, deal_top
    from .test_table_threats import FIELD, HANDS, PILE

    class Weigh(Watching):
        name = "weigh"

        def __init__(self):
            from rulekit.engine.agents import PolicyAgent
            self.base, self.plays, self.odds = PolicyAgent("careful", 1), 0, None

        def act(self, d):
            self.st.at_decision(d)
            if d.player == 0 and d.choice.id == "play":
                self.plays += 1
                if self.plays == 2:
                    self.odds, self.actions = answer_odds(self.st, deals=60, seed=3), d.legal
            return self.base.act(d)

    g = cached_game(HIRAYA)
    w = Weigh()
    # a plain stack: the sampler replays the round from its deal (a once-only stack would not deal it again)
    play(g, 3, 1, [w] * 3, rounds=1, logging=True, dealer=0, stack={"deck": deal_top(HANDS, FIELD, PILE)})
    assert w.odds and len(w.odds) == len(w.actions)
    poetry = ("dekiyaku", "poetry-ribbons")
    feeding = next(i for i, a in enumerate(w.actions) if a["card"] == "3-2")
    others = [o.theirs.get(poetry, 0.0) for i, o in enumerate(w.odds) if i != feeding]
    assert w.odds[feeding].theirs.get(poetry, 0.0) > 0.3 + max(others), (w.odds[feeding].theirs, others)


# Dare under its usual rules asks nothing (every way of laying down keeps the same value): with the
# high-card tie-break the cards kept count, and the question is asked
@pytest.mark.parametrize("rel,n,seed,options", [("kabufuda/dare.yaml", 4, 1, {"tie_break": "high_card"}),
                                                ("mekurifuda/kakkuri.yaml", 7, 2, {}),
                                                ("kabufuda/kyo-kabu.yaml", 5, 2, {}), ("hanafuda/hiraya.yaml", 3, 2, {}),
                                                ("hanafuda/otoroku.yaml", 3, 3, {})])
def test_h_gives_chances_in_per_cent_for_each_answer_in_every_seed_game(rel, n, seed, options):
    g = game(rel, options)
    out = io.StringIO()
    # every question asked, Kakkuri's blind exchange too (--ask-all): a round may have no other
    table = Table(g, n, 1, Screen(io.StringIO("h\n1\n" * 3000), out), pause=False, ask_all=True)
    res = play(g, n, seed, make_agents(g, n, seed, "careful", human=1, human_agent=table), rounds=1, dealer=0,
               observe=table.observe)
    table.finish(res.chips, 1)
    text = out.getvalue()
    blocks = text.split("What each answer makes likely, over ")[1:]
    assert blocks, text
    for block in blocks:
        head, _, rest = block.partition("\n")
        deals = int(head.split(" ", 1)[0])
        assert 10 <= deals <= 80
        lines = rest.splitlines()
        lines = lines[:next((k for k, ln in enumerate(lines) if not ln.startswith("  ")), len(lines))]
        answers = [ln for ln in lines if not ln.startswith("    ") and not ln.startswith("  Each answer is weighed")
                   and not ln.startswith("  Their chances of coming out ahead")]
        assert answers and all("chips on average (ahead " in ln and "%" in ln for ln in answers), answers
        # no more lines than a screen of 40 holds with the question below it
        assert len(lines) <= 24, lines


def test_h_in_kakkuri_gives_the_exact_chance_of_a_turn_without_a_card_within_its_stated_margin():
    """The stacked Kakkuri spot of test_table_odds_exact, played at the table by seat 0: h's
    per-cent figure for the Horse of Cups against the exact count, within the margin h states."""
    from .test_table_odds_exact import _exact_kakkuri_pass_share, _kakkuri_spot
    g, top, *_ = _kakkuri_spot()
    out = io.StringIO()
    # the two wilds, the Maid (the Horses on a 10 are alike: played for you), then h at the King
    table = Table(g, 7, 0, Screen(io.StringIO("1\n1\n2\nh\n2\n" + "1\n" * 50), out), pause=False)
    play(g, 7, 1, make_agents(g, 7, 1, "careful", human=0, human_agent=table), rounds=1, dealer=0,
         observe=table.observe, stack={"deck": top})
    block = out.getvalue().split("What each answer makes likely, over ", 1)[1].split("Your turn", 1)[0]
    lines = block.splitlines()
    margin = int(lines[0].split("off by about ", 1)[1].split(" points", 1)[0])
    horse = next(k for k, ln in enumerate(lines) if ln.startswith("  2) play Horse of Cups (11): "))
    below = lines[horse + 1]
    shown = int(below.split("played no card this turn ", 1)[1].split("%", 1)[0])
    exact, _ = _exact_kakkuri_pass_share()
    assert abs(shown - 100 * exact) <= margin, (below, exact, margin)


def test_h_says_when_the_answers_differ_by_less_than_chance_could_make():
    """Kakkuri's blind exchange (no card seen; asked at a table set to ask everything): keeping and
    exchanging are alike to the seat, and h says their difference is within what chance could make,
    instead of letting noise read as advice."""
    g = game("mekurifuda/kakkuri.yaml")
    out = io.StringIO()
    table = Table(g, 7, 1, Screen(io.StringIO("h\n1\n" + "1\n" * 200), out), pause=False, ask_all=True)
    play(g, 7, 3, make_agents(g, 7, 3, "careful", human=1, human_agent=table), rounds=1, dealer=0,
         observe=table.observe)
    block = out.getvalue().split("What each answer makes likely, over ", 1)[1].split("Your turn", 1)[0]
    assert "1) keep the hand: " in block and "2) exchange hands with the dealer: " in block
    assert "Their chances of coming out ahead differ by less than that: chance alone could make" in block
    # where one answer is plainly apart (passing is never ahead), it is not said
    g = game("kabufuda/kyo-kabu.yaml")
    out = io.StringIO()
    table = Table(g, 5, 1, Screen(io.StringIO("h\n" + "1\n" * 200), out), pause=False)
    play(g, 5, 2, make_agents(g, 5, 2, "careful", human=1, human_agent=table), rounds=1, dealer=0,
         observe=table.observe)
    block = out.getvalue().split("What each answer makes likely, over ", 1)[1].split("Your turn", 1)[0]
    assert "5) pass: +0.0 chips on average (ahead 0%, behind 0%)." in block
    assert "Their chances of coming out ahead" not in block


def test_the_same_odds_through_the_api_for_bots_and_analysts():
    """Env.odds: one AnswerOdds per legal action, in their order, fixed by the seed, leaving the
    game where it was."""
    from rulekit import Env
    env = Env("kyo-kabu", seed=3)
    careful = [env.bot("careful", s) for s in range(env.players)]
    while not env.done and env.pending.choice != "third_card":
        env.step(careful[env.current_player].act(env))
    seat, before = env.current_player, env.observation(env.current_player)
    odds = env.odds(deals=30, seed=1)
    assert [o.action for o in odds] == list(range(len(env.legal_actions()))) and all(o.deals == 30 for o in odds)
    assert all(0 <= o.ahead + o.behind <= 1 for o in odds)
    assert env.odds(deals=30, seed=1) == odds and env.observation(seat) == before
    assert env.odds(deals=30, seed=2) != odds  # another seed, other deals
    while not env.done:
        env.step(careful[env.current_player].act(env))
    with pytest.raises(RuntimeError, match="the game is over"):
        env.odds()
