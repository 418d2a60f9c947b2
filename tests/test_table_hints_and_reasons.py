"""The table's menus and reasons: what each choice leads to in the menu (`hints`), who deals
next and why, payment reasons in hand names, and a readable showdown."""
from __future__ import annotations

import io
import re

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table


def _menus(text: str) -> list[list[str]]:
    """The entries of every menu shown: '  1) ...' lines after 'Your turn'."""
    return [re.findall(r"^  \d+\) (.*)$", part.split("Your choice")[0], re.M)
            for part in text.split("Your turn: ")[1:]]


def test_hiraya_menu_says_what_each_card_takes():
    g = game("hanafuda/hiraya.yaml")
    out = io.StringIO()
    table = Table(g, 3, 1, Screen(io.StringIO("1\n" * 200), out), pause=False)
    wild = g.card_index["11-4"]
    seen: list[tuple[list[int], list[int]]] = []  # (field, hand) at each of the human's card plays

    def checks(ctx, choice, player, actions):
        if player == 1 and choice.id == "play":
            seen.append((list(ctx.zones["field"]), [a[0] for a in actions]))
    agents = make_agents(g, 3, 11, "careful", human=1, human_agent=table)
    play(g, 3, 11, agents, rounds=2, dealer=0, observe=table.observe, checks=checks)
    menus = [m for m in _menus(out.getvalue()) if m and m[0].startswith("play ")]
    assert len(menus) == len(seen) and len(seen) >= 10
    months = lambda c: g.deck.cards[c].attrs["month"]  # noqa: E731
    takes_told = 0
    order = table.nar.name_order()
    for menu, (field, hand) in zip(menus, seen):
        assert len(menu) == len(hand)
        # the menu offers your cards in deck order, as your hand is shown
        for entry, c in zip(menu, sorted(hand, key=lambda c: order[g.card_ids[c]])):
            name = g.card_name(c)  # a name with brackets of its own takes the value inside them
            assert entry.startswith(f"play {name[:-1] + ';' if name.endswith(')') else name}"), entry
            hint = entry.split(" — ")[-1]
            same = [f for f in field if months(f) == months(c)]
            if c == wild:
                assert hint == ("wild: takes any one table card" if field else "nothing to take")
            elif same:
                takes_told += 1
                assert hint.startswith("takes "), entry
                assert all(g.card_name(f) in hint for f in same), entry
                others = [f for f in field if f not in same and g.card_name(f) not in [g.card_name(x) for x in same]]
                assert not any(g.card_name(f) in hint for f in others if f != wild), entry
            elif wild in field:
                assert hint == "must take the Lightning", entry
            else:
                assert hint == "nothing to take", entry
    assert takes_told > 0


def test_otoroku_dealers_choice_names_each_bettor_and_what_they_show():
    from .test_otoroku import oto
    asked: list[str] = []

    def checks(ctx, choice, player, actions):
        if choice.id == "contest":
            asked.append(choice.words(ctx)[0])
    o = oto([["7-1", "8-1"], ["5-1", "7-2"]], ["10-1", "3-1"],
            by_choice={"contest": [{"fight": False}, {"fight": True}]}, checks=checks)
    g = o.game
    # seat 1 shows its face-up 8-1 (its face-down 7-1 is not named); seat 2, the last, is then
    # contested without a question (at least one bettor must be)
    assert asked == [f"Contest seat 1, who shows {g.card_name(g.card_index['8-1'])} face up?"]
    said = [e["text"] for e in o.events("say")]
    assert "The dealer chooses to let off seat 1." in said and "The dealer chooses to contest seat 2." in said


def _watched(rel: str, seed: int, rounds: int, options: dict | None = None) -> str:
    """A game told as `rulekit play GAME` tells it to someone watching (careful players)."""
    g = game(rel, options)
    n = g.variant.meta.players_default
    out = io.StringIO()
    table = Table(g, n, None, Screen(io.StringIO(""), out), pause=False)
    table.nar.rounds, table.nar.viewer = rounds, n  # an onlooker, as `rulekit play` without --human
    res = play(g, n, seed, make_agents(g, n, seed, "careful"), rounds=rounds, observe=table.observe)
    table.finish(res.chips, rounds)
    return out.getvalue()


