"""The games at the terminal: `chancery play` (game: a game without a board), `chancery
replay` (replay: check a saved game or run a scenario) and `chancery rules` (rules: a game's
settings and actions). cli.py is the entry point."""
