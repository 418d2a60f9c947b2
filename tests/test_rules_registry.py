"""Every open point of RULES.md §9 and §10 for the five games is an option of its variant file.

RULES.md (/work/shared/rules/RULES.md) lists the points its sources leave open as house-rule
options, with the literal reading as the default (§9), and the points no source settles (§10).
Each is mapped here to the option that carries it in the variant files (some under a shorter
name: kakkuri `8p_dropout_timing` is `dropout_timing`). The games' own "Ambiguities -> options"
tables (§3.7, §4.7, §5.7, §6.7, §7.8) list the alternatives; each must be a value of the option.
"""
from __future__ import annotations

import pytest

from rulekit.engine.build import load_variant
from rulekit.engine.testing import variant_path

DARE = "kabufuda/dare.yaml"
KYO = "kabufuda/kyo-kabu.yaml"
OTO = "hanafuda/otoroku.yaml"
HIR = "hanafuda/hiraya.yaml"
KAK = "mekurifuda/kakkuri.yaml"

MUST_CHOOSE = object()  # RULES §9 says "(must choose)": the option must exist, any default
AGREED = object()       # RULES §9 "agreed": a number the table agrees on, any default

# RULES §9 name -> (variant, option, default as RULES §9 gives it)
REGISTRY_S9 = {
    "rounds (Dare)": (DARE, "rounds", AGREED),
    "rounds (Hiraya)": (HIR, "rounds", AGREED),
    "rounds (Kakkuri)": (KAK, "rounds", AGREED),
    "rounds (Kyō-Kabu)": (KYO, "rounds", 12),
    "rounds (Otoroku)": (OTO, "rounds", 12),
    "dare.tie_break": (DARE, "tie_break", MUST_CHOOSE),
    "dare.showdown_yaku": (DARE, "showdown_yaku", "none"),
    "dare.no_qualifier": (DARE, "no_qualifier", MUST_CHOOSE),
    "dare.set_choice": (DARE, "set_choice", "player"),
    "kyokabu.tie": (KYO, "tie", "push"),
    "kyokabu.kuppin_order": (KYO, "kuppin_order", "sensitive"),
    "kyokabu.soro_vs_soro": (KYO, "soro_vs_soro", "column"),
    "kyokabu.dealer_draw_rule": (KYO, "dealer_draw_rule", "free"),
    "kyokabu.unbet_columns": (KYO, "unbet_columns", "none"),          # "no third card"
    "kyokabu.dealer_rotation": (KYO, "dealer_rotation", "fixed"),
    "otoroku.teyaku_payout": (OTO, "teyaku_payout", "single"),        # "1 share"
    "otoroku.dealer_bust": (OTO, "dealer_bust", MUST_CHOOSE),
    "otoroku.dealer_max_cards": (OTO, "dealer_max_cards", "unlimited"),
    "otoroku.goshita_vs_16": (OTO, "goshita_vs_16", MUST_CHOOSE),
    "otoroku.teyaku_ties": (OTO, "teyaku_ties", "dealer"),
    "otoroku.birds_substitute": (OTO, "birds_substitute", "hanafuda_only"),
    "otoroku.dealer_rotation": (OTO, "dealer_rotation", "fixed"),
    "hiraya.misdeal_willows": (HIR, "misdeal_willows", "any"),          # "any 3 Willows"
    "hiraya.hand_four_misdeal": (HIR, "hand_four_misdeal", False),
    "hiraya.wild_on_field": (HIR, "wild_on_field", "all"),              # "all plays must capture"
    "hiraya.wild_last_card": (HIR, "wild_last_card", MUST_CHOOSE),
    "hiraya.leftover_owner": (HIR, "leftover_owner", "wild_user"),
    "kakkuri.pass_penalty": (KAK, "pass_penalty", "pot"),               # "pay 1 per empty turn"
    "kakkuri.forced_play": (KAK, "forced_play", "always"),              # "forced"
    "kakkuri.all_pass": (KAK, "all_pass", "box"),                       # "turn a box card"
    "kakkuri.box_empty": (KAK, "box_empty", MUST_CHOOSE),
    "kakkuri.wild_follow": (KAK, "wild_follow", "anything"),
    "kakkuri.swap_rules": (KAK, "swap_rules", "chain"),                 # "blind, chainable"
    "kakkuri.hanafuda_wild2": (KAK, "hanafuda_wild2", "lightning"),
    "kakkuri.western_court_map": (KAK, "western_court_map", "qjk"),     # "Q10 J11 K12"
    "kakkuri.8p_dropout_timing": (KAK, "dropout_timing", "before_swap"),
}

