"""Apply each of issue 39's six surviving rule mutations in turn and run the test that must kill it.

    python benchmarks/mutations_issue39.py   (from the project root; restores every file)
"""
import subprocess
import sys
from pathlib import Path

muts = [
 ("variants/kabufuda/kyo-kabu.yaml", '''    - id: dealer-sorokabu
      names: {en: Dealer three of a kind, ja: ソロカブ, romaji: sorokabu}
      when: "triple(cards) and first(cards).value in [5, 6, 7, 8]"''', '''    - id: dealer-sorokabu
      names: {en: Dealer three of a kind, ja: ソロカブ, romaji: sorokabu}
      when: "first(cards).value in [5, 6, 7, 8]"''', "dealer_three_of_a_kind"),
 ("variants/kabufuda/kyo-kabu.yaml", 'if: "column_value(i) <= 3"', 'if: "column_value(i) <= 4"', "forced_unbet"),
 ("variants/kabufuda/kyo-kabu.yaml", '''          - if: "m > 0"
            then:
              - add: {lost_columns: 1}''', '''          - if: "m >= 0"
            then:
              - add: {lost_columns: 1}''', "lose_all"),
 ("variants/hanafuda/hiraya.yaml", "players: {min: 3, max: 3, default: 3}", "players: {min: 3, max: 4, default: 3}", "three_players"),
 ("variants/hanafuda/hiraya.yaml", "x <= -opt.bank", "x < -opt.bank", "bank_ends"),
 ("variants/hanafuda/hana-awase.yaml", '''              - reveal: {zone: "hand[p]", to: none}''', '''              - say: kept open''', "hidden_again"),
]
for path, old, new, k in muts:
    src = Path(path).read_text(encoding="utf-8")
    assert src.count(old) == 1, (path, old)
    Path(path).write_text(src.replace(old, new), encoding="utf-8")
    try:
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "tests/test_rule_mutations.py", "-k", k],
                           capture_output=True, text=True, check=False)
        print(k, "KILLED" if r.returncode != 0 else "SURVIVED", r.stdout.strip().splitlines()[-1])
    finally:
        Path(path).write_text(src, encoding="utf-8")
