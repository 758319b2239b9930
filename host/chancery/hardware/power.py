"""`chancery hardware power --layout L [--brightness B] [--budget MA]`: the strip's current.

The figures come from shared_rules/power.py, the model the firmware's current
limiter enforces on every frame, so what this prints is what the board holds to:

- worst case: every LED the layout's tracks use white at the brightness cap, and
  every LED of the arrangement idle (what the supply must give if nothing limited it);
- typical: half of the tracks' LEDs lit, each at the mean of the layout's colours at
  the cap (a busy game: scores part way, dice showing pips, a few markers);
- the highest brightness cap whose worst case fits the budget (at or below it,
  the limiter never has to dim anything);
- the board's own draw (the board, its display and the level shifter, from
  hardware/rules.json) on the supply the budget is for, and whether the budget
  and the board together fit what that supply path allows (USB 2.0's 500 mA);
  with the pin map's supply "usb", also that the guide builds option B (the
  strip on its own supply) and that USB's figure keeps option A, the bench's,
  within its limit too.

--board (default rpi-pico) picks the pin map: without --budget its budget_ma is
the budget (the one the board's limiter uses); the layout's own budget_ma is the
Pico's.
"""

import sys

from chancery.hardware import files as hardware_files
from shared_rules import power

FULL = 255


def lit_leds(layout):
    """How many LEDs render() may light: every track's (the arrangement's other LEDs stay
    dark, but their chips draw the idle current all the same); a layout without tracks, all."""
    tracks = layout.get("tracks")
    if tracks is None:
        return layout["leds"]
    return sum(len(t["idx"]) if "idx" in t else t.get("length", 0) for t in tracks)


def worst_case_ma(layout, level=FULL, per_channel_ma=power.PER_CHANNEL_MA, idle_ma=power.IDLE_MA):
    """Every LED the layout's tracks use white at `level` (the brightness cap), and every LED of
    the strip idle: what the supply must give if nothing limits it (power.py's model)."""
    return (lit_leds(layout) * 3 * level * per_channel_ma + FULL - 1) // FULL + layout["leds"] * idle_ma


