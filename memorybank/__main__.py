"""``python -m memorybank`` runs the ``memorybank`` command."""

import sys

from memorybank.tui.cli import main

sys.exit(main())
