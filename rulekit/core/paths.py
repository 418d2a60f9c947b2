"""Where the installed package and the project checkout lie on disk."""
from __future__ import annotations

import os

# rulekit/core/paths.py -> rulekit/
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the checkout that holds rulekit/, variants/ and schemas/ (also the site-packages folder when installed)
PROJECT_ROOT = os.path.dirname(PACKAGE_DIR)
