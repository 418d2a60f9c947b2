"""Three general primitives a player meets at the table: `display.sort` (a hand held in the
game's order), a choice's `alike` (answers the same to a person are one menu entry) and a
`say` step's `you`/`about` (a line about your own seat told as you read it)."""
from __future__ import annotations

import io
import re

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table

KAKKURI = "mekurifuda/kakkuri.yaml"


def _kakkuri(seed: int, human: int = 3, rounds: int = 2) -> tuple[str, list]:
    """A 7-player game told at seat `human`, who always answers 1; the play decisions seen."""
    g = game(KAKKURI)
    out = io.StringIO()
    table = Table(g, 7, human, Screen(io.StringIO("1\n" * 3000), out), pause=False)
    table.nar.rounds = rounds
    seen: list = []

    def checks(ctx, choice, player, actions):
        if player == human and choice.id == "play":
            seen.append((list(ctx.zones["hand"][human]), [list(a[0]) for a in actions],
                         [choice.alike_keys(ctx, a) for a in actions]))
    res = play(g, 7, seed, make_agents(g, 7, seed, "careful", human=human, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe, checks=checks)
    table.finish(res.chips, rounds)
    return out.getvalue(), seen


def test_display_sort_holds_your_hand_by_rank_not_by_suit():
    g = game(KAKKURI)
    rank = {g.card_name(i): g.deck.cards[i].attrs["rank"] for i in range(len(g.card_ids))}
    deck_order = {g.card_name(i): i for i in range(len(g.card_ids))}
    unsorted_in_deck_order = 0
    for seed in (1, 2, 3, 4):
        text, _ = _kakkuri(seed)
        for line in re.findall(r"^  You see (.+) — your hand\.$", text, re.M):
            names = re.split(r", | and ", re.sub(r" \([^)]*\)", "", line))
            assert [rank[n] for n in names] == sorted(rank[n] for n in names), line
            unsorted_in_deck_order += sorted(names, key=deck_order.__getitem__) != names
    # deck order (by suit) would have told these hands otherwise: the rule is what sorted them
    assert unsorted_in_deck_order > 0


def test_alike_plays_are_one_menu_entry_and_the_card_offered_is_the_card_played():
    merged = 0
    for seed in (44, 46, 5, 8):
        text, seen = _kakkuri(seed)
        blocks = text.split("Your turn: Play a card")[1:]
        for block in blocks:
            menu = re.findall(r"^  \d+\) play (.+?)(?: \([^)]*\))? — ", block.split("Your choice")[0], re.M)
            names = [re.findall(r"(\w+) of", m) for m in menu]
            # no two entries of the same plain rank (wild cards are told apart by '(n, wild)')
            plain = [tuple(n) for n, m in zip(names, re.findall(r"^  \d+\) play (.+) — ", block.split("Your choice")[0],
                                                                 re.M)) if "wild" not in m]
            assert len(plain) == len(set(plain)), block[:600]
            if "The suit makes no difference." in block.split("\n  1)")[0]:
                merged += 1
            chose = re.search(r"^  You choose: play (.+?)\.$", block, re.M)
            first = re.search(r"^  1\) play (.+?) — ", block, re.M)
            if chose and first:  # the answer is always 1: the card offered first is the card played
                assert chose.group(1) == first.group(1), block[:600]
        # where plays were alike the keys agree: the same rank (or the same wild card)
        for _hand, actions, keys in seen:
            for a, k in zip(actions, keys):
                assert len(k["cards"]) == len(a)
    assert merged > 0


def test_say_you_tells_your_own_win_as_you_read_it_and_others_in_the_third_person():
    wins_you = wins_other = 0
    for seed in range(1, 9):
        text, _ = _kakkuri(seed, human=0, rounds=1)
        you = re.findall(r"^  You have no cards left and win the round\.$", text, re.M)
        other = re.findall(r"^  Seat (\d) has no cards left and wins the round\.$", text, re.M)
        assert len(you) + len(other) == 1, text[-800:]
        assert "Seat 0 has no cards left" not in text
        wins_you += len(you)
        wins_other += len(other)
    assert wins_you and wins_other
    # the transcript for nobody in particular keeps the third person
    g = game(KAKKURI)
    res = play(g, 7, 2, make_agents(g, 7, 2, "careful"), rounds=1, logging=True)
    says = [e for e in res.events if e.get("t") == "say" and "no cards left" in e["text"]]
    assert len(says) == 1 and says[0]["text"].startswith("Seat ") and says[0]["you"].startswith("You ")
    assert says[0]["about"] == int(says[0]["text"].split()[1])


def test_eight_players_say_who_sits_out_and_the_table_marks_them():
    g = game(KAKKURI)
    out = io.StringIO()
    table = Table(g, 8, 0, Screen(io.StringIO("1\n" * 3000), out), pause=False)
    table.nar.rounds = 1
    res = play(g, 8, 45, make_agents(g, 8, 45, "careful", human=0, human_agent=table), rounds=1, dealer=0,
               observe=table.observe, logging=True)
    table.finish(res.chips, 1)
    text = out.getvalue()
    dropped = next(e["player"] for e in res.events if e.get("t") == "record" and e.get("name") == "dropout")
    assert f"Seat {dropped} was dealt the drop-out card and sits out this round" in text
    assert f"Seat {dropped} sits out this round (dealt the drop-out card)." in text


def _broken(tmp_path, old: str, new: str):
    from .conftest import broken_copy
    return broken_copy(tmp_path, KAKKURI, old, new)


def test_alike_on_an_unknown_parameter_is_a_located_error(tmp_path):
    p, errs = _broken(tmp_path, "            alike:\n              cards:", "            alike:\n              card:")
    (d,) = errs
    assert d.code == "E040" and "alike: 'card' is not a parameter of this choice" in d.message
    assert "did you mean 'cards'" in d.hint
    line = p.read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert line[d.span.col - 1:].startswith("card:")


def test_say_you_without_about_is_a_located_error(tmp_path):
    p, errs = _broken(tmp_path, "                    about: p\n", "")
    (d,) = errs
    assert d.code == "E010" and "give both 'you'" in d.message
    line = p.read_text(encoding="utf-8").splitlines()[d.span.line - 1]
    assert "You have no cards left" in line


def test_kyo_kabu_third_card_menu_says_a_third_card_of_the_column_value_makes_sorokabu():
    g = game("kabufuda/kyo-kabu.yaml")

    def menu(hole: str) -> str:
        out = io.StringIO()
        # you (seat 1) stake 1 on column 3 (the 7); its hidden card is `hole`; the other seat passes
        table = Table(g, 2, 1, Screen(io.StringIO("3\n1\n1\n\n" * 5), out), pause=False)
        table.nar.rounds = 1
        res = play(g, 2, 1, make_agents(g, 2, 1, "careful", human=1, human_agent=table), rounds=1, dealer=0,
                   observe=table.observe, stack={"deck": ["2-1", "1-1", "1-2", hole, "1-3", "7-2", "2-2"]})
        table.finish(res.chips, 1)
        return out.getvalue().split("Your turn: Take a third card")[1].split("Your choice")[0]
    # Seven and Seven (worth 4: the choice is free): the third Seven would make Sorokabu
    assert "1) take a third card — a third Seven would make three of a kind (Sorokabu), paid double" in menu("7-1")
    # Seven and Eight (worth 5): nothing special can come of it
    assert "Sorokabu" not in menu("8-1")


def test_dare_ways_that_keep_cards_of_the_same_values_are_not_asked_and_say_why():
    from .test_dare import W, stack
    from .test_table_menus import TWINS
    from rulekit.engine.agents import FirstLegalAgent

    def told(options: dict) -> str:
        g = game("kabufuda/dare.yaml", options)
        out = io.StringIO()
        table = Table(g, 2, 1, Screen(io.StringIO("1\n"), out), pause=False)
        res = play(g, 2, 1, [FirstLegalAgent(), table], rounds=1, dealer=0, stack={"deck": stack({1: TWINS, 0: W})},
                   observe=table.observe)
        table.finish(res.chips, 1)
        return out.getvalue()
    # both ways keep Four, Four and Seven by value (one keeps the Gold Four): one answer, no question
    text = told({})
    assert "Your turn: " not in text
    assert "  You lay down One, One and Five; Gold Four (Kin-shi), Six and Seven, your only choice (ways that " \
           "come to the same for you count as one).\n" in text
    assert "Your turn: " not in told({"showdown_yaku": "arashi"})


def test_dare_first_screen_says_every_way_keeps_the_same_value_only_when_it_does(tmp_path):
    import os
    import subprocess
    import sys
    from .conftest import ROOT

    def first_screen(*extra: str) -> str:
        env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "NO_COLOR": "1"}
        r = subprocess.run([sys.executable, "-m", "rulekit", "play", "dare", "--seed", "8", "--players", "3",
                            "--rounds", "1", "--human", "2", *extra], input="1\n" * 20, capture_output=True,
                           text=True, cwd=ROOT, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout.split("Round 1 of 1")[0]
    said = "Every way of laying down two sets keeps a hand of the same value"
    assert said in first_screen()
    # the high-card tie-break: the cards kept count beyond their value, and nothing of the kind is said
    assert said not in first_screen("-o", "tie_break=high_card")


def test_dare_a_seat_with_fewer_than_two_sets_is_told_out_at_once():
    told = 0
    for seed in range(1, 7):
        g = game("kabufuda/dare.yaml")
        out = io.StringIO()
        table = Table(g, 4, 1, Screen(io.StringIO("1\n" * 100), out), pause=False)
        table.nar.rounds = 3
        res = play(g, 4, seed, make_agents(g, 4, seed, "careful", human=1, human_agent=table), rounds=3, dealer=0,
                   observe=table.observe, logging=True)
        table.finish(res.chips, 3)
        text = out.getvalue()
        outs = [e["player"] for e in res.events if e["t"] == "choose" and e["choice"] == "sets"
                and len(e["action"]["fam"]) < 2]
        for p in outs:
            line = ("You are out of this round: " if p == 1 else f"Seat {p} is out of this round: ")
            assert line in text, (p, text[:2000])
            told += 1
    assert told


def test_equal_chips_share_a_place_in_the_standings():
    from rulekit.people.narrate import Narrator
    g = game("kabufuda/dare.yaml")
    nar = Narrator(g, 4, 1)
    nar.chips = [3, 0, 0, -3]
    ranks = [ln.text.split(".")[0] for ln in nar.standings() if ln.kind == "standings"]
    assert ranks == ["1", "2", "2", "4"]


def test_kyo_kabu_opponents_at_the_table_vary_their_stakes_within_the_limit(tmp_path):
    import os
    import subprocess
    import sys
    from .conftest import ROOT
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "rulekit", "play", "kyo-kabu", "--seed", "21", "--rounds", "6",
                        "--human", "1", "--verbose"], input="5\n" * 300, capture_output=True, text=True, cwd=ROOT,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Your opponents play as people at a table do: " in r.stdout.split("Round 1")[0]
    stakes = re.findall(r"^  Seat \d chooses: column (\d) \(the \d\), (\d+) chips?\.$", r.stdout, re.M)
    assert len({a for _, a in stakes}) > 1 and len({c for c, _ in stakes}) == 4
    for rnd in r.stdout.split("\nRound ")[1:]:
        staked = sum(int(a) for _, a in re.findall(r"^  Seat \d chooses: column (\d) \(the \d\), (\d+) chips?\.$",
                                                   rnd, re.M))
        assert staked <= 10  # the table maximum
    # simulations keep the careful policy as their default
    from rulekit.engine.runner import default_policy
    assert default_policy(game("kabufuda/kyo-kabu.yaml")) == "careful"


