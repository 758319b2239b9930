"""`:help`'s key map for the screen the board shows: the same map the board's footers are drawn
from (firmware/keymap.py), found from the screen's own lines, so it needs nothing more in the
display frame (and works on the virtual Pico's decoded display, and with older boards).

A status screen (its first line "#N ...") is known by its first line, its kinds by the game's
state (keymap.status, as the board's table draws it); any other screen by its footer: each kind's
footer is drawn for a seat's pad and for the table's, and the one that ends the screen whole, else
the one that matches the most of the screen's last lines, is the screen's.
"""

from firmware import keymap
from shared_rules import engine

# the mirror's keyboard for each of the board's keys (chancery/mirror/app.py's PAD_KEYS, TABLE_KEYS)
SEAT_KEYS = {"up": "q w e r t", "down": "z x c v b", "select": "a s d f g", "long_select": "A S D F G",
             "back": "Q W E R T", "long_down": "Z X C V B", "ud": "q/z w/x e/c r/v t/b", "*": "any of them"}
TABLE_KEYS = {"up": "Left", "down": "Right", "ud": "Left/Right", "select": "Enter", "long_select": "*",
              "back": "Backspace or <", "long_down": ">", "*": "any of them"}


def kinds_named():
    """The kinds of screen firmware/keymap.py's maps name (besides "ballot" and "pad", drawn from
    their data); read from its string here, so the board keeps no function for it."""
    return [x.split("|")[0] for x in keymap._MAPS.split("\n")]


def data(kind, game, state, seat=None):
    """What a kind's map is drawn from besides its kind (keymap.entries' b): the open ballot's
    options, or a game's own pad's keys (The King's Dilemma's voting House: g.pad's "keys")."""
    if kind == "ballot":
        return state.get("ballot")
    if kind == "pad":
        g = engine.game_module(game)
        got = g.pad(state, seat, "keys", None) if g.pad is not None else None
        return got and got[1]
    return None


def kinds(lines, game, state):
    """(who, [kind, ...]) of the screen `lines` in `game` at `state`: who "s" a seat's pad's
    screen, "t" the table's, None the shared status; or None when no kind's footer is there."""
    if not lines:
        return None
    g = engine.game_module(game)
    if lines[0].startswith("#"):
        return None, list(keymap.status(g, state))
    b = state.get("ballot")
    names = kinds_named() + (["ballot"] if b is not None and b["result"] is None else []) + ["pad"]
    best, score = None, (0, 0)
    tail = lines[1:]
    for kind in names:
        for who in ("s", "t"):
            room = 1 if kind == "card" else 6 if kind in ("ballot", "pad") else 2
            foot = keymap.foot(kind, who, room, data(kind, game, state))
            # the whole footer at the screen's end first (a note may stand in for its first line)
            n = (int(bool(foot) and lines[-len(foot):] == foot), len([x for x in foot if x in tail]))
            if foot and n[1] and n > score:
                best, score = (who, [kind]), n
    return best


def text(lines, game, state):
    """`:help`'s lines for the screen `lines`: every key its kind's map names, with the words
    the board's footer uses (the footer shows the first that fit), and the keyboard's keys."""
    found = kinds(lines, game, state)
    if found is None:
        return ["Keys on the board's screen now: no key map known for it (%s)" % " / ".join(lines or ["blank"])]
    who, names = found
    out = ["Keys on the board's screen now (%s):" % ", ".join(names)]
    for kind in names:
        for e in keymap.entries(kind, data(kind, game, state)):
            w = who if e[0] == "a" else e[0]
            if who is not None and w != who:
                continue
            lab = keymap.label(w or "s", e[1])
            if lab is None:
                continue
            if w is None:  # the status: any pad's, the table's too
                pad, keys = "any pad", "any key"
            else:
                pad = "a seat's pad" if w == "s" else "the table"
                keys = (SEAT_KEYS if w == "s" else TABLE_KEYS).get(e[1], "")
            out.append("  %-10s %-14s (%s; keyboard: %s)" % (lab, e[2], pad, keys))
    return out
