"""The one function through which untrusted text reaches a terminal."""
from rulekit.inert import inert


def test_escape_sequences_are_shown_not_interpreted():
    s = inert("ok\x1b[2Jfake\x1b]52;c;ZXZpbA==\x07")
    assert "\x1b" not in s and "\x07" not in s
    assert s == "ok\\x1b[2Jfake\\x1b]52;c;ZXZpbA==\\x07"


def test_c1_controls_and_bidi_overrides_are_visible():
    s = inert("a\x9bb\u202ec")
    assert s == "a\\x9bb\\u202ec"


def test_plain_text_and_japanese_pass_unchanged():
    assert inert("Kyō-Kabu 京かぶ\tok\nnext") == "Kyō-Kabu 京かぶ\tok\nnext"


def test_newlines_can_be_folded_and_long_text_cut():
    assert inert("a\nb", keep_newlines=False) == "a\\nb"
    out = inert("x" * 1000, limit=10)
    assert out.startswith("x" * 10) and "990 more characters" in out and len(out) < 60
