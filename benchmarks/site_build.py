"""The rules site's cold build: CPU seconds (user + system, the build and its worker processes) of one
`mkdocs build --strict -q` with an empty simulation cache, and the same build again with the cache warm.

    python benchmarks/site_build.py            # from the project's root; about 2 x 40 CPU-s on a busy machine

A figure, not a test: wall-clock and CPU times depend on the machine. Before issue 37 a cold build took
90-91 CPU-s here (80-84 CPU-s as the issue measured it); after it 42.7-45.8. The "Your table" panels (issue 36)
brought it to 134.8-140.7 CPU-s cold (8.1 warm); issue 38 (a figure source that keeps 4 games, not thousands;
the statistics' rounds shared with the house-rule effects) to 121.2-129.6 cold (7.7-8.5 warm). Where the cold build goes
(issue 38, 2026-11-29): the panels' texts about 52 CPU-s, three quarters of it building each game again for
the figures ({fig.NAME}) under some 2,500 option combinations; statistics and effects about 39; example hands,
fonts and mkdocs the rest. Figures read from a figures-only build (rulekit.engine.build.build_figures_game:
options, deck, players, functions and variables' starts, no phases, yaku, policies or display; issue 38,
2026-11-29, one run each, `/usr/bin/time mkdocs build --strict -q` with an empty cache, machine shared): 94.1
CPU-s cold before, 50.7 after. The functions' check remembered per key of what it reads (the option values
the bodies name, names' types, cards), and each `NAME()` figure compiled once per such key (issue 38,
2026-11-29, one run each, same command): 52.4 CPU-s cold before, 47.7 after, the site byte-identical. What is
left of the panels is mostly the quick reference's games and rounds (a full build and seeded rounds for each
option combination it reads). Issue 38 part O (2026-11-29): the simulations play the games the site already
built (shared with the forked workers); a house rule that moves only the game's length takes the default
rules' rounds (rulekit.website.effects.round_free_options: 19 changes, 1,900 rounds not played); the quick
reference plays each seeded round once per game, and once for games that differ only in their length (1,581
rounds, not 2,536); the collector leaves the loaded games alone (gc.freeze: the page part's collections took
4.1-4.8 CPU-s, 2.7-3.3 after). Same site, byte for byte. Measured on a machine loaded 6-10 (other builds and
tests), both trees one after the other, `mkdocs build --strict -q` with an empty cache, user+sys, four pairs:
54.1/51.5, 54.8/51.2, 52.8/49.8, 51.1/47.7 CPU-s before/after (a quiet machine gave 42.5 before); build_site
alone, both trees at once: 44.3 before (15.4 the pages, 28.8 the simulations' workers), 40.8 after (13.0, 27.8).
Issue 38 part S (2026-11-29): the "Your table" panels' 288 full builds were all distinct option values (the
quick reference plays seeded rounds on each, so a figures-only build cannot serve); 124 of them are the games of
the house-rule changes, now built once in the site's process before the effect workers fork (they inherit them)
and read again by the panel (rulekit.website.effects.prebuild_changes); the standard rules' game is the page's
own, and its seeded rounds are played once for the index, family and game pages and the panel
(rulekit.website.quickref.rounds_for): 155 builds left, the panels' data identical. The rules documents (2,197,
one per distinct option values, each with a figures-only build) were already shared. Same site, byte for byte
(diff -r). Machine loaded 3-5, `mkdocs build --strict -q` with an empty cache, user+sys: main 47.4 (load
higher), 44.2 and 42.8 CPU-s, this branch 43.3 (the first step) and 41.5: within the machine's noise; the panels
alone (panel_data of every game, one process, CPU): 9.3 and 9.1 CPU-s before, 7.6 and 7.4 after.
Issue 38 part W (2026-11-29): the cyclic collector took about 5.3 CPU-s of the site's own process (3.7 of it in
ten full collections, each walking the 124 house-rule change games, built before the effect workers fork and
kept for the panels) and 1.4 in the workers' full collections; the change games are now frozen once built
(rulekit.website.stats.keep_long_lived, inside the build's long_lived block: the workers inherit that) and dropped
when the build ends; each change's rounds are played as `simulate` plays them (run_chunk, one state restarted,
in runs up to the next interval check) instead of a fresh play() per round. Same site, byte for byte (diff -r),
the statistics and effects identical. Three pairs, adc623c then this branch, `mkdocs build --strict -q` with an
empty cache, user+sys, machine loaded 4.5-6: 37.6/34.0, 37.3/35.3, 38.8/34.5 CPU-s.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build(cache: str, site: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one strict build with this simulation cache, into `site`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.time()
    env = {**os.environ, "RULEKIT_SITE_CACHE": cache, "PYTHONPATH": ROOT}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", site, "-f",
                        os.path.join(ROOT, "mkdocs.yml")], cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.time() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"the build failed:\n{r.stderr[-3000:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    work = tempfile.mkdtemp(prefix="rulekit-bench-site-")
    try:
        cache, site = os.path.join(work, "cache"), os.path.join(work, "site")
        cpu, wall = build(cache, site)
        print(f"cold build (empty simulation cache): {cpu:.1f} CPU-s (user+sys), {wall:.0f} s wall")
        cpu2, wall2 = build(cache, site)
        print(f"warm build (cache filled):           {cpu2:.1f} CPU-s (user+sys), {wall2:.0f} s wall")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