def mean_colour(layout):
    """The mean [r, g, b] of every colour the layout names (seats and markers)."""
    colours = list(layout.get("seat_colours") or []) + list((layout.get("colours") or {}).values())
    if not colours:
        return [FULL, FULL, FULL]
    return [sum(c[k] for c in colours) // len(colours) for k in range(3)]


def typical_ma(layout, level):
    """Half of the LEDs the tracks use lit at the layout's mean colour at `level`, and every LED
    of the strip (the arrangement's, lit or dark) drawing its idle current."""
    leds = layout["leds"]
    frame = bytearray(leds * 3)
    colour = mean_colour(layout)
    for i in range(lit_leds(layout) // 2):
        for k in range(3):
            frame[i * 3 + k] = colour[k] * level // FULL
    return power.estimate_ma(frame)


def highest_level(layout, budget_ma):
    """The highest cap (0-255) whose worst case fits budget_ma, or None if none does."""
    for level in range(FULL, -1, -1):
        if worst_case_ma(layout, level) <= budget_ma:
            return level
    return None


def typical_level(layout, budget_ma):
    """The highest cap (0-255) at which a typical frame fits budget_ma, or None."""
    for level in range(FULL, -1, -1):
        if typical_ma(layout, level) <= budget_ma:
            return level
    return None


DEFAULT_BOARD = "rpi-pico"


def supply_lines(cfg, board_name, budget):
    """What the board itself draws and whether the budget and the board fit the supply path."""
    data = hardware_files.rules()
    board = hardware_files.board_rules(cfg, rules_data=data)
    supply = cfg.get("supply", "usb")
    own = hardware_files.board_draw_ma(cfg, board)
    limit = hardware_files.supply_limit_ma(cfg, board, data)
    path = board["supplies"][supply]
    lines = ["board %s: the board, its display and the level shifter draw about %d mA%s"
             % (board_name, board["board_ma"]["value"], "" if own else ", from USB, not from this supply")]
    ext = board["supplies"].get("external")
    if supply == "usb" and ext is not None:
        # hardware/README.md builds option B; the pin maps keep USB's figure so that either way fits
        feed = (", which also feeds the board at %s, USB connected too" % ext["pin"] if ext.get("label")
                else " (%s), the board on USB" % ext["pin"])
        lines.append("the guide builds option B (hardware/README.md): the strip on its own 5 V supply" + feed)
        lines.append("the budget is held to USB's figure all the same, so that option A fits too: the strip on "
                     "%s, for the bench only" % path["pin"])
    else:
        lines.append("the budget is for the supply %s, %s" % (supply, path["pin"]))
    if limit is None:
        lines.append("the supply's rating is not in the pin map (supply_ma): nothing to check the budget against")
    elif budget + own <= limit:
        lines.append("strip budget %d mA + board %d mA = %d mA, within the %d mA the supply path allows"
                     % (budget, own, budget + own, limit))
    else:
        lines.append("strip budget %d mA + board %d mA = %d mA, over the %d mA the supply path allows: "
                     "a budget of %d mA at most" % (budget, own, budget + own, limit, max(0, limit - own)))
    return lines


def report(name, brightness=None, budget_ma=None, board_name=None):
    """The lines the command prints; raises ValueError for a bad name or number."""
    layout = hardware_files.layout(name)  # UnknownName is a ValueError: run() answers it
    cfg = hardware_files.load("boards", board_name or DEFAULT_BOARD)
    level = layout.get("level", FULL) if brightness is None else brightness
    if not 0 <= level <= FULL:
        raise ValueError("--brightness must be 0-255 (the cap on every channel), not %d" % level)
    if budget_ma is not None:
        budget = budget_ma
    elif board_name is not None:
        budget = cfg.get("budget_ma", power.BUDGET_MA)
    else:
        budget = layout.get("budget_ma", power.BUDGET_MA)
    if budget <= 0:
        raise ValueError("--budget must be a positive number of mA, not %d" % budget)
    leds = layout["leds"]
    worst = worst_case_ma(layout, level)
    typical = typical_ma(layout, level)
    cap = highest_level(layout, budget)
    lines = [
        "layout %s: %d of the arrangement's %d LEDs, budget %d mA, brightness cap %d/255"
        % (name, lit_leds(layout), leds, budget, level),
        "worst case (every LED of a track white at the cap): %d mA%s" % (worst, "" if worst <= budget else
                                                              ", over the budget: the limiter dims such frames"),
        "typical (half the tracks' LEDs at the layout's mean colour): %d mA, %s" % (
            typical, "within the budget: the limiter leaves a typical frame alone" if typical <= budget else
            "over the budget: the limiter dims a typical frame (lower the cap to keep it bright as set)"),
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
    lines += supply_lines(cfg, board_name or DEFAULT_BOARD, budget)
    lines.append("model: %d mA per channel at 255, %d mA per LED for its chip (shared_rules/power.py, as the "
                 "board's limiter)" % (power.PER_CHANNEL_MA, power.IDLE_MA))
    return lines


def configure(p):
    p.add_argument("--layout", required=True, help="a layout in hardware/layouts/ (e.g. chancellors)")
    p.add_argument("--brightness", type=int, help="the brightness cap, 0-255 (default: the layout's level)")
    p.add_argument("--budget", type=int, help="the strip's budget in mA (default: the board's budget_ma, or the "
                                              "layout's without --board)")
    p.add_argument("--board", metavar="NAME", help="a pin map in hardware/boards/ whose own draw and supply are "
                                                   "counted (default %s)" % DEFAULT_BOARD)


def run(args):
    try:
        lines = report(args.layout, args.brightness, args.budget, getattr(args, "board", None))
    except ValueError as e:
        print("error: %s" % e, file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0
