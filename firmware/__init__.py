"""Chancery's board firmware: runs shared_rules/ under MicroPython (or CircuitPython).

Small modules, one job each: the board layer (firmware/board/) hides the
hardware, the journal keeps every accepted action on flash, the link speaks
frames to the host, the inputs and menus turn button presses into actions.
"""
