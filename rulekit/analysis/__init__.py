"""Analyse it: seeded simulations, statistics, paired comparisons, and runs on a Dask cluster.

Owns: `simulate` (the simulate() API), `runs` (rounds and games over processes), `distributed`
(Dask), `compare` (rule differences, provenance, paired runs).
May import: rulekit.core, rulekit.lang, rulekit.engine, rulekit.people.
"""
