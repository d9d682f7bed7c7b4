"""memorybank: keep a project's memory bank true.

The installed wheel holds everything under this one package (``memorybank.core``,
``memorybank.tui``, ``memorybank.mcp_server``, ``memorybank.starter``). A checkout keeps those
folders at the repository's top level, so there this package also searches the folder above it.
"""

import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
if not _os.path.isdir(_os.path.join(_here, "core")):  # a checkout, not the installed wheel
    __path__.append(_os.path.dirname(_here))
del _here
