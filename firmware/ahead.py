"""An entry computed ahead: while a press that would make an entry is awaited, the board's idle
time takes the step it will make, so that the press only journals it and lights it.

Four presses are awaited so (Table.idle() calls look() when nothing waits ahead):
- a menu's confirm: the one menu is on a confirm screen;
- the table's hold of push while a sealed ballot is open: its close, and the board's reveal
  after it (firmware/ballot_box.py), two entries from one press;
- a hold on a game's own pad that would end a seat's entry (The King's Dilemma's vote cards: a
  vote or addition counted, a pass selected, a stay): the game's `pad` with no key names the seat
  and the hold;
- the table's hold of push when the game wants the board's dice and nothing is begun on the
  table's pad: the roll, its faces drawn from the board's own generator (whose state after them
  is kept with the entry, and taken only when the press makes it; nothing is shown before).

A menu on its confirm screen is parked first (its choices kept as plain data, as when it turns to
another pad: firmware/menus.py's park). The rules decide the action on a copy of the state, and the
entry's texts and chained digest are made (a reveal's too, on the same copy), with the strip's
frame for the state after it (the board layer's Table.on_ahead). The copy goes; what stays
(table.ahead, an Ahead) is the action, its texts, its digest, the generator after a board roll,
and the frame.

The awaited press makes it: key() writes the journal's line (or lines), sends the frame, and only
then folds the action into the state, in place, as a resume replays it (engine.decide: the same
rules, so the same events and digest). Any other key on a menu's pad opens its menu again where it
was and gives it the key; another key on a hold's pad, a key on another pad, or any entry, leaves
the look-ahead behind. Nothing is journalled or shown before the press, and a step ahead that the
rules refuse leaves the menu as it was.
"""

from firmware import ballot_box
from firmware.menus import park, reopen
from firmware.pads import TABLE
from shared_rules import canon, engine

# actions the keys handle themselves (firmware/keys.py), and a sealed ballot's cast, whose
# choice goes to the private box when it is entered
_NOT_AHEAD = ("undo", "names", "dice", "new_game", "ballot_cast")
_HOLD = "long_select"  # the table's hold of push: a ballot's close, the board's roll


class Ahead:
    """One entry computed ahead, for the press `at` on `pad`: a key name (a hold), or for a menu's
    confirm the menu's (auto, cur, top), to open it again where it was."""

    def __init__(self, pad, seat, at, state, count, last, move, texts, digest, rng, frame, then, entry, after):
        self.pad, self.seat, self.at = pad, seat, at
        self.state, self.count, self.last = state, count, last  # what it was computed on
        self.move, self.texts, self.digest, self.rng = move, texts, digest, rng
        self.entry = entry  # (the normalised action, its events)
        self.after = after  # the state after it (and after `then`): the press makes it the table's
        self.frame = frame  # the board layer's frame for the state after the entry, or None
        # the entry the board makes after it, when the entry leaves a sealed ballot due (the
        # table's close): (its action, texts, digest, normalised action, events), or None
        self.then = then


def look(table):
    """The awaited entry, computed now (see the module's note), into table.ahead; nothing when no
    press is awaited, or the rules refuse its action (its press then goes the usual way)."""
    menu = table.menu
    if menu is not None and menu.state is table.state and menu.confirming() is not None:
        _menu(table)
        return
    state = table.state
    b = state.get("ballot")
    if b is not None and b["open"]:  # its voters' keys are the ballot box's (firmware/keys.py), not the pad's
        box = table.ballot_box
        if box is None or not box[3]:  # the table's push held closes it, unless its back asked for an undo
            _try(table, TABLE, None, _HOLD, {"type": "ballot_close"})
        return
    g = engine.game_module(table.game)
    if g.pad is not None:
        seat = g.pad(state, None, None, table.held)  # whose hold would end an entry
        if seat is not None:
            held = table.held.get(seat)
            hold = g.pad(state, seat, None, held)
            got = g.pad(state, seat, hold, held) if hold is not None else None
            if got is not None and got[1] is not None:
                _try(table, seat, seat, hold, got[1])  # a seat's pad is its seat's number
                return
    if g.dice_wanted(state) and not _begun(table, TABLE):
        _try(table, TABLE, None, _HOLD, {"type": "roll"})


