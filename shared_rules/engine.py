"""The match engine: actions in, events out, state = fold of events.

A *match* is the single source of truth, a plain dict:

    {"format": 1, "game": "chancellors", "settings": {...}, "seed": 7,
     "start": DIGEST0,
     "entries": [{"action": {...}, "events": [...], "digest": "1a2b3c4d"}, ...],
     "state": {...}}          # derived: the fold of every entry's events

`state` is a cache; everything else is the log. `start` is the digest of the
initial state; each entry's digest chains on the one before it (canon.chain: a
CRC of the previous digest, the canonical action and the events), so it costs
an entry's bytes, not the whole state's, and the full state digest is taken
only where a whole state is compared (a snapshot, a resync, the tests). Replay
re-runs every action through the rules and checks that the events and the
digests come out the same, so a tampered log is caught whether its events or
its digests were edited. Undo is truncate-and-replay: nothing is ever un-folded.
Format 1 logs (each digest the whole state's) still replay.

Every game module offers: NAME, SETTINGS, SCHEMAS, card_names(state),
initial(settings, seed), decide(state, action, emit), fold(state, event),
view(state, seat), legal(state, seat), prompt(state), is_over(state).
Actions and events named ballot_* belong to the sealed ballot that every game's
table may hold (shared_rules/ballot.py), not to the game.
"""

from shared_rules import canon, games
from shared_rules import schema as schemas
from shared_rules.errors import RuleError

FORMAT = 2  # 1: each entry's digest was its state's; 2: chained (canon.chain)


def game_module(name):
    try:
        return games.load(name)
    except KeyError:
        raise RuleError("unknown_game", {"game": name, "games": list(games.GAMES)}, list(games.GAMES))


def settings_for(g, given, recorded=False):
    """The game's settings: the defaults, overridden by `given` (validated).

    A setting with "absent" in its schema is a ruling a table decides where the seed is
    silent, added after games were logged without it; "absent" is the reading the core
    followed until then. Such a setting is kept out of the settings (and so out of the state,
    the header and the start digest) when its value is its absent one: a header without it
    means that reading, an old log replays unchanged, and a new match at that reading has
    the start digest it always had. The rules read it with schema.ruling. recorded=True:
    `given` is a recorded header (a log's, a journal's, a board's), where a key left out is
    that absent value, not the default (a ruling's default may be another reading, the one
    the seed's text favours)."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise RuleError("bad_setting", {"given": given})
    out = {}
    names = [s["name"] for s in g.SETTINGS]
    for key in given:
        if key not in names:
            raise RuleError("bad_setting", {"game": g.NAME, "unknown": key, "names": names}, names)
    players = 0
    for s in g.SETTINGS:
        name = s["name"]
        absent = s.get("absent")
        value = given[name] if name in given else absent if recorded and absent is not None else s["default"]
        try:  # players, checked first: a range that follows the seat count (schema.int_max) knows it
            schemas.check_value(name, s["domain"], value, players, ())
        except RuleError as e:
            raise RuleError("bad_setting", e.detail)
        if name == "players":
            players = value
        if absent is None or value != absent:  # a ruling's absent reading is not stored
            out[name] = value
    return out


def new_match(game, settings=None, seed=0, recorded=False):
    """A match of `game` from the start. recorded=True: `settings` is a recorded header's
    (a log replayed, a journal resumed, a board's welcome): see settings_for."""
    g = game_module(game)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RuleError("bad_seed", {"value": seed})
    s = settings_for(g, settings, recorded)
    state = g.initial(s, seed)
    return {"format": FORMAT, "game": g.NAME, "settings": s, "seed": seed,
            "start": canon.digest(state), "entries": [], "state": state}


def seats(state):
    return state["settings"]["players"]


def _ballot(kind):
    """shared_rules.ballot when `kind` (an action type or event tag) is one of its own,
    else None. Loaded on first use: a game without hidden votes never pays for it."""
    if isinstance(kind, str) and kind[:7] == "ballot_":
        from shared_rules import ballot

        return ballot
    return None


def fold(g, state, event):
    """Fold one event into state: the sealed ballot's own events, or the game's."""
    (_ballot(event.get("t")) or g).fold(state, event)


class Spoiled(Exception):
    """An in-place step failed after its first event had been folded in: the state it
    was given is no longer any state of the game. `cause` is the original exception
    (a RuleError the rules raised late, a MemoryError). The board reloads its journal."""

    def __init__(self, cause):
        super().__init__("the state was changed before the step failed")
        self.cause = cause


def decide(game, state, action, in_place=False):
    """(normalised action, events, new state) for an action.

    By default `state` is not touched: the events fold into a copy. in_place=True
    (the board: a copy of the state costs more than the rules on a Pico) folds them
    into `state` itself. Every game refuses before its first event, so a refusal
    leaves the state as it was either way; an exception after an event has been
    folded in raises Spoiled in place (the copy is simply dropped otherwise)."""
    g = game_module(game)
    rules = _ballot(action.get("type") if isinstance(action, dict) else None) or g
    try:
        act = schemas.check(action, rules.SCHEMAS, seats(state), g.card_names(state))
        work = state if in_place else canon.copy(state)
        events = []

        def emit(event):
            events.append(event)  # first: a fold that fails half-way still counts as a change
            fold(g, work, event)

        try:
            rules.decide(work, act, emit)
            if rules is not g and g.ballot is not None:  # a game whose own flow waits on a ballot
                g.ballot(work, act, emit)
        except Exception as e:
            if in_place and events:
                raise Spoiled(e)
            raise
    except RuleError as e:
        e.game = g.NAME  # whose texts render the message
        raise
    return act, events, work


def entry_digest(prev, act, events):
    """The digest of an entry that follows the digest `prev` (the match's start for the first)."""
    return canon.chain(prev, canon.encode(act), canon.encode(events))


def step(game, state, action, prev=None, in_place=False):
    """The pure core of the engine: (normalised action, events, new state, digest).

    `prev` is the digest before it: the last entry's, or the match's start (None:
    no digest is wanted, and None comes back). For callers that keep the log
    elsewhere (a board journals entries to flash and cannot hold a whole game's
    log in RAM). in_place: see decide().
    """
    act, events, work = decide(game, state, action, in_place)
    return act, events, work, None if prev is None else entry_digest(prev, act, events)


def last_digest(match):
    """The digest the next entry chains on: the last entry's, or the start."""
    entries = match["entries"]
    return entries[-1]["digest"] if entries else match["start"]


def apply(match, action):
    """Apply one action to a match; returns the new log entry.

    Raises RuleError and leaves the match exactly as it was if the action is
    malformed or illegal now.
    """
    act, events, work, digest = step(match["game"], match["state"], action, last_digest(match))
    entry = {"action": act, "events": events, "digest": digest}
    match["entries"].append(entry)
    match["state"] = work
    return entry
