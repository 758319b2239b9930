"""An entry computed ahead: while a press that would make an entry is awaited, the board's idle
time takes the step it will make, so that the press only journals it and lights it.

These presses are awaited so (the controls call look() at the table's "idle" when nothing waits
ahead; `c` below is firmware/controls.py's Controls, the table c.table):
- a menu's confirm: the one menu is on a confirm screen;
- a voter's key while a sealed ballot is open: the cast that the voter's press under way makes
  (below), else the hold on the pad that counted or marked last, the cast of what it counted or
  marked (its choice kept for the private box, firmware/ballot_box.py, until the press; the
  board's reveal after it when it is the last voter's: firmware/ballot_keys.py's awaited);
- else the table's hold of push while a sealed ballot is open: its close, and the board's
  reveal after it, two entries from one press;
- a key on a game's own pad that would end a seat's entry (The King's Dilemma's vote cards): the
  tap or else the hold of the press under way on a seat's pad; else the hold after a vote or
  addition counted, a pass selected, a stay: the game's `pad` with no key names the seat and the
  hold;
- the table's hold of push when the game wants the board's dice and nothing is begun on the
  table's pad: the roll, its faces drawn from the board's own generator (whose state after them
  is kept with the entry, and taken only when the press makes it; nothing is shown before).

The press under way: the board layer calls down() when a button goes down (firmware/buttons.py's
`went`), so that a press that no earlier key foretold (a House's first hold, a cast by a single
tap or hold) is computed between its down and its release or long instant: a hold gives the
look-ahead its length, a tap the time to its release. Where the tap and the hold make different
entries (a sealed ballot's option with no count, whose hold casts the fourth option), the
tap's is computed first and the hold's after it, in the table's second idle part (held()). A
key that completes the press, or a down on another pad or key, leaves what was computed for it
behind.

A menu on its confirm screen stays open where it is. The table decides the action on a copy of the state
(Table.decide: the entry's texts and chained digest, a reveal's too, on the same copy), and the
board layer's Controls.on_ahead makes the strip's frame for the state after it. What stays
(c.ahead, an Ahead) is the table's Step (the action, its texts, its digest, the generator after
a board roll, the state after it) and the frame.

The awaited press makes it: key() has the table commit it (Table.commit: the journal's line or
lines, the frame, then the state decided with it; a resume replays the same rules, so the same
events and digest). A scroll of the confirm screen (up, down: its text, not what it sends) keeps
it, so that a select right after a scroll finds its entry made. Any other key, on the menu's pad
(which the open menu takes as it is), on a hold's pad or on another pad, or any entry, leaves the
look-ahead behind. Nothing is journalled or shown before the press, and a step ahead that the
rules refuse leaves the menu as it was.
"""

from firmware import ballot_keys, pads
from firmware.pads import TABLE
from shared_rules import engine

# actions the keys handle themselves (firmware/keys.py), and a sealed ballot's cast (a voter's
# pad enters it: the hold above)
_NOT_AHEAD = ("undo", "names", "dice", "new_game", "ballot_cast")
_HOLD = "long_select"  # the table's hold of push: a ballot's close, the board's roll
_SCROLL = ("up", "down", "long_up", "long_down")  # a confirm screen's keys that only scroll it (firmware/menu.py)


class Ahead:
    """One entry computed ahead, for the press `at` on `pad`: a key name (a hold), or None for a
    menu's confirm (its select). step: the table's Step; frame: the board layer's frame for the
    state after it, or None. held: where `at` is a tap's key whose hold makes another entry (a
    sealed ballot's option with no count, whose hold casts the fourth), that entry's Ahead, once
    computed (held())."""

    def __init__(self, pad, seat, at, step, frame):
        self.pad, self.seat, self.at = pad, seat, at
        self.step, self.frame = step, frame
        self.held = None


def look(c):
    """The awaited entry, computed now (see the module's note), into c.ahead; nothing when no
    press is awaited, or the rules refuse its action (its press then goes the usual way)."""
    table, menu = c.table, c.menu
    if menu is not None and menu.state is table.state and menu.confirming() is not None:
        _menu(c)
        return
    state = table.state
    b = state.get("ballot")
    if b is not None and b["open"]:  # its voters' keys are the ballot box's (firmware/ballot_keys.py), not the pad's
        got = ballot_keys.awaited(c, b)  # the hold that casts what a voter counted or marked
        if got is not None and _try(c, got[0], got[0], got[1], got[2]):
            return
        if not c.undo_asked:  # the table's push held closes it, unless its back asked for an undo
            _try(c, TABLE, None, _HOLD, {"type": "ballot_close"})
        return
    g = engine.game_module(table.game)
    if g.pad is not None and _pad_down(c, g, state):
        return
    if g.pad is not None:
        seat = g.pad(state, None, None, c.held)  # whose hold would end an entry
        if seat is not None:
            held = c.held.get(seat)
            hold = g.pad(state, seat, None, held)
            got = g.pad(state, seat, hold, held) if hold is not None else None
            if got is not None and got[1] is not None:
                _try(c, seat, seat, hold, got[1])  # a seat's pad is its seat's number
                return
    if g.dice_wanted(state) and not _begun(c, TABLE):
        _try(c, TABLE, None, _HOLD, {"type": "roll"})


