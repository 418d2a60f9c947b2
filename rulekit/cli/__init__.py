"""The command line: one module per command group, argument checks, output through the guard.

Owns: `main` (the registry of commands, the parser, the entry point), `commands` (the small commands:
validate, show, decks, diff, explain, replay), `args` (argument checks), `play`, `games`,
`simulate`, `compare` (`simulate --compare`).
May import: every stage below it (core, lang, engine, people, analysis, api); not rulekit.website.
"""
