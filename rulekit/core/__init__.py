"""The foundation every stage may use: located errors and their codes, inert text, the GC pause.

Owns: `errors` (Span, Diagnostic, RulekitError, the one renderer), `inert` (text from files made
safe for a terminal or a page), `gcpause`, `paths` (where the package and the project lie), `numbers` (the one
strict parser of whole numbers written as text), `atomic` (files written whole or not at all),
`passcache` (checks passed, remembered on disk by digest).
May import: nothing else from rulekit.
"""