def test_next_dealer_is_told_with_the_rules_reason():
    text = _watched("kabufuda/kyo-kabu.yaml", 3, 3)
    # the reason once; the same dealer again for the same reason next round: not said again
    assert text.count("Next round seat 0 deals again: the dealer keeps the bank all game.") == 1
    assert text.count("Next round seat 0 deals again.") == 1
    text = _watched("kabufuda/kyo-kabu.yaml", 3, 3, {"dealer_rotation": "every_round"})
    assert "Next round seat 1 deals: the bank passes to the right every round." in text
    text = _watched("kabufuda/dare.yaml", 3, 4)
    told = re.findall(r"Next round (?:seat \d+ deals(?: again)?)(.*)", text)
    assert len(told) == 3 and told[0].startswith(": ") and all(t.startswith(": ") or t == "." for t in told)
    assert "the deal stays" not in text and "the deal passes" not in text


def test_payment_reasons_are_players_words():
    text = _watched("hanafuda/otoroku.yaml", 7, 12)
    for raw in ("(buta", "(dealer buta", "bettor wins", "(dealer wins", "tera-zen"):
        assert raw not in text
    assert re.search(r"pays 1 chip to seat \d \(beats the dealer: \d+ against \d+\)", text)
    m = re.search(r"pays 1 chip to seat 0 \(dealer\) \(the dealer's hand is higher: (\d+) against (\d+)\)", text)
    assert m and int(m[1]) > int(m[2])
    assert "(dealer wins tie" not in text
    assert "(Buta, over the limit)" in text
    text = _watched("mekurifuda/kakkuri.yaml", 7, 2)
    assert "(pass)" not in text and "(pot)" not in text
    # a turn without a card is told with the turn, which says why ('passes'): no reason repeated
    assert re.search(r"Seat \d passes and pays 1 chip to the pot\.", text) and "(the winner takes the pot)" in text
    text = _watched("hanafuda/hiraya.yaml", 7, 12)
    assert "(yaku" not in text
    # a yaku's payment names the yaku the paid seat made ('{yaku}' in the variant's reason)
    named = re.findall(r"pays? \d+ chips? to seat \d(?: \([^)]*\))? \((.+), from each opponent\)", text)
    assert named and all("yaku" not in n.lower() for n in named), named


def test_a_long_showdown_is_one_hand_a_line_and_turns_read_as_one_sentence():
    text = _watched("kabufuda/kyo-kabu.yaml", 3, 1)
    show = text.split("Showdown\n", 1)[1].splitlines()
    assert show[0] == "  Shown to everyone:"
    assert [ln.split(":")[0] for ln in show[1:6]] == ["    Column 1", "    Column 2", "    Column 3", "    Column 4",
                                                      "    The dealer's hand"]
    assert all(re.search(r" — shows \d\.$", ln) for ln in show[1:6])
    # a grouped turn goes on in lower case ('...; takes a third card'); the unseen card its answer
    # asked for is not told again, nor the dealer looking at the cards again
    assert re.search(r"^  Seat 0 \(dealer\) looks at 2 cards; takes a third card\.$", text, re.M), text
    assert "takes a third card; a card goes" not in text
    assert not re.search(r"takes a third card\.\n  A card goes from the deck to the dealer's hand", text)
    assert "looks at 3 cards" not in text
    assert not re.search(r"; [A-Z][a-z]* card goes", text)


def test_dare_sets_that_read_the_same_in_another_order_are_one_entry():
    # the high-card tie-break: the cards kept count, so the ways of laying down are asked
    g = game("kabufuda/dare.yaml", {"tie_break": "high_card"})
    out = io.StringIO()
    table = Table(g, 4, 1, Screen(io.StringIO("1\n" * 50), out), pause=False)
    play(g, 4, 4, make_agents(g, 4, 4, "careful", human=1, human_agent=table), rounds=1, dealer=0,
         observe=table.observe)
    menus = [m for m in _menus(out.getvalue()) if m and m[0].startswith("lay down ")]
    assert menus
    for menu in menus:
        # what each entry lays down, as the player reads it: sets of card names, in any order
        read = [frozenset(tuple(sorted(s.split(", ")[:-1] + s.split(", ")[-1].split(" and ")))
                          for s in e.split(" — ")[0][len("lay down "):].split("; ")) for e in menu]
        assert len(read) == len(set(read)), menu