# RULES §9 points that are deck choices rather than options: (variant, default deck, decks)
DECKS_S9 = {
    "dare.deck_variant": (DARE, "kabufuda-39",
                          {"kabufuda-39", "mamefuda-39", "hanafuda-39", "western-39", "kabufuda-40"}),
    "kyokabu.deck": (KYO, "kabufuda", {"kabufuda", "hanafuda", "mamefuda", "mushi-kabu"}),
}

# RULES §10, point by point -> the option(s) that leave it to the table
REGISTRY_S10 = {
    "Otoroku: teyaku payment multipliers": [(OTO, "teyaku_payout")],
    "Otoroku: dealer bust": [(OTO, "dealer_bust")],
    "Otoroku: dealer card limit": [(OTO, "dealer_max_cards")],
    "Otoroku: Goshita-gomai vs 16": [(OTO, "goshita_vs_16")],
    "Otoroku: dealer rotation": [(OTO, "dealer_rotation"), (OTO, "rotate_every")],
    "Kyō-Kabu: dealer's own third-card rule": [(KYO, "dealer_draw_rule")],
    "Kyō-Kabu: Sorokabu vs dealer Sorokabu": [(KYO, "soro_vs_soro")],
    "Kyō-Kabu: dealer rotation": [(KYO, "dealer_rotation")],
    "Dare: what if nobody qualifies": [(DARE, "no_qualifier")],
    "Dare: tie-break": [(DARE, "tie_break")],
    "Dare: game length": [(DARE, "rounds")],
    "Hiraya: Lightning drawn last / left on the field": [(HIR, "wild_last_card")],
    "Hiraya: exact misdeal Willow set": [(HIR, "misdeal_willows")],
    "Kakkuri: pass penalty vs voluntary fold": [(KAK, "pass_penalty")],
    "Kakkuri: empty box": [(KAK, "box_empty")],
    "Kakkuri: wild semantics": [(KAK, "wild_follow"), (KAK, "wild_in_groups")],
    "Kakkuri: Lightning vs Rain Man as hanafuda wild": [(KAK, "hanafuda_wild2")],
    "Kakkuri: Western court order": [(KAK, "western_court_map")],
    "Oicho-Kabu / Kyō-Kabu: the dealer's draw rule meets Kuppin": [(KYO, "pin_vs_draw_rule")],
    "Dare tie_break redeal: who replays": [(DARE, "redeal_players")],
    "Kakkuri, Kusaba's swap rules": [(KAK, "swap_rules")],
}

