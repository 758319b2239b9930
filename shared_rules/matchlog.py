"""Match logs: replay with verification, undo, and the log part of a match.

Replay re-runs every action through the rules and compares the recorded
events and digests, so a log whose events or digests were edited is caught at
the first entry that differs. Undo is truncate-and-replay.
"""

from shared_rules import canon
from shared_rules.engine import apply, new_match
from shared_rules.errors import LogError, RuleError


def _header_field(log, name, kinds):
    if name not in log:
        raise LogError(None, "the log has no %r" % name)
    value = log[name]
    if not isinstance(value, kinds) or value is True or value is False:
        raise LogError(None, "the log's %r has the wrong type" % name)
    return value


def replay(log, upto=None):
    """Rebuild a match from a log (a match dict without "state", or with it).

    Checks the header, re-runs every action through the rules and compares
    the events and digests recorded. Raises LogError naming the first entry
    that differs and why. `upto` replays only the first `upto` entries.
    """
    if not isinstance(log, dict):
        raise LogError(None, "a log is an object with game, settings, seed and entries")
    game = _header_field(log, "game", str)
    settings = log.get("settings", {})
    seed = _header_field(log, "seed", int)
    entries = _header_field(log, "entries", list)
    try:
        match = new_match(game, settings, seed)
    except RuleError as e:
        raise LogError(None, e.message)
    if "start" in log and log["start"] != match["start"]:
        raise LogError(None, "the start digest %r does not match the settings and seed (expected %s)" % (
            log["start"], match["start"]))
    if "format" in log and log["format"] != 1:
        raise LogError(None, "log format %r is not one this version reads (1)" % (log["format"],))
    if upto is not None:
        entries = entries[:upto]
    for i in range(len(entries)):
        entry = entries[i]
        if not isinstance(entry, dict) or "action" not in entry or "events" not in entry or "digest" not in entry:
            raise LogError(i, "an entry is an object with an action, its events and a digest")
        try:
            got = apply(match, entry["action"])
        except RuleError as e:
            raise LogError(i, "the action is refused by the rules: " + e.message)
        if canon.encode(entry["events"]) != canon.encode(got["events"]):
            raise LogError(i, "the recorded events differ from what the rules produce")
        if entry["digest"] != got["digest"]:
            raise LogError(i, "state digest %r does not match the replayed state (%s)" % (
                entry["digest"], got["digest"]))
    return match


def undo(match, count=1):
    """A new match with the last `count` entries taken back (truncate and replay)."""
    if count < 0 or count > len(match["entries"]):
        raise RuleError("bad_undo", "can undo 0 to %d entries (asked %r)" % (len(match["entries"]), count))
    return replay(match, len(match["entries"]) - count)


def log_of(match):
    """The log part of a match (everything but the derived state)."""
    out = {}
    for key in match:
        if key != "state":
            out[key] = match[key]
    return out
