"""The workbench's panes, one module each; the screen lists them in ``tui.screens.workbench.PANES``."""
