"""Scenario files: a game, its settings and seed, an action list, what must follow.

The same files are replayed by the tests under CPython and under MicroPython
(and by `chancery replay`), so this module is the one place that knows the
format. A scenario is JSON Lines (`.jsonl`, like a match log): a header
object, then one action item per line; '#' lines are comments. As one JSON
object (`.json`) it reads:

    {"name": "...", "source": "chancellors.txt L37", "doc": "...",
     "game": "chancellors", "settings": {"players": 3}, "seed": 1,
     "actions": [
        {"type": "roll", "values": [3, 4, 1, 1], "source": "manual"},
        {"action": {"type": "solve", ...}, "reject": "wrong_suit"},
        {"action": {"type": "pass"}, "expect": {"scores": [0, 5, 0]}}
     ],
     "expect": {"step": "over", "winners": [0]},     # fields of the public view
     "digest": "0a1b2c3d"}                          # optional: final state digest

An item with "action" may add "reject" (the rule error code it must raise,
the state unchanged) and "expect" (view fields that must hold after it).
`run` keeps no log in memory: it streams each entry to `on_entry`.
"""

from shared_rules import canon, engine, games
from shared_rules.errors import RuleError
from shared_rules.jsonlines import read_lines  # noqa: F401  (scenario.read_lines, as before)


def _item(raw):
    if isinstance(raw, dict) and "action" in raw and "type" not in raw:
        return raw["action"], raw.get("reject"), raw.get("expect")
    return raw, None, None


def mismatches(expect, seen, where):
    """Describe every field of `expect` that differs in the view `seen`."""
    out = []
    for key in sorted(expect):
        if key not in seen:
            out.append("%s: no field %r in the view" % (where, key))
        elif canon.encode(expect[key]) != canon.encode(seen[key]):
            out.append("%s: %s is %s, expected %s" % (
                where, key, canon.encode(seen[key]), canon.encode(expect[key])))
    return out


def run(sc, on_entry=None):
    """Replay a scenario held as one dict (see run_stream)."""
    return run_stream(sc, sc.get("actions", ()), on_entry)


def run_stream(sc, actions, on_entry=None):
    """Replay a scenario. Returns (final state, list of failure texts).

    `sc` holds the header fields (game, settings, seed, expect, digest) and
    `actions` is any iterable of action items. on_entry(index, action,
    events, digest) is called for each accepted action, and on_entry(index,
    action, None, error_code) for each refused one.
    """
    failures = []
    match = engine.new_match(sc["game"], sc.get("settings"), sc.get("seed", 0))
    state = match["state"]
    game = match["game"]
    last = match["start"]
    del match
    i = -1
    for raw in actions:
        i += 1
        act, reject, expect = _item(raw)
        where = "action %d" % i
        try:
            act, events, state, last = engine.step(game, state, act, last)
        except RuleError as e:
            if on_entry:
                on_entry(i, act, None, e.code)
            if reject is None:
                failures.append("%s refused: %s: %s" % (where, e.code, games.message(e)))
            elif reject != e.code:
                failures.append("%s refused with %s, expected %s (%s)" % (where, e.code, reject, games.message(e)))
            continue
        if on_entry:
            on_entry(i, act, events, last)
        if reject is not None:
            failures.append("%s was accepted, expected refusal %s" % (where, reject))
        if expect:
            failures.extend(mismatches(expect, engine.game_module(game).view(state, None), where))
    if sc.get("expect"):
        failures.extend(mismatches(sc["expect"], engine.game_module(game).view(state, None), "at the end"))
    if sc.get("digest") and sc["digest"] != canon.digest(state):
        failures.append("final digest is %s, expected %s" % (canon.digest(state), sc["digest"]))
    return state, failures
