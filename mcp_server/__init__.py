"""The MCP server: thin adapters exposing the core's tools, resources and prompts to agents.

Importing this package must never import Textual: ``memorybank mcp`` starts fast.
"""
