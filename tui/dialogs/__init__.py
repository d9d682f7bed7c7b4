"""Modal dialogs: confirmations, the score breakdown, the name prompt of a new bank."""
