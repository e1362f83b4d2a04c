"""One subpackage per game: its rules, its data files and its board."""
