"""`chancery hardware power --layout L [--brightness B] [--budget MA]`: the strip's current.

The figures come from shared_rules/power.py, the model the firmware's current
limiter enforces on every frame, so what this prints is what the board holds to:

- worst case: every LED of the layout white at the brightness cap (what the
  supply must give if nothing limited it);
- typical: half of the LEDs lit, each at the mean of the layout's colours at the
  cap (a busy game: scores part way, dice showing pips, a few markers);
- the highest brightness cap whose worst case fits the budget (at or below it,
  the limiter never has to dim anything).
"""

import sys

from chancery.hardware import files as hardware_files
from shared_rules import power

FULL = 255


def mean_colour(layout):
    """The mean [r, g, b] of every colour the layout names (seats and markers)."""
    colours = list(layout.get("seat_colours") or []) + list((layout.get("colours") or {}).values())
    if not colours:
        return [FULL, FULL, FULL]
    return [sum(c[k] for c in colours) // len(colours) for k in range(3)]


def typical_ma(layout, level):
    leds = layout["leds"]
    frame = bytearray(leds * 3)
    colour = mean_colour(layout)
    for i in range(leds // 2):
        for k in range(3):
            frame[i * 3 + k] = colour[k] * level // FULL
    return power.estimate_ma(frame)


def highest_level(layout, budget_ma):
    """The highest cap (0-255) whose worst case fits budget_ma, or None if none does."""
    for level in range(FULL, -1, -1):
        if power.worst_case_ma(layout, level) <= budget_ma:
            return level
    return None


def typical_level(layout, budget_ma):
    """The highest cap (0-255) at which a typical frame fits budget_ma, or None."""
    for level in range(FULL, -1, -1):
        if typical_ma(layout, level) <= budget_ma:
            return level
    return None


def report(name, brightness=None, budget_ma=None):
    """The lines the command prints; raises ValueError for a bad name or number."""
    layout = hardware_files.load("layouts", name)  # UnknownName is a ValueError: run() answers it
    level = layout.get("level", FULL) if brightness is None else brightness
    if not 0 <= level <= FULL:
        raise ValueError("--brightness must be 0-255 (the cap on every channel), not %d" % level)
    budget = layout.get("budget_ma", power.BUDGET_MA) if budget_ma is None else budget_ma
    if budget <= 0:
        raise ValueError("--budget must be a positive number of mA, not %d" % budget)
    leds = layout["leds"]
    worst = power.worst_case_ma(layout, level)
    typical = typical_ma(layout, level)
    cap = highest_level(layout, budget)
    lines = [
        "layout %s: %d LEDs, budget %d mA, brightness cap %d/255" % (name, leds, budget, level),
        "worst case (every LED white at the cap): %d mA%s" % (worst, "" if worst <= budget else
                                                              ", over the budget: the limiter dims such frames"),
        "typical (half the LEDs at the layout's mean colour): %d mA" % typical,
        "idle (every LED dark, the chips alone): %d mA" % (leds * power.IDLE_MA),
    ]
    if cap is None:
        lines.append("no cap fits: %d LEDs draw %d mA dark; raise the budget (a bigger supply)"
                     % (leds, leds * power.IDLE_MA))
    else:
        lines.append("highest cap that never needs the limiter at %d mA: %d/255 (set \"level\" in the layout)"
                     % (budget, cap))
    busy = typical_level(layout, budget)
    if busy is not None:
        lines.append("highest cap at which a typical frame fits %d mA: %d/255 (above it the limiter dims most frames)"
                     % (budget, busy))
    lines.append("model: %d mA per channel at 255, %d mA per LED for its chip (shared_rules/power.py, as the "
                 "board's limiter)" % (power.PER_CHANNEL_MA, power.IDLE_MA))
    return lines


def configure(p):
    p.add_argument("--layout", required=True, help="a layout in hardware/layouts/ (e.g. chancellors)")
    p.add_argument("--brightness", type=int, help="the brightness cap, 0-255 (default: the layout's level)")
    p.add_argument("--budget", type=int, help="the supply's budget in mA (default: the layout's budget_ma)")


def run(args):
    try:
        lines = report(args.layout, args.brightness, args.budget)
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0
