"""Build a game and run it: a Variant compiled into steps, played by seeded rounds and agents.

Owns: `build` (Variant -> Game, every name checked), `scope` (the names a variant's expressions
see), `stepcompile`/`stepchoice` (steps from the rules), `steps` (what steps need at run time),
`stepgen` (generated Python for phases), `game`, `runner` (rounds, games, replay checks),
`agents` (policies), `seatdraw`, `cost`, `context`, `statsdecl` (statistics declarations; `statsobserve`
compiles and reads them during play, loaded only for a game that has some),
`testing` (stacked decks for rule tests), `stepper` (a game paused at each decision, copied,
re-dealt), `varvis` (who may see each variable), `search` (the `search` policy, which the
runner imports the first time a seat is to play it: runner.POLICY_MODULES).
May import: rulekit.core, rulekit.lang.
"""