# the games' "Ambiguities -> options" tables: RULES name -> (variant, option, values that must exist)
ALTERNATIVES = {
    "dare.tie_break": (DARE, "tie_break", {"split", "order", "redeal", "high_card"}),
    "dare.showdown_yaku": (DARE, "showdown_yaku", {"none", "arashi", "arashi_digit"}),
    "dare.no_qualifier": (DARE, "no_qualifier", {"carry", "refund", "dealer"}),
    "dare.set_choice": (DARE, "set_choice", {"player", "auto"}),
    "dare.deal_pattern": (DARE, "deal_pattern", {"hands_first", "remainder"}),
    "kakkuri.pass_penalty": (KAK, "pass_penalty", {"pot", "fold"}),
    "kakkuri.forced_play": (KAK, "forced_play", {"always", "never"}),
    "kakkuri.all_pass": (KAK, "all_pass", {"box", "choice"}),
    "kakkuri.box_empty": (KAK, "box_empty", {"void", "free", "lowest"}),
    "kakkuri.wild_follow": (KAK, "wild_follow", {"anything", "declared"}),
    "kakkuri.wild_in_groups": (KAK, "wild_in_groups", {True, False}),
    "kakkuri.pairs_mode_follow": (KAK, "pairs_mode_follow", {"legal_rank"}),
    "kakkuri.swap_rules": (KAK, "swap_rules", {"chain", "once", "first_only", "look"}),
    "kakkuri.8p_dropout_timing": (KAK, "dropout_timing", {"before_swap", "after_swap"}),
    "kakkuri.8p_dropout_timing (dealer holds the 3 of Clubs)": (KAK, "dealer_dropout", {"pass_right"}),
    "kakkuri.first_card_timing": (KAK, "first_card_timing", {"after_utazu", "deal"}),
    "kakkuri.hanafuda_wild2": (KAK, "hanafuda_wild2", {"lightning", "rain_man"}),
    "kakkuri.western_court_map": (KAK, "western_court_map", {"qjk", "jqk"}),
    "kakkuri.dealer_pass_on": (KAK, "dealer_pass_on", {True, False}),
    "kakkuri.players": (KAK, "players", {"seven", "five_to_eight"}),
    "hiraya.misdeal_willows": (HIR, "misdeal_willows", {"any", "non_wild"}),
    "hiraya.hand_four_misdeal": (HIR, "hand_four_misdeal", {True, False}),
    "hiraya.wild_on_field": (HIR, "wild_on_field", {"all", "nonmatching"}),
    "hiraya.wild_empty_field": (HIR, "wild_empty_field", {"stay", "hold"}),
    "hiraya.wild_last_card": (HIR, "wild_last_card", {"captures_all", "last_capturer", "player"}),
    "hiraya.leftover_owner": (HIR, "leftover_owner", {"wild_user", "mushi"}),
    "hiraya.teyaku_cancel": (HIR, "teyaku_cancel", {"final", "cancellable"}),
    "hiraya.dealer_tie": (HIR, "dealer_tie", {"earliest"}),
    "kyokabu.tie": (KYO, "tie", {"push", "dealer"}),
    "kyokabu.kuppin_order": (KYO, "kuppin_order", {"sensitive", "either"}),
    "kyokabu.soro_vs_soro": (KYO, "soro_vs_soro", {"column", "push", "higher", "dealer"}),
    "kyokabu.dealer_draw_rule": (KYO, "dealer_draw_rule", {"free", "player"}),
    "kyokabu.unbet_columns": (KYO, "unbet_columns", {"none", "dealer", "forced"}),
    "otoroku.dealer_choice_timing": (OTO, "dealer_choice_timing", {"after_draws", "two_cards"}),
    "kyokabu.bet_required": (KYO, "bet_required", {True, False}),
    "kyokabu.dealer_rotation": (KYO, "dealer_rotation", {"fixed", "lose_all", "every_round"}),
    "otoroku.teyaku_payout": (OTO, "teyaku_payout", {"single", "multiplied"}),
    "otoroku.dealer_bust": (OTO, "dealer_bust", {"buta", "capped"}),
    "otoroku.dealer_max_cards": (OTO, "dealer_max_cards", {"unlimited", "five"}),
    "otoroku.goshita_vs_16": (OTO, "goshita_vs_16", {"above", "below", "tie"}),
    "otoroku.teyaku_ties": (OTO, "teyaku_ties", {"dealer", "push"}),
    "otoroku.birds_substitute": (OTO, "birds_substitute", {"hanafuda_only", "aka_pin_kin_shi", "disabled"}),
    "otoroku.dealer_rotation": (OTO, "dealer_rotation", {"fixed", "rotate"}),
    "otoroku.share": (OTO, "share_timing", {"fixed", "before_deal", "after_deal"}),
}

_CACHE: dict[str, object] = {}


def variant(rel: str):
    if rel not in _CACHE:
        _CACHE[rel] = load_variant(variant_path(rel))
    return _CACHE[rel]


def option(rel: str, name: str):
    v = variant(rel)
    assert name in v.options, f"{rel}: no option '{name}' (options: {', '.join(v.options)})"
    return v.options[name]


@pytest.mark.parametrize("rules_name", sorted(REGISTRY_S9))
def test_section_9_point_is_an_option_with_the_rules_default(rules_name):
    rel, name, default = REGISTRY_S9[rules_name]
    o = option(rel, name)
    if default is MUST_CHOOSE:
        assert o.type == "choice" and len(o.values) >= 2
    elif default is AGREED:
        assert o.type == "int" and o.parse(o.default) >= 1
    else:
        assert o.parse(o.default) == default, f"{rules_name}: default {o.default!r}, RULES §9 says {default!r}"


@pytest.mark.parametrize("rules_name", sorted(DECKS_S9))
def test_section_9_deck_point_is_the_variant_deck_list(rules_name):
    rel, default, decks = DECKS_S9[rules_name]
    v = variant(rel)
    assert v.default_deck == default
    assert decks <= set(v.decks)


@pytest.mark.parametrize("point", sorted(REGISTRY_S10))
def test_section_10_open_point_is_left_to_an_option(point):
    for rel, name in REGISTRY_S10[point]:
        o = option(rel, name)
        assert o.description and o.source


@pytest.mark.parametrize("rules_name", sorted(ALTERNATIVES))
def test_every_listed_alternative_is_a_value_of_its_option(rules_name):
    rel, name, wanted = ALTERNATIVES[rules_name]
    o = option(rel, name)
    have = {True, False} if o.type == "bool" else {v for v, _ in o.values}
    assert wanted <= have, f"{rules_name}: missing {sorted(map(str, wanted - have))}"


