"""`chancery dice`: smart dice (GoDice) read on the host, over Bluetooth LE, for the board's rolls.

ble.py finds and connects dice with the maker's API (the `godice` package, on bleak) and
turns what they report into the events of firmware/dice/ (the board's readers give the
same ones); watch.py turns those events into the board's rolls, through the link; cli.py
is the command line. Nothing here is loaded unless `chancery dice` runs.
"""
