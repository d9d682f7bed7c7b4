"""Print the rule table that README.md carries: ``python -m core.validate``."""

from core.validate import rules_table

print(rules_table())