def test_rules_key_at_the_table_states_the_rules_in_play_without_other_house_rules():
    for options, want in (({}, "A hand given up this way may be taken on by a later player."),
                          ({"swap_rules": "once"}, "at most once; the dealer never starts an exchange.")):
        g = game(KAKKURI, options)
        out = io.StringIO()
        # the exchange is blind, so asked only at a table that asks everything (--ask-all)
        table = Table(g, 7, 3, Screen(io.StringIO("?\n1\n" + "1\n" * 400), out), pause=False, ask_all=True)
        table.nar.rounds = 1
        res = play(g, 7, 5, make_agents(g, 7, 5, "careful", human=3, human_agent=table), rounds=1, dealer=0,
                   observe=table.observe)
        table.finish(res.chips, 1)
        rules = out.getvalue().split("Rules: Hand exchanges with the dealer")[1].split("Your turn")[0]
        assert want in rules, rules
        assert "house rule" not in rules


def test_your_forced_answer_says_why_before_what_followed_from_it():
    text = "\n".join(_told_kyo(seed) for seed in range(1, 7))
    forced = re.findall(r"^  You take a third card(.*)$", text, re.M)
    assert forced
    for rest in forced:
        # 'You take a third card (your only choice: ...); Six goes ...', never the reason after the card
        assert rest.startswith(" (your only choice: a hand worth 3 or less must take a third card); "), rest


