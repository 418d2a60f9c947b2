"""Read a file: the variant language, from YAML text to a checked, frozen Variant.

Owns: `source` (YAML with a source map), `loader` (`extends`, provenance), `house` (house-rule
files), `schema` (JSON Schema checks), `model` (the frozen Variant), `decks` (decks as data),
`rulestext` (the rules prose in the variant file), `textrefs` (what those texts refer to: a
hand's own value, a variant's figures), `expr/` (the expression language: parser, types,
compiler, generated code, functions).
May import: rulekit.core.
"""
