"""What the two power-cut runners share (lfs_journal.py: the journal's file on littlefs;
flash_journal.py: the raw flash log): a game journalled the board's way, and the check that a
resumed game plays on to its end with every entry as it was. MicroPython and CPython alike."""

import json

from shared_rules import engine


def play(actions, j, state, count, digests, on_ack=None, upkeep=False):
    """Journal ACTIONS from action `count` on; returns the final state. digests collects each
    entry's digest; on_ack(n) follows the acknowledgements; upkeep: j.tidy() after each entry,
    the work Table.idle() does once the LEDs show it."""
    f = open(actions)
    header = json.loads(f.readline())
    n = 0
    while True:
        line = f.readline()
        if not line:
            break
        if n >= count:
            act, events, state, digest = engine.step(header["game"], state, json.loads(line), j.last)
            if len(digests) <= n:
                digests.append(digest)
            j.append(n, {"action": act, "events": events, "digest": digest}, state)
            if on_ack:
                on_ack(n)
            if upkeep:
                j.tidy()
        n += 1
    f.close()
    return state


def goes_on(actions, j, state, count, digests, reopen, where, untorn=False):
    """Play the resumed game (journal j, `count` entries) to its end, then resume it again
    from reopen(): every entry must be the one first played. untorn: the last resume must
    also have cut nothing. Returns `where` with " ok" or " FAIL: why"."""
    play(actions, j, state, count, digests)
    j.close()
    j = reopen()
    header, state, count = j.resume()
    n = 0
    for index, entry in enumerate(j.entries()):
        if entry["digest"] != digests[index]:
            return where + " FAIL: entry %d differs after the game went on" % index
        n += 1
    j.close()
    if count != len(digests) or n != count or j.last != digests[-1] or (untorn and j.cut):
        return where + " FAIL: the game did not go on to its end"
    return where + " ok"
