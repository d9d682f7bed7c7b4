"""Print the rule table that README.md carries: ``python -m memorybank.core.validate``."""

from memorybank.core.validate import rules_table

print(rules_table())
