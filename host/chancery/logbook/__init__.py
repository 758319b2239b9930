"""The logbook: every game a board played, entry by entry (store.Logbook, SQLite), `chancery
log` (cli.py, the entry point: list, show, export, import) and match files (logfile: JSON and
JSON Lines, read, checked and saved)."""