def test_dare_hand_value_is_shown_once_it_is_three_cards():
    # zones.hand.show_when: the nine dealt cards show no value; the three kept cards do
    text = _watched("kabufuda/dare.yaml", 4, 2)
    assert "Your hand" not in text  # watching: every seat is 'Seat N'
    kept = re.findall(r"^    Seat \d's (?:\(dealer's\) )?hand: (.*) — shows (\d)\.$", text, re.M)
    assert len(kept) == 8
    g = game("kabufuda/dare.yaml")
    value = {g.card_name(i): g.deck.cards[i].attrs["value"] for i in range(len(g.card_ids))}
    for cards, shown in kept:
        names = cards.split(", ")[:-1] + cards.split(", ")[-1].split(" and ")
        assert sum(value[n] for n in names) % 10 == int(shown)
    out = io.StringIO()
    g = game("kabufuda/dare.yaml", {"tie_break": "high_card"})  # the cards kept count: the ways are asked
    table = Table(g, 4, 1, Screen(io.StringIO("1\n" * 50), out), pause=False)
    res = play(g, 4, 4, make_agents(g, 4, 4, "careful", human=1, human_agent=table), rounds=1, dealer=0,
               observe=table.observe)
    table.finish(res.chips, 1)
    mine = re.search(r"^  Your hand: (.*)$", out.getvalue(), re.M).group(1)
    assert mine.count(", ") == 7 and "shows" not in mine  # nine cards: no value
    assert re.search(r"keeps [^\n]*, which shows \d|Every choice keeps a hand that shows \d", out.getvalue())
    # zones.sets.show_groups: sets laid down are told three by three
    sets = re.findall(r"(?:'s sets(?: \([^)]*\))?: | lays? down )([^.\n—]*[^.\n— ])", out.getvalue(), re.M)
    assert sets and all(len(t.split("; ")) in (2, 3) and all(" and " in p for p in t.split("; ")) for t in sets)


def test_kakkuri_menu_says_what_could_follow_and_the_table_is_short():
    g = game("mekurifuda/kakkuri.yaml")
    out = io.StringIO()
    table = Table(g, 7, 1, Screen(io.StringIO("1\n" * 300), out), pause=False)
    table.nar.rounds = 3
    hands: list[list[int]] = []  # your hand at each play decision

    def checks(ctx, choice, player, actions):
        # a menu is shown when the plays are not all alike (cards of one rank, the suit no matter)
        if player == 1 and choice.id == "play" and len({str(choice.alike_keys(ctx, a)) for a in actions}) > 1:
            hands.append(list(ctx.zones["hand"][1]))
    play(g, 7, 4, make_agents(g, 7, 4, "careful", human=1, human_agent=table), rounds=3, dealer=0,
         observe=table.observe, checks=checks)
    text = out.getvalue()
    by_name = {g.card_name(i): g.deck.cards[i] for i in range(len(g.card_ids))}
    wild = {n for n, c in by_name.items() if c.attrs.get("role") == "wild"}

    def follows(after: str, card: str) -> bool:
        r = by_name[after].attrs["rank"]
        k = by_name[card].attrs["rank"]
        return card in wild or r == 12 or k == r + 1 or (r <= 2 and k == r)
    menus = [m for m in _menus(text) if m and m[0].startswith("play ")]
    assert len(menus) == len(hands) and menus
    checked = 0
    for menu, hand in zip(menus, hands):
        names = [g.card_name(c) for c in hand]
        for entry in menu:
            m = re.match(r"play (.+?)(?: \([^)]*\))? — (then you can play on with (.+)|nothing of yours can follow it)$",
                         entry)
            if m is None or m.group(1) not in by_name or m.group(1) in wild:
                continue
            played = m.group(1)
            could = [n for n in names if n != played and follows(played, n)]
            told = re.sub(r" \([^)]*\)", "", m.group(3) or "").replace(" and ", ", ").split(", ") if m.group(3) else []
            # one card of each rank that could follow (any wild card by name), lowest rank first
            assert set(told) <= set(could) and len(told) == len(set(told)), entry
            key = [by_name[n].attrs["rank"] + (100 if n in wild else 0) for n in told]
            assert key == sorted(key) and len(set(key)) == len(key), entry
            assert {by_name[n].attrs["rank"] + (100 if n in wild else 0) for n in could} == set(key), entry
            checked += 1
    assert checked >= 5
    # the table: other seats' hidden hands on one line, no empty deck
    assert re.search(r"Unseen hands: seats? 0 \(dealer\)(?:, \d)*(?: and \d)?: \d+ cards?", text)
    assert "The deck: 0 cards" not in text and "Seat 2's hand: 6 hidden cards" not in text
    # your forced pass and what it cost, one line, with what would have fitted
    passes = re.findall(r"^  You pass and pay 1 chip to the pot, your only choice: nothing of yours fits the run's "
                        r"rank (\d+) \(only rank (\d+)(?: or (\d+), or a wild card,| or a wild card) would\)\.",
                        text, re.M)
    assert passes
    for top, first, second in passes:
        assert (int(first), int(second or 0)) == ((int(top), int(top) + 1) if int(top) <= 2 else (int(top) + 1, 0))