def _told_kyo(seed: int) -> str:
    from tests.test_table_columns_and_pager import _told
    return _told("kabufuda/kyo-kabu.yaml", 5, seed, 2, "4\n1\n", rounds=6)


def test_a_policys_brief_is_its_first_screen_words_and_follows_the_options(tmp_path):
    """`brief` on a policy is what the first screen says of the opponents; without one, the
    description; a brief's {expression} parts read the options in play."""
    from rulekit.cli.play import opponents_words
    from rulekit.engine.testing import game
    g = game("hanafuda/otoroku.yaml")
    assert g.policies["careful"]["brief"].startswith("they draw while their cards total 9 or less")
    assert opponents_words(g, "careful") == "Your opponents play carefully: " + g.policies["careful"]["brief"] + "."
    h = game("hanafuda/hiraya.yaml")
    assert "brief" not in h.policies["careful"] or not h.policies["careful"]["brief"]
    assert opponents_words(h, "careful") == "Your opponents play carefully. " + h.policies["careful"]["description"]
    # an expression in a brief: the words for the options in play
    import yaml
    from .conftest import ROOT
    import os
    src = yaml.safe_load(open(os.path.join(ROOT, "variants/hanafuda/otoroku.yaml"), encoding="utf-8"))
    src["policies"]["careful"]["brief"] = "they name {opt.share} {if opt.share == 1 then 'stone' else 'stones'} as the share"
    src["id"] = "otoroku-brief"
    f = tmp_path / "otoroku-brief.yaml"
    f.write_text(yaml.safe_dump(src, allow_unicode=True), encoding="utf-8")
    from rulekit.engine.build import build_game, load_variant
    two = build_game(load_variant(str(f)), {"share": "2"})
    assert two.policies["careful"]["brief"] == "they name 2 stones as the share"


