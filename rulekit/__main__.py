"""`python -m rulekit` runs the command line."""
import sys

from rulekit.cli.main import main

sys.exit(main())
