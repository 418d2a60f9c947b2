"""mkdocs-gen-files script: generate the game pages from the variant files at build time."""
import os

import mkdocs_gen_files

from rulekit.site import all_pages

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

for path, text in all_pages(os.path.join(ROOT, "variants")).items():
    with mkdocs_gen_files.open(path, "w") as fh:
        fh.write(text)
