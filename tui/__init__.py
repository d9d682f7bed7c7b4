"""The human faces of memorybank: the Textual workbench (``tui.app``) and the ``memorybank``
command line (``tui.cli``).

Importing this package imports nothing heavy: ``memorybank mcp`` goes through ``tui.cli`` and must
start without loading Textual.
"""
