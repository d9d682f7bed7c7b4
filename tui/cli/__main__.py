"""``python -m memorybank.tui.cli`` runs the ``memorybank`` command."""

import sys

from memorybank.tui.cli.main import main

sys.exit(main())
