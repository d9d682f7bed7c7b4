"""The rules of a memory bank: parsing, routing, validation, drift and the gated writes. No face, no
UI and no MCP library is imported here."""