def down(c, mask):
    """Buttons went down (bit i: button i): the press under way (c.pressing, the lowest), whose
    entry look() takes while it is held, a tap's where the tap makes one, else its hold's. What
    waits ahead for another pad or key goes."""
    i = 0
    while not (mask >> i) & 1:
        i += 1
    pad, button = pads.which(i)
    # a long refusal up: its pad's up and down scroll it (firmware/keys.py), no press is guessed
    c.pressing = (pad, button) if c.refusal is None else None
    a = c.ahead
    if a is not None and (a.pad != pad or type(a.at) is str and a.at != pads.menu_name(button, pads.SHORT)
                          and a.at != pads.menu_name(button, pads.LONG)):
        c.ahead = None


def _pad_down(c, g, state):
    """A seat's press under way on a game's own pad (The King's Dilemma's vote cards): the entry
    its tap or else its hold makes, computed now; False when it makes none."""
    for kind in (pads.SHORT, pads.LONG):
        got = _pad_move(c, g, state, kind)
        if got is not None:
            return _try(c, got[0], got[0], got[1], got[2])
    return False


def _pad_move(c, g, state, kind):
    """(seat, key, move) that the press under way makes on a seat's game pad as a tap or a hold
    (`kind`), or None where it is no such press or makes no entry."""
    p = c.pressing
    if p is None or p[0] == TABLE or p[0] >= engine.seats(state):
        return None
    name = pads.menu_name(p[1], kind)
    got = g.pad(state, p[0], name, c.held.get(p[0]))
    return (p[0], name, got[1]) if got is not None and got[1] is not None else None


def _begun(c, pad):
    """The choices begun on `pad`'s menu (open, or parked while the menu serves another pad)."""
    menu = c.menu
    if menu is not None and c.menu_pad == pad:
        return menu.picks
    kept = c.parked.get(pad)  # (picks, auto)
    return kept and kept[0]


def _menu(c):
    move = c.menu.confirming()
    if move["type"] not in _NOT_AHEAD:
        _try(c, c.menu_pad, c.menu.seat, None, move)  # the menu stays open, as the press will find it


def held(c):
    """The table's second idle part: where the entry ahead is the tap's of the press under way
    and that button's hold makes another entry, the hold's too (c.ahead.held), so that a press
    that outlasts a tap finds its entry made as well."""
    a, p = c.ahead, c.pressing
    if a is None or a.held is not None or p is None or p[0] != a.pad or a.at != pads.menu_name(p[1], pads.SHORT):
        return
    state = c.table.state
    b = state.get("ballot")
    g = engine.game_module(c.table.game)
    if b is not None and b["open"]:
        got = ballot_keys.held(c, p[0], p[1], b)
    else:
        got = _pad_move(c, g, state, pads.LONG) if g.pad is not None else None
    if got is not None:
        a.held = _made(c, got[0], got[0], got[1], got[2])


def redraw(c):
    """The strip's phase moved on (LEDs that several seats share take turns): the frames drawn
    ahead, drawn again in the phase the strip shows now. A frame drawn in an older phase differed
    from the strip in every LED that takes turns, and its press sent them all (up to row 10 of
    The Council's panel); in the same phase it sends only up to the last LED its entry changes.
    No phase moves while a button is down (leds.tick), so a press finds its frame in phase."""
    a = c.ahead
    while a is not None and c.on_ahead is not None:
        if a.frame is not None:
            a.frame = c.on_ahead(a.step.after)
        a = a.held


def _try(c, pad, seat, at, move):
    """c.ahead for `move`; False (and nothing ahead) when the rules refuse it."""
    c.ahead = _made(c, pad, seat, at, move)
    return c.ahead is not None


def _made(c, pad, seat, at, move):
    """The Ahead of `move`, or None when the rules refuse it."""
    try:
        step = c.table.decide(move, seat)
        return Ahead(pad, seat, at, step, c.on_ahead(step.after) if c.on_ahead is not None else None)
    except Exception:  # refused: the press goes the usual way, and says why
        return None


def key(c, pad, name):
    """A key while an entry waits ahead: the one that makes it (its entry's index); else None, and
    the look-ahead goes (a key on its menu's pad: the menu, still open there, takes it)."""
    a = c.ahead
    c.ahead = None
    if a.held is not None and a.pad == pad and name == a.held.at:
        a = a.held  # the press outlasted its tap: its hold's entry
    if not c.table.due(a.step):
        return None  # the state moved on
    if a.pad != pad:  # another pad's key: a menu's choices stay as they are; the next idle
        return None  # takes the look-ahead again after the key
    if type(a.at) is str:  # a hold: a game's own pad's, or the table's that closes a ballot or rolls
        return c.table.commit(a.step, a.frame) if name == a.at else None
    if name == "select" or name == "long_select":
        return c.table.commit(a.step, a.frame)
    if name in _SCROLL:
        c.ahead = a  # its confirm screen scrolled: what its select sends is the same
    return None
