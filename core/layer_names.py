"""The names of the layers a document can belong to, apart from the model: the workbench's first
frame lists them (the Route pane's layer filter) before anything imports the documents' types."""

LAYERS: tuple[str, ...] = ("dna", "knowledge", "decision", "delivery", "flow", "inbox", "other")
"""Every layer a document can belong to."""
