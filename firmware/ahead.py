"""An entry computed ahead: while a press that would make an entry is awaited, the board's idle
time takes the step it will make, so that the press only journals it and lights it.

Three presses are awaited so (Table.idle() calls look() for each):
- a menu's confirm: the one menu is on a confirm screen;
- a hold on a game's own pad that would end a seat's entry (The King's Dilemma's vote cards: a
  vote or addition counted, a pass selected, a stay): the game's `pad` with no key names the seat
  and the hold;
- the table's hold of push while a sealed ballot is open: its close, and the board's reveal
  after it (firmware/ballot_box.py), two entries from one press.

A menu is let go first (its choices parked, as when it turns to another pad: firmware/keys.py's
park). The rules decide the action on a copy of the state, and the entry's texts and chained
digest are made (a reveal's too, on the same copy), with the strip's frame for the state after
it (the board layer's Table.on_ahead). The copy goes; what stays (table.ahead) is the action,
its texts, its digest, the board's dice generator after a board roll, and the frame: a few
hundred bytes, where the menu held 6-8 KB on a Pico.

The awaited press (a confirm's select or long_select, or the hold) makes it: key() writes the
journal's line (or lines), sends the frame, and only then folds the action into the state, in
place, as a resume replays it (engine.decide: the same rules, so the same events and digest).
Any other key on a menu's pad opens its menu again where it was and gives it the key; another
key on a hold's pad, a key on another pad, or any entry, leaves the look-ahead behind. Nothing is
journalled or shown before the press, and a step ahead that the rules refuse or that runs short
of memory leaves the menu as it was.

A press to its frame on the chip is then the scan, this lookup, the journal's line and the wire,
where it was also the menu's key, the rules, the canonical texts, the view, render and limiter.
"""

import gc

from firmware.pads import TABLE
from shared_rules import canon, engine
from shared_rules.compat import const

_PAD = const(0)
_SEAT = const(1)
# the menu's (auto, cur, top): its confirm screen as it was, to open it again; or for a game's own
# pad (KD's vote cards), the key whose hold is the entry
_MENU = const(2)
_STATE = const(3)
_COUNT = const(4)
_LAST = const(5)
_MOVE = const(6)
_TEXTS = const(7)  # (the action's canonical text, the events')
_DIGEST = const(8)
_RNG = const(9)
_FRAME = const(10)  # the board layer's frame for the state after the entry, or None
# the entry the board makes after it, when the entry leaves a sealed ballot due (the table's close):
# (its action, texts, digest), or None
_THEN = const(11)
# The heap free, after the menu's room is let go and collected, that a look ahead needs: a copy of the
# state (2-6 KB on a Pico), the rules' garbage, the view and render, this module. A board short of it
# takes the press the usual way (the heap paths with the menus, a game switch and smart dice on the
# chip's 96 KB: tools/chip/heap.py).
_ROOM = const(12288)
# A ballot's close and the board's reveal after it: two steps on the copy, and both entries' texts kept
# (on the chip's 96 KB, the 12 KB of one entry ran The Council's path with a host's link out of memory)
_BALLOT_ROOM = const(20480)

# actions the keys handle themselves (firmware/keys.py), and a sealed ballot's cast, whose
# choice goes to the private box when it is entered (tuple([...]): a constant tuple keeps each
# string as an object of its own on a board, where these are interned names)
_NOT_AHEAD = tuple(["undo", "names", "dice", "new_game", "ballot_cast"])


def look(table):
    """The waiting entry, computed now (see the module's note): the confirm screen's, or the hold's
    that would end a seat's entry on a game's own pad (`g.pad` with no key says which: what it has
    counted, or a King's Dilemma stay, which counts nothing). A refusal, a
    failure or a heap short of _ROOM leaves nothing ahead, and a menu open again where it was: its
    select goes the usual way. This module goes too then (Table.idle() collects after it)."""
    if table.menu is None:
        _pad(table)
    else:
        _menu(table)


def _menu(table):
    from firmware.keys import park, reopen

    menu, pad = table.menu, table.menu_pad
    move = menu._action()
    seat, at = menu.seat, (menu.auto, menu.cur, menu.top)
    if move["type"] in _NOT_AHEAD:
        return
    menu = None
    park(table)  # the menu's room is the step's, as before a step it sends (and a collection)
    try:
        table.ahead = _take(table, pad, seat, at, move)
    except Exception:  # refused, or short of memory: the menu as it was, for the press to meet
        table.ahead = None
    if table.ahead is None:
        gc.collect()
        reopen(table, pad, seat, at)


