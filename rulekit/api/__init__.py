"""Serve it to programs: the step environment and the PettingZoo wrapper.

Owns: `env` (Env: reset, legal actions, step, clone, sample_unseen, bots), `encoding` (the
observation vector and action codes), `rl` (PettingZoo AEC, extra `rulekit[rl]`), `single`
(one seat as a Gymnasium environment, extra `rulekit[rl]`).
May import: rulekit.core, rulekit.lang, rulekit.engine, rulekit.people, rulekit.analysis.
"""
