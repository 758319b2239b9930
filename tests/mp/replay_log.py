"""Replay game logs (JSON lines, as playout.py --log writes them), streaming.

    micropython replay_log.py LOG.jsonl [LOG.jsonl ...]

For each log: the header line gives game, settings, seed and start digest;
every further line is one entry {action, events, digest}. Each action is run
through engine.step and its events and digest must come out as recorded. Only
one entry is in memory at a time, as on a board replaying its journal, so the
smallest heap this runs in is what the rules core itself needs for a game.

Prints one line per log ("seed=... actions=... digest=... crc=... ending=...
winners=... scores=...", the same fields as playout.py's line) or a line
starting "FAIL"; exit status 1 if any log fails. MicroPython-safe.
"""

import binascii
import gc
import json
import sys

from shared_rules import canon, engine
from shared_rules.errors import RuleError


def replay_file(path):
    """The summary line of one log, or a line starting with FAIL."""
    f = open(path)
    header = json.loads(f.readline())
    f.close()
    # load the game's modules before the log is open: MicroPython's GC is
    # conservative, and a fragmented heap would make the measure noisy
    gc.collect()
    game = header["game"]
    match = engine.new_match(game, header["settings"], header["seed"], True)  # recorded: a setting left out reads as logged
    gc.collect()
    f = open(path)
    try:
        f.readline()
        if match["start"] != header["start"]:
            return "FAIL %s: start digest %s, log says %s" % (path, match["start"], header["start"])
        state = match["state"]
        match = None
        last = header["start"]
        crc = 0
        n = 0
        while True:
            text = f.readline()
            if not text:
                break
            if text == "\n":
                continue
            entry = json.loads(text)
            text = None
            try:
                act, events, state, digest = engine.step(game, state, entry["action"], last)
            except RuleError as e:
                return "FAIL %s: entry %d refused: %s" % (path, n, e)
            if canon.digest(events) != canon.digest(entry["events"]):  # streamed: no whole-text strings
                return "FAIL %s: entry %d events differ" % (path, n)
            if digest != entry["digest"]:
                return "FAIL %s: entry %d digest %s, log says %s" % (path, n, digest, entry["digest"])
            entry = events = act = None  # noqa: F841  (drop references before the next entry: RAM)
            crc = binascii.crc32(digest.encode(), crc) & 0xFFFFFFFF
            last = digest
            n += 1
    finally:
        f.close()
    return "seed=%d players=%d ext=%d actions=%d digest=%s crc=%08x ending=%s winners=%s scores=%s" % (
        header["seed"], state["settings"]["players"], 1 if state["settings"]["extended"] else 0, n, last, crc,
        state["ending"] if state["step"] == "over" else "none", canon.encode(state["winners"]),
        canon.encode(state["scores"]))


def main(paths):
    failed = 0
    for path in paths:
        text = replay_file(path)
        if text.startswith("FAIL"):
            failed += 1
        sys.stdout.write(text + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
