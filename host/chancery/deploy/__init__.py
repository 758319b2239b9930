"""`chancery deploy`: what a board gets, and putting it on the board's flash over its raw
REPL (flash). cli.py is the entry point."""