def _pad(table):
    b = table.state.get("ballot")
    if b is not None and b["open"]:  # its voters' keys are the ballot box's (firmware/keys.py), not the pad's
        box = table.ballot_box
        if box is None or not box[3]:  # the table's push held closes it, unless its back asked for an undo
            try:
                table.ahead = _take(table, TABLE, None, "long_select", {"type": "ballot_close"}, _BALLOT_ROOM)
            except Exception:  # refused (a ballot that cannot close yet), or short of memory
                table.ahead = None
        return
    g = engine.game_module(table.game)
    seat = g.pad(table.state, None, None, table.held)  # whose hold would end an entry: Table.idle() asked
    held = table.held.get(seat)
    hold = g.pad(table.state, seat, None, held) if seat is not None else None
    got = g.pad(table.state, seat, hold, held) if hold is not None else None
    if got is not None and got[1] is not None:
        try:
            table.ahead = _take(table, seat, seat, hold, got[1])  # a seat's pad is its seat's number
        except Exception:  # refused, or short of memory: the hold goes the usual way
            table.ahead = None


def _take(table, pad, seat, at, move, room=_ROOM):
    free = getattr(gc, "mem_free", None)  # MicroPython's; CPython (the host's tests) has room
    if free is not None and free() < room:
        return None
    state = table.state
    move, rng = table._prepare(move, seat)
    act, events, work = engine.decide(table.game, state, move, False)  # on a copy
    texts = canon.encode(act), canon.encode(events)
    act = events = None
    last = table.journal.last
    digest = canon.chain(last, texts[0], texts[1])
    then, b = None, work.get("ballot")
    if b is not None and b["result"] is None and not b["open"]:  # as Table._reveal_if_due: the board's reveal
        from firmware import ballot_box

        then = ballot_box.reveal(table, b)
        ballot_box = b = None
        act, events, work = engine.decide(table.game, work, then, True)  # the copy's own: in place
        more = canon.encode(act), canon.encode(events)
        act = events = None
        then = (then, more, canon.chain(digest, more[0], more[1]))
        more = None
    frame = table.on_ahead(work) if table.on_ahead is not None else None
    return (pad, seat, at, state, table.count, last, move, texts, digest, rng, frame, then)


def key(table, pad, name):
    """A key while an entry waits ahead: the one that makes it (its entry's index); else None, and
    the look-ahead goes, or for its own pad's other keys on a menu (seat, the menu's place), for
    keys.key to open the menu again there (firmware/keys.py's reopen: with this module let go, and
    the entry's texts and frame, under the menu's load) and give it the key."""
    a = table.ahead
    table.ahead = None
    if a[_STATE] is not table.state or a[_COUNT] != table.count:
        return None  # the state moved on
    at = a[_MENU]
    if a[_PAD] != pad:  # another pad's key: a menu's parked choices stay as they are. A hold's entry
        # goes too, though the key may change nothing of it: kept, its code, texts and frame were on
        # the heap under a voter's cast and the board's reveal (over the link, the unix port's guard
        # ran out); Table.idle() takes it again after the key
        return None
    if type(at) is str:  # a hold: a game's own pad's, or the table's that closes a ballot
        return _enter(table, a) if name == at else None
    if name == "select" or name == "long_select":
        return _enter(table, a)
    return a[_SEAT], at


def _enter(table, a):
    """The entry computed ahead (and the board's reveal after it): on flash, then on the strip,
    then into the state."""
    texts, then = a[_TEXTS], a[_THEN]
    try:
        table.journal.write(table.count, texts[0], texts[1], a[_DIGEST])  # on flash before anyone hears of it
        if then is not None:
            table.journal.write(table.count + 1, then[1][0], then[1][1], then[2])
    except BaseException:
        a = texts = then = None
        table.reload()  # as Table.act: the journal's tail is checked again
        raise
    table._rng = a[_RNG]
    frame = a[_FRAME]
    shown = frame is not None and table.on_entry is not None
    if shown:
        table.on_entry(frame)
    frame = texts = None
    index = table.count
    try:
        _fold(table, a[_MOVE], a[_DIGEST], shown)
        if then is not None:
            _fold(table, then[0], then[2], shown)
            from firmware import ballot_box  # after the frame: the box emptied, as its reveal() does

            ballot_box.clear(table)
    except Exception:  # cannot be (the same rules decided it on a copy), but the table never stops:
        a = then = None  # the entries are on flash, and the journal's replay has them
        table.reload()
        return index
    a = then = None
    table._reveal_if_due()
    return index


def _fold(table, move, digest, shown):
    act, events, state = engine.decide(table.game, table.state, move, True)  # as a resume replays it
    table.state = state
    state = None
    table._entered(act, events, digest, shown)
