"""Serve it to programs: the step environment and the PettingZoo wrapper.

Owns: `env` (Env: reset, legal actions, step), `rl` (PettingZoo AEC, extra `rulekit[rl]`).
May import: rulekit.core, rulekit.lang, rulekit.engine, rulekit.people, rulekit.analysis.
"""