def _begun(table, pad):
    """The choices begun on `pad`'s menu (open, or parked while the menu serves another pad)."""
    menu = table.menu
    if menu is not None and table.menu_pad == pad:
        return menu.picks
    kept = table.parked.get(pad)  # (picks, auto)
    return kept and kept[0]


def _menu(table):
    menu, pad = table.menu, table.menu_pad
    move = menu.confirming()
    seat, at = menu.seat, (menu.auto, menu.cur, menu.top)
    if move["type"] in _NOT_AHEAD:
        return
    park(table)  # as before a step the menu sends
    if not _try(table, pad, seat, at, move):
        reopen(table, pad, seat, at)  # the menu as it was, for the press to meet


def _try(table, pad, seat, at, move):
    """table.ahead for `move`; False (and nothing ahead) when the rules refuse it."""
    try:
        table.ahead = _take(table, pad, seat, at, move)
    except Exception:  # refused: the press goes the usual way, and says why
        table.ahead = None
    return table.ahead is not None


def _take(table, pad, seat, at, move):
    state = table.state
    move, rng = table.prepare(move, seat)
    act, events, work = engine.decide(table.game, state, move, False)  # on a copy
    texts = canon.encode(act), canon.encode(events)
    last = table.journal.last
    digest = canon.chain(last, texts[0], texts[1])
    entry = (act, events)
    then, b = None, work.get("ballot")
    if b is not None and b["result"] is None and not b["open"]:  # as Table.reveal_if_due: the board's reveal
        then = ballot_box.reveal(table, b)
        act, events, work = engine.decide(table.game, work, then, True)  # the copy's own: in place
        more = canon.encode(act), canon.encode(events)
        then = (then, more, canon.chain(digest, more[0], more[1]), act, events)
    frame = table.on_ahead(work) if table.on_ahead is not None else None
    return Ahead(pad, seat, at, state, table.count, last, move, texts, digest, rng, frame, then, entry, work)


def key(table, pad, name):
    """A key while an entry waits ahead: the one that makes it (its entry's index); else None, and
    the look-ahead goes, or for its own pad's other keys on a menu (seat, the menu's place), for
    keys.key to open the menu again there (firmware/menus.py's reopen) and give it the key."""
    a = table.ahead
    table.ahead = None
    if a.state is not table.state or a.count != table.count:
        return None  # the state moved on
    if a.pad != pad:  # another pad's key: a menu's parked choices stay as they are; Table.idle()
        return None  # takes the look-ahead again after the key
    if type(a.at) is str:  # a hold: a game's own pad's, or the table's that closes a ballot or rolls
        return _enter(table, a) if name == a.at else None
    if name == "select" or name == "long_select":
        return _enter(table, a)
    return a.seat, a.at


def _enter(table, a):
    """The entry computed ahead (and the board's reveal after it): on flash, then on the strip,
    then the state computed with it is the table's. The state it was computed on is kept as the
    one before it (Table.before), so that an undo of it needs no replay (firmware/undo.py)."""
    texts, then = a.texts, a.then
    try:
        table.journal.write(table.count, texts[0], texts[1], a.digest)  # on flash before anyone hears of it
        if then is not None:
            table.journal.write(table.count + 1, then[1][0], then[1][1], then[2])
    except BaseException:
        table.reload()  # as Table.act: the journal's tail is checked again
        raise
    shown = a.frame is not None and table.on_entry is not None
    if shown:
        table.on_entry(a.frame)
    index = table.count
    before = table.state
    table.state = a.after
    table.entered(a.entry[0], a.entry[1], a.digest, shown, a.rng)
    if then is not None:
        table.entered(then[3], then[4], then[2], shown, None)
        ballot_box.clear(table)  # after the frame: the box emptied, as its reveal() does
    # the state before the entry, for its undo; none before a reveal, which is never taken back
    table.before = (index, before, a.last) if then is None else None
    table.reveal_if_due()
    return index


