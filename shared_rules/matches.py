"""Whole matches, as the host handles them: replay, undo, views, legal actions.

A board never loads this module: it journals each entry as it goes and calls
engine.step itself. The host keeps whole matches in memory and needs more:

- replay re-runs every action of a log through the rules and compares the
  recorded events and digests, so a log whose events or digests were edited
  is caught at the first entry that differs (LogError names it);
- undo is truncate-and-replay;
- view, legal, prompt and is_over answer for a match rather than a state.
"""

from shared_rules import canon, games
from shared_rules.engine import apply, game_module, new_match
from shared_rules.errors import RuleError


class LogError(Exception):
    """A match log that does not replay: names the entry and the reason."""

    def __init__(self, entry, reason):
        # entries numbered from 1 ("#3"), as `log show`, the mirror and the narration number them
        where = "header" if entry is None else "entry #%d" % (entry + 1) if isinstance(entry, int) else "entry " + str(entry)
        super().__init__(where + ": " + reason)
        self.entry = entry
        self.reason = reason


def try_apply(match, action):
    """(entry, None) or (None, error dict): for callers that answer errors as data."""
    try:
        return apply(match, action), None
    except RuleError as e:
        out = {"code": e.code, "message": games.message(e), "detail": e.detail}
        if e.allowed is not None:
            out["allowed"] = e.allowed
        return None, out


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
        match = new_match(game, settings, seed, recorded=True)  # a setting left out: as the log was played
    except RuleError as e:
        raise LogError(None, games.message(e))
    if "start" in log and log["start"] != match["start"]:
        raise LogError(None, "the start digest %r does not match the settings and seed (expected %s)" % (
            log["start"], match["start"]))
    fmt = log.get("format")  # None (a streamed log's header may leave it out): its first entry tells
    if fmt is not None and fmt != 1 and fmt != 2:
        raise LogError(None, "log format %r is not one this version reads (1 or 2)" % (fmt,))
    if upto is not None:
        entries = entries[:upto]
    for i in range(len(entries)):
        entry = entries[i]
        if not isinstance(entry, dict) or "action" not in entry or "events" not in entry or "digest" not in entry:
            raise LogError(i, "an entry is an object with an action, its events and a digest")
        try:
            got = apply(match, entry["action"])
        except RuleError as e:
            raise LogError(i, "the action is refused by the rules: " + games.message(e))
        if canon.encode(entry["events"]) != canon.encode(got["events"]):
            raise LogError(i, "the recorded events differ from what the rules produce: " + _first_difference(
                entry["events"], got["events"]))
        if fmt is None:
            fmt = 1 if entry["digest"] == canon.digest(match["state"]) else 2
        want = got["digest"] if fmt != 1 else canon.digest(match["state"])  # format 1: the state's own
        if entry["digest"] != want:
            raise LogError(i, "digest %r does not match the replayed entry (%s)" % (entry["digest"], want))
    return match  # in today's format: apply chained every entry's digest again


def _first_difference(recorded, produced):
    """Which event is the first to differ, in words: its number and both versions."""
    if not isinstance(recorded, list):
        return "the recorded events are not a list"
    for k in range(max(len(recorded), len(produced))):
        have = canon.encode(recorded[k]) if k < len(recorded) else "nothing"
        want = canon.encode(produced[k]) if k < len(produced) else "nothing"
        if have != want:
            return "event %d is %s where the rules give %s" % (k, have, want)
    return "they differ"


def undo(match, count=1):
    """A new match with the last `count` entries taken back (truncate and replay)."""
    if count < 0 or count > len(match["entries"]):
        raise RuleError("bad_undo", {"max": len(match["entries"]), "count": count})
    return replay(match, len(match["entries"]) - count)


def log_of(match):
    """The log part of a match (everything but the derived state)."""
    out = {}
    for key in match:
        if key != "state":
            out[key] = match[key]
    return out


def view(match, seat=None):
    """What `seat` (or the public, for None) may see of the current state."""
    return game_module(match["game"]).view(match["state"], seat)


def legal(match, seat=None):
    """The action schemas `seat` may use now, their domains narrowed to what is legal."""
    return game_module(match["game"]).legal(match["state"], seat)


def prompt(match):
    """One line: what the table is being asked now."""
    return game_module(match["game"]).prompt(match["state"])


def is_over(match):
    return game_module(match["game"]).is_over(match["state"])

