"""The one function through which untrusted text reaches a terminal."""
from rulekit.core.inert import inert


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


def test_json_keeps_its_value_and_is_inert():
    import json

    from rulekit.core.inert import inert, inert_json
    value = {"name": "x\x85y\u202ez\u2028\x7f\x1b[2J", "ja": "京かぶ"}
    text = inert_json(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value       # the same JSON value
    assert inert(text) == text             # which the inert terminal stream leaves alone
    assert "京かぶ" in text                  # readable text stays readable


def test_simulate_json_on_stdout_stays_valid_json(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path
    src = (Path(__file__).resolve().parent.parent / "docs" / "tutorial" / "first-variant.yaml").read_text("utf-8")
    assert "push: " in src and "default: push" in src
    src = src.replace("push: ", '"push\\u202e\\x85": ', 1).replace("default: push", 'default: "push\\u202e\\x85"', 1)
    # E050 refuses a comparison with a value the option no longer has: compare with the other value
    assert "opt.ties == 'push'" in src
    src = src.replace("opt.ties == 'push'", "opt.ties != 'dealer'")
    p = tmp_path / "v.yaml"
    p.write_text(src, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rulekit", "simulate", str(p), "--rounds", "20", "--json", "-"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout[out.stdout.index("{"):])
    assert "push\u202e\x85" in json.dumps(doc, ensure_ascii=False)
