"""The app's screens: the workbench over a bank, and the welcome screen when there is none."""
