"""Resume the journalled game at boot: Journal.resume() calls resume() here.

Header, snapshot, then each later entry replayed through the rules core with
every digest checked; a torn tail (the one line a power cut can leave) is cut
by copying the good part to game.tmp and renaming it over. Any other damage is
a JournalError naming the file, the line and the reason.
"""

import os

from firmware.journal.line import GAME, SNAP, JournalError, NoGame, check, exists, loads, readline, replace, sync
from firmware.journal.read import entries, read
from shared_rules import canon
from shared_rules import engine as rules_engine
from shared_rules.errors import RuleError


def _first(journal, name, tag, keys):
    """(object, crc) of a file's first line; None if the file or the line is missing."""
    path = journal.path(name)
    try:
        f = journal.open(path, "rb")
    except OSError:
        return None
    try:
        r = read(f, path, 1)
    finally:
        f.close()
    v = loads(r[1], keys) if r and r[0] == tag else None
    if r and v is None:
        raise JournalError("bad_header" if tag == b"h" else "bad_snapshot", path, 1, "not " + str(list(keys)))
    return r and (v, r[2])


def _recover(journal):
    """A .tmp beside its target was cut short: removed. A lone one is promoted if its
    first line is whole (FAT's rename), else removed (cut while first written)."""
    for name in (GAME, SNAP):
        tmp = journal.path(name + ".tmp")
        if exists(tmp):
            line = b""
            if not exists(journal.path(name)):
                f = journal.open(tmp, "rb")
                line = readline(f)
                f.close()
            if isinstance(check(line), str):
                os.remove(tmp)
            else:
                replace(tmp, journal.path(name))


def resume(journal, engine=None):
    """Load the game: header, snapshot, then each later entry replayed, every digest
    checked; a torn tail is cut. Returns (header, state, count). Bad data raises
    NoGame or JournalError, never another exception."""
    if engine is None:
        engine = rules_engine
    journal.close()
    journal.cuts = None  # the "u" lines are read again (entries() below)
    _recover(journal)
    gp, sp = journal.path(GAME), journal.path(SNAP)
    fl = journal.flash
    if fl is None:
        r = _first(journal, GAME, b"h", {"game": str, "seed": int, "start": str})
    else:
        r = _flash_header(fl)
        gp = fl.game[0].path if r else journal.folder
    if r is None:
        raise NoGame("no_game", gp, None, "no game under way, or its header was cut short")
    journal.at = gp
    header, journal.head = r
    game, first, last = header["game"], 0, header["start"]
    try:  # the game's code first, for good: below what the resume reads and lets go (a tidier heap)
        engine.game_module(game)
    except RuleError as e:
        raise JournalError("bad_header", gp, 1, "%s %s" % (e.code, canon.encode(e.detail)))
    r = _first(journal, SNAP, b"s", {"count": int, "digest": str, "state": dict})
    if r and r[0].get("head") == journal.head:  # else another game's: start() was cut before removing it
        first, last, state = r[0]["count"], r[0]["digest"], r[0]["state"]
        if canon.digest(state) != r[0].get("sum") or first < 0 or (first == 0 and last != header["start"]):
            raise JournalError("bad_snapshot", sp, 1, "the state's digest is not the one recorded")
    else:
        try:
            state = engine.new_match(game, header.get("settings"), header["seed"], True)["state"]  # recorded
        except RuleError as e:
            raise JournalError("bad_header", gp, 1, "%s %s" % (e.code, canon.encode(e.detail)))
        if canon.digest(state) != last:
            raise JournalError("start_differs", gp, 1, "the rules give another initial state")
    r = None
    index = first - 1 if first else 0
    it = entries(journal, index)
    try:
        for entry in it:
            line, index, gp = journal.at_line, index + 1, journal.at
            if index == first:  # the entry the snapshot was taken after
                if entry["digest"] != last:
                    raise JournalError("bad_snapshot", sp, 1, "digest %s; entry %d has %s" % (
                        last, first - 1, entry["digest"]))
                continue
            try:
                act, events, state = engine.decide(game, state, entry["action"], True)  # the state is ours
                action_text, events_text = canon.encode(act), canon.encode(events)
                same = action_text == canon.encode(entry["action"]) and events_text == canon.encode(entry["events"])
                digest = canon.chain(last, action_text, events_text)
            except RuleError as e:
                raise JournalError("refused", gp, line, "%s %s" % (e.code, canon.encode(e.detail)))
            except engine.Spoiled as e:
                raise JournalError("refused", gp, line, "%s %s" % (type(e.cause).__name__, e.cause))
            except (AttributeError, KeyError, IndexError, TypeError, ValueError) as e:  # data no rules expect
                raise JournalError("bad_entry", gp, line, "%s %s" % (type(e).__name__, e))
            if not same or digest != entry["digest"]:
                raise JournalError("events_differ" if not same else "digest_differs", gp, line,
                                   "entry %s, journal says %s" % (digest, entry["digest"]))
            last = digest
            action_text = events_text = None
            entry = act = events = None
    finally:
        it.close()
    count = journal.length
    if count < first:
        raise JournalError("snapshot_ahead", sp, 1, "after %d entries; %s holds %d" % (first, GAME, count))
    journal.count, journal.snap_at, journal.snapped, journal.last = count, first, first, last
    journal.first = header["start"]
    if fl is not None:
        journal.cut = fl.torn
        fl.reopen()  # on after the last whole line, or in the next reservation past a torn one
        journal.out = fl
        return header, state, count
    journal.cut = journal.size - journal.good
    if journal.cut:
        _rewrite(journal, journal.good)
    journal.out = journal.open(gp, "ab")
    return header, state, count


def _flash_header(fl):
    """(header, crc) of the raw flash log's game; None if no game has a whole header."""
    r = fl.load()
    if r is None:
        return None
    v = loads(r[1], {"game": str, "seed": int, "start": str})
    if v is None:
        raise JournalError("bad_header", fl.game[0].path, 1, "not ['game', 'seed', 'start']")
    return v, r[2]


def _rewrite(journal, size):
    """Cut the torn tail: the first `size` bytes to game.tmp, renamed over game.jsonl."""
    src = journal.open(journal.path(GAME), "rb")
    dst = journal.open(journal.path(GAME + ".tmp"), "wb")
    mv = memoryview(journal.buf)
    while size > 0:
        k = src.readinto(mv[:min(size, len(mv))])
        if not k:
            raise JournalError("io", journal.path(GAME), None, "shorter than when it was read")
        dst.write(mv[:k])
        size -= k
    src.close()
    sync(dst)
    dst.close()
    replace(journal.path(GAME + ".tmp"), journal.path(GAME))
