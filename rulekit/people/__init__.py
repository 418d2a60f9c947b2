"""Show it to people: narration, the live table, transcripts, saved games, resume and replay.

Owns: `narrate` (events in words), `table/` (the live table for `play --human`), `transcript`,
`savegame`, `resume`, `replay` (logs), `terminal` (the output guard for terminals).
May import: rulekit.core, rulekit.lang, rulekit.engine.
"""
