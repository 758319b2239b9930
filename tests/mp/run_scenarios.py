"""Replay scenario files and print a canonical transcript (CPython and MicroPython).

    micropython run_scenarios.py PATH [PATH ...]

A PATH is a scenario file or a directory searched recursively for *.jsonl
and *.json (in sorted order): a .jsonl scenario (header line, then one action
item per line) is streamed line by line; a .json one is read whole. For each scenario the transcript has a header line,
then for each action index either "I DIGEST EVENTS" (EVENTS in the canonical
encoding of shared_rules.canon) or "I refused CODE", then the final state
digest, every failure, and "ok" or "FAILED n". The tests compare this text
byte for byte between CPython and MicroPython. Exit status 1 if any scenario
has failures (or cannot be read). Nothing but the current scenario is kept in
memory, and each line is written as soon as it is known.
"""

import gc
import json
import os
import sys

from shared_rules import canon, engine, jsonlines
from shared_rules.errors import RuleError

_DIR = 0x4000  # S_IFDIR in os.stat()[0]; MicroPython has no os.path


def _is_dir(path):
    try:
        return (os.stat(path)[0] & _DIR) != 0
    except OSError:
        return False


def scenario_files(paths):
    """Every scenario file named by `paths` (files as given, directories walked), sorted."""
    out = []
    for path in paths:
        if _is_dir(path):
            base = path.rstrip("/")
            found = []
            for name in os.listdir(base):
                if name.startswith("."):
                    continue
                full = base + "/" + name
                if _is_dir(full):
                    found.extend(scenario_files([full]))
                elif name.endswith(".jsonl") or name.endswith(".json"):
                    found.append(full)
            out.extend(sorted(found))
        else:
            out.append(path)
    return out


def _short(path):
    """The last two parts of a path (game folder and file): independent of where it lives."""
    parts = path.split("/")
    return "/".join(parts[-2:])


def transcript(path, write):
    """Replay one scenario file, writing its transcript; returns the number of failures."""
    write("scenario %s\n" % _short(path))
    try:
        f = open(path)
    except OSError as e:
        write("failure: cannot open the scenario: %s\n" % e)
        write("FAILED 1\n")
        return 1
    try:
        return _replay(f, path.endswith(".jsonl"), write)
    finally:
        f.close()


def _replay(f, lines, write):
    try:
        if lines:
            sc, items = jsonlines.read_lines(f)
        else:
            sc = json.load(f)
            items = sc.get("actions", [])
    except ValueError as e:
        write("failure: cannot read the scenario: %s\n" % e)
        write("FAILED 1\n")
        return 1
    # Only the event stream and the digests: the expectations are checked on
    # CPython (tests/rules/test_chancellors_rules.py), so this side keeps nothing
    # but the current state in RAM, and the transcripts must match byte for byte.
    try:
        game = sc["game"]
        match = engine.new_match(game, sc.get("settings"), sc.get("seed", 0))
        state, last, match = match["state"], match["start"], None
        index = 0
        for item in items:
            if "action" in item and "type" not in item:
                item = item["action"]
            try:
                item, events, state, last = engine.step(game, state, item, last)
            except RuleError as e:
                write("%d refused %s\n" % (index, e.code))
            else:
                # the entry's digest and the whole state's: both the same on both interpreters
                write("%d %s %s " % (index, last, canon.digest(state)))
                canon.dump(events, write)  # streamed: no whole-line string on a small heap
                write("\n")
            item = events = None
            index += 1
    except Exception as e:  # a crash in the rules is a failure to report, not to hide
        write("failure: the scenario crashed: %s: %s\n" % (type(e).__name__, e))
        write("FAILED 1\n")
        return 1
    write("final %s\nok\n" % canon.digest(state))
    return 0


def main(paths):
    if not paths:
        sys.stdout.write("usage: run_scenarios.py PATH [PATH ...]\n")
        return 2
    if hasattr(gc, "threshold"):  # collect as the board does (firmware/boot.py's _GC_EVERY)
        gc.threshold(8 * 1024)
    failed = 0
    write = sys.stdout.write
    for path in scenario_files(paths):
        if transcript(path, write):
            failed += 1
        if sys.implementation.name == "micropython":
            gc.collect()
    write("scenarios failed: %d\n" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
