"""``python -m tui.cli`` runs the ``memorybank`` command."""

import sys

from tui.cli.main import main

sys.exit(main())