def test_round_summary_does_not_repeat_what_is_still_on_the_screen():
    g = game("kabufuda/kyo-kabu.yaml")
    out = io.StringIO()
    table = Table(g, 5, 3, Screen(io.StringIO("2\n1\n" * 20), out), pause=False)
    table.nar.rounds = 1
    res = play(g, 5, 21, make_agents(g, 5, 21, "careful", human=3, human_agent=table), rounds=1, dealer=0,
               observe=table.observe)
    table.finish(res.chips, 1)
    text = out.getvalue()
    showdown, summary = text.split("Showdown\n", 1)[1].split("End of round 1")
    told = [ln.strip() for ln in showdown.splitlines() if ln.strip()]
    assert any(t.startswith("Column 1: ") for t in told)
    # the hands just told are not told again; the payments are told once, by the summary
    assert not [ln for ln in summary.splitlines() if ln.strip() in told]
    assert not any(" pays " in t for t in told) and " pays " in summary
    assert "Chip changes: " in summary and "Next round" not in summary


def test_a_choice_the_rules_then_tell_in_full_is_told_once():
    text = _watched("hanafuda/otoroku.yaml", 1, 4)
    assert re.search(r"The dealer chooses to contest seats? (?:\d, )*(?:\d and )?1\b", text)
    assert "chooses: contest" not in text and "chooses: let off" not in text


def test_mistakes_in_hints_are_located_errors_all_reported_together(tmp_path):
    import pathlib
    import subprocess
    import sys
    text = pathlib.Path("variants/hanafuda/hiraya.yaml").read_text(encoding="utf-8")
    assert "            hints:\n              card:\n" in text
    bad = text.replace("            hints:\n              card:\n",
                       "            hints:\n              kard: [{say: x}]\n              card:\n"
                       "                - {when: \"true\"}\n"
                       "                - {say: \"" + "y" * 600 + "\"}\n", 1)
    f = tmp_path / "hiraya-hints.yaml"
    f.write_text(bad, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "rulekit", "validate", str(f)], capture_output=True, text=True,
                       timeout=120)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "Traceback" not in out
    assert re.search(r"hiraya-hints\.yaml:\d+:\d+: error\[E040\]: hints: 'kard' is not a parameter", out)
    assert re.search(r"hiraya-hints\.yaml:\d+:\d+: error\[E010\]: missing required key 'say'", out)
    assert re.search(r"hiraya-hints\.yaml:\d+:\d+: error\[E034\]: hints card: a text of 600 characters", out)
