"""The operators of the expression language, described once for the site's reference page and
`rulekit help expressions`."""
from __future__ import annotations

OPERATORS = [
    # (tokens, meaning, example) from the loosest to the tightest binding
    ("x -> body", "a function of one parameter (a lambda), given to functions such as count or filter",
     "count(hand[p], c -> c.value > 5)"),
    ("if a then b else c", "b when a is true, otherwise c", "if total > 9 then total - 10 else total"),
    ("or", "true when either side is (the right side is only evaluated when needed)", "a or b"),
    ("and", "true when both sides are (the right side is only evaluated when needed)", "a and b"),
    ("not", "the opposite truth value", "not decided[i]"),
    ("== != < <= > >=", "comparison of numbers, text, cards or lists", "sum(hand, c -> c.value) % 10 >= 7"),
    ("in, not in", "membership in a list (or a key in a map, or text in text)", "'special' in c.tags"),
    ("+ -", "addition and subtraction; on lists, + joins and - removes", "hand[p] + [card('1-1')]"),
    ("* / // %", "multiplication, exact division, whole division, remainder", "total % 10"),
    ("-x", "negation", "-stake[p]"),
    ("**", "power", "2 ** round_no"),
    ("x.name, x[i], f(...)", "card attribute or option (opt.name), list item (from 0), function call",
     "column[i][0].value"),
]
