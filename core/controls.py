"""Characters that steer a terminal or reorder text instead of showing: what text written by others
(a document, a note, an agent's argument) must not carry to a screen as it is."""

from __future__ import annotations

import re

STEERING = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"
"""A regex character range: the C0 controls but tab and newline, DEL and the C1 controls (ESC, BEL,
CSI...), the line and paragraph separators, and the bidirectional embeddings, overrides and isolates."""
STEERING_TEXT = re.compile(f"[{STEERING}]")
"""One steering character, in text that keeps its tabs and line breaks."""
