"""The strip's phase, for the boards with a strip (mpboard.py, circuitpy.py).

Where several seats share an LED (a layout's seats_at tracks: The Council's
ranks) they take turns, one per phase (shared_rules/render.py). Not in sim.py,
which every board loads: the simulated board has no strip.
"""


def tick(hw, table, scan_ms):
    """For a board with a strip (mpboard, circuitpy), after each scan of scan_ms: every
    cycle_ms of the game's layout (one whose LEDs several seats may share, taking
    turns: render.py) the phase moves on and the strip is redrawn."""
    layout = hw._layout_for(table.game)
    cycle = layout.get("cycle_ms", 0) if layout is not None else 0
    if cycle <= 0:
        return
    hw._scans += 1
    if hw._scans * scan_ms >= cycle:
        hw._scans = 0
        hw._phase += 1
        table.changed = True
        hw.show(table)
