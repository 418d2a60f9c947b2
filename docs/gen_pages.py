"""mkdocs-gen-files script: generate the site's pages from the variant files at build time.

Everything under games/, families/, reference/ and cards/ is generated here, as is the
navigation (SUMMARY.md, read by mkdocs-literate-nav); the home page and the tutorial get a
generated section appended. Set RULEKIT_SITE_ROUNDS to change the number of simulated rounds
per game (0 skips the statistics), RULEKIT_SITE_EFFECT_ROUNDS the paired rounds behind each house
rule's effect (0 skips them) and RULEKIT_SITE_CACHE to move the simulation cache.
"""
import logging
import os

import mkdocs_gen_files
from mkdocs.exceptions import PluginError

from rulekit.website import SiteError, build_site, home_appendix, summary, tutorial_appendix

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
log = logging.getLogger("mkdocs.plugins.rulekit")

try:
    files, site = build_site(ROOT)
except SiteError as exc:  # a rules file that does not build: its located errors, not a traceback
    raise PluginError(str(exc)) from None
for path, text in files.items():
    with mkdocs_gen_files.open(path, "wb" if isinstance(text, bytes) else "w") as fh:
        fh.write(text)

with mkdocs_gen_files.open("index.md", "a") as fh:
    fh.write(home_appendix(site))

TUTORIAL = "tutorial/first-variant.yaml"
if os.path.isfile(os.path.join(DOCS, TUTORIAL)):
    with mkdocs_gen_files.open("tutorial/first-variant.md", "a") as fh:
        fh.write(tutorial_appendix(os.path.join(DOCS, TUTORIAL), "docs/" + TUTORIAL))

guides = [("Write your first variant", "tutorial/first-variant.md"),
          ("Write your house rules", "guides/house-rules.md"),
          ("Simulate and measure (for analysts)", "guides/analyst.md"),
          ("Use rulekit from Python", "guides/python.md"),
          ("Play at the table", "guides/table.md"),
          ("Shorter rules: functions, let and other helpers", "guides/shorter-rules.md"),
          ("Extending a variant, and editing one in your editor", "guides/extending.md")]
# the rules sheets of the house files listed in mkdocs.yml (extra: rulekit_sheets), one page each
sheet_files = ((mkdocs_gen_files.config.get("extra") or {}).get("rulekit_sheets") or [])
for house in sheet_files:
    from rulekit import build_game as _build_game, load_variant as _load_variant
    from rulekit.lang.house import load_house
    from rulekit.people.sheet import make_sheet, sheet_markdown
    path = os.path.join(DOCS, house)
    h = load_house(path)
    from rulekit.lang.loader import default_search_path, find_variant
    if not find_variant(h.target, path, default_search_path()):
        # a project without the sheet's game (a copy with other variants): no sheet, the rest builds
        import logging
        logging.getLogger("mkdocs.plugins.rulekit").info(
            "rulekit: no sheet for %s: its game %r is not in this project", house, h.target)
        continue
    game = _build_game(_load_variant(h.target, house=(path,)))
    page = f"sheets/{os.path.splitext(os.path.basename(house))[0]}.md"
    with mkdocs_gen_files.open(page, "w") as fh:
        fh.write(sheet_markdown(make_sheet(game)).replace(ROOT + os.sep, "")
                 + f"\n*The rules sheet of [{os.path.basename(house)}](../{house}), made with "
                 f"`rulekit rules {h.target} --house docs/{house}`.*\n")
    guides.append((f"Sheet: {h.name}", page))
decks = sorted(p[len("reference/decks/"):-3] for p in files
               if p.startswith("reference/decks/") and p.endswith(".md") and not p.endswith("index.md"))
with mkdocs_gen_files.open("SUMMARY.md", "w") as fh:
    fh.write(summary(site, decks, guides))

log.info("rulekit: %d games, %d files generated; %s", len(site.entries), len(files),
         ", ".join(f"{k} {v:.1f}s" for k, v in site.timings.items()))
