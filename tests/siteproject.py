"""A throwaway copy of the project for building a small site: its docs, schemas and config, the
package linked, and only the variant files given."""
from __future__ import annotations

import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def project_copy(tmp: str, variants: list[str]) -> str:
    """Make tmp/proj with mkdocs.yml, docs/, schemas/, a link to rulekit/ and `variants` (paths) copied
    flat into its variants/; its path."""
    root = os.path.join(tmp, "proj")
    os.makedirs(os.path.join(root, "variants"))
    shutil.copy(os.path.join(ROOT, "mkdocs.yml"), root)
    shutil.copytree(os.path.join(ROOT, "docs"), os.path.join(root, "docs"))
    shutil.copytree(os.path.join(ROOT, "schemas"), os.path.join(root, "schemas"))
    os.symlink(os.path.join(ROOT, "rulekit"), os.path.join(root, "rulekit"))
    for path in variants:
        shutil.copy(path, os.path.join(root, "variants"))
    return root
