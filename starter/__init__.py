"""The starter set that ``init`` seeds a bank with, and the shipped templates ``create`` reads."""

from pathlib import Path

STARTER_DIR = Path(__file__).resolve().parent
TEMPLATES_DIR = STARTER_DIR / "flows" / "templates"
