"""The data files in hardware/: board pin maps (boards/NAME.json), LED layouts (layouts/NAME.json),
the board's LEDs (arrangement.json) and the datasheets' rules every pin map keeps (rules.json).

One place that lists and reads them for the host: deploy, the drawings, the power
command and the mirror. The host runs from the checkout (an editable install), so
the files are read from the repository's hardware/ folder.
"""

import json
import os

from chancery import ROOT

KINDS = {"boards": "board", "layouts": "layout"}  # folder: what one file is called in a message


class UnknownName(ValueError):
    """A board or layout name with no file behind it; the message lists those that exist."""


def names(kind, root=ROOT):
    """The names in hardware/KIND/ (kind "boards" or "layouts"), sorted."""
    folder = os.path.join(root, "hardware", kind)
    return sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))


def load(kind, name, root=ROOT):
    """hardware/KIND/NAME.json as a dict; UnknownName says which names there are."""
    known = names(kind, root)
    if name not in known:
        raise UnknownName("unknown %s %r; the %s are: %s" % (KINDS[kind], name, kind, ", ".join(known)))
    with open(os.path.join(root, "hardware", kind, name + ".json"), encoding="utf-8") as f:
        return json.load(f)


def arrangement(root=ROOT):
    """hardware/arrangement.json: the board's LEDs, once for every game (chancery.hardware.arrangement)."""
    with open(os.path.join(root, "hardware", "arrangement.json"), encoding="utf-8") as f:
        return json.load(f)


def layout(name, root=ROOT):
    """A game's layout as the renderers read it: hardware/layouts/NAME.json with its tracks placed on
    the arrangement (each track's strip indices in `idx`, `leds` the arrangement's count).
    UnknownName for a name with no file; ValueError for a track off the grid or on another's LED."""
    from chancery.hardware import arrangement as cells

    raw = load("layouts", name, root) if isinstance(name, str) else name
    return cells.resolve(raw, arrangement(root))


def rules(root=ROOT):
    """hardware/rules.json: each board's reserved pins, its supplies and its own draw, with their sources."""
    with open(os.path.join(root, "hardware", "rules.json"), encoding="utf-8") as f:
        return json.load(f)


def board_rules(cfg, root=ROOT, rules_data=None):
    """The entry of rules.json a pin map names in its "rules" field; ValueError when there is none."""
    data = rules_data if rules_data is not None else rules(root)
    name = cfg.get("rules")
    if name not in data["boards"]:
        raise ValueError("pin map %r names rules %r; hardware/rules.json has: %s"
                         % (cfg.get("board"), name, ", ".join(sorted(data["boards"]))))
    return data["boards"][name]


def supply_limit_ma(cfg, board, rules_data):
    """What the supply path the pin map's budget is for allows, in mA, or None when the map does not
    say (supply "external" without supply_ma)."""
    path = board["supplies"].get(cfg.get("supply", "usb"))
    if path is None:
        raise ValueError("pin map %r: supply %r is not one of %s" % (cfg.get("board"), cfg.get("supply"),
                                                                      ", ".join(sorted(board["supplies"]))))
    if "limit_ma" in path:
        return path["limit_ma"]
    rating = cfg.get("supply_ma")
    if rating is None:
        return None
    return rating * rules_data["parts"]["external_derate_pct"]["value"] // 100


def board_draw_ma(cfg, board):
    """The board's own draw (board, display, shifter) on the map's supply path: 0 when that supply
    feeds the strip alone."""
    path = board["supplies"].get(cfg.get("supply", "usb"), {})
    return board["board_ma"]["value"] if path.get("board_on_it", True) else 0
