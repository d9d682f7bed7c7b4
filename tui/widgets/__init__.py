"""Widgets shared by the screens: the bank header."""