def test_dare_ways_that_leave_you_out_are_alike_and_not_asked():
    """With one set only you are out of the round whichever you lay down: no question (the menu
    offered ways that all said 'this leaves you out of the round')."""
    from tests.test_table_columns_and_pager import _told
    for seed in range(1, 9):
        text = _told("kabufuda/dare.yaml", 4, seed, 1, "1\n", rounds=6)
        for menu in re.findall(r"^Your turn: Choose the sets.*\n((?:  .*\n)+)Your choice", text, re.M):
            entries = re.findall(r"^  \d+\) .*$", menu, re.M)
            assert not all("one set only" in e for e in entries), menu


def test_dare_under_its_usual_rules_lays_down_for_you_ways_that_keep_different_cards_of_one_value():
    """One, One, Three, Four, Five, Seven, Eight, Eight, Ten to the key 7: laying down One, Eight, Eight
    keeps One, Five, Seven and One, One, Five keeps Seven, Eight, Eight, both showing 3. Under the
    usual rules that is no choice: not asked, told with why; with the high-card tie-break the cards
    kept count and the question is asked."""
    from .test_dare import W, stack
    from rulekit.engine.agents import FirstLegalAgent

    def told(options: dict) -> tuple[str, list]:
        g = game("kabufuda/dare.yaml", options)
        out = io.StringIO()
        table = Table(g, 2, 1, Screen(io.StringIO("2\n"), out), pause=False)
        res = play(g, 2, 1, [FirstLegalAgent(), table], rounds=1, dealer=0, logging=True,
                   stack={"deck": stack({1: [1, 1, 3, 4, 5, 7, 8, 8, 10], 0: W}, field=[2, 9, 6])},
                   observe=table.observe)
        table.finish(res.chips, 1)
        return out.getvalue(), [e for e in res.events if e["t"] == "choose" and e["player"] == 1]
    text, (mine,) = told({})
    assert "Your turn: " not in text and "Every choice keeps" not in text
    assert mine["of"] >= 2 and mine["index"] == 0  # several ways, the first laid down for you
    assert re.search(r"^  You lay down [^\n]+, your only choice \(ways that come to the same for you count as "
                     r"one\)\.$", text, re.M), text
    assert re.search(r"^ +Your hand: .* — shows 3\.$", text, re.M), text
    text, (mine,) = told({"tie_break": "high_card"})
    assert "Your turn: Choose the sets of three to lay down" in text
    assert "Every choice keeps a hand that shows 3" in text and mine["index"] == 1  # '2' typed: the second way


def test_dare_a_round_without_a_question_still_names_the_field_it_was_played_to():
    """Told short (a table that pauses, nothing asked): the field and its key number are said
    before your lay-down, as the table drawn with a question would have shown them."""
    from .test_dare import W, stack
    from rulekit.engine.agents import FirstLegalAgent
    g = game("kabufuda/dare.yaml")
    out = io.StringIO()
    table = Table(g, 2, 1, Screen(io.StringIO("\n" * 20), out), pause=True)
    res = play(g, 2, 1, [FirstLegalAgent(), table], rounds=1, dealer=0,
               stack={"deck": stack({1: [1, 1, 3, 4, 5, 7, 8, 8, 10], 0: W}, field=[2, 9, 6])}, observe=table.observe)
    table.finish(res.chips, 1)
    text = out.getvalue()
    assert "Your turn: " not in text
    field = text.index("  Two, Nine and Six go from the deck to the field face up: the field now shows 7.")
    assert field < text.index("  You lay down ")
