"""`chancery deploy`: what a board gets (modules: the board's modules, walked from its
imports) and putting it on the board's flash over its raw REPL (flash). cli.py is the
entry point."""
