"""What each game in the logbook came to: the plays that `chancery log stats`, `log chart` and
`log export --format plays` read.

A game's states are rebuilt by folding its stored events into the game's first
state (the game's own fold, as the engine does; nothing is decided again), so a
log the rules would refuse today still has a story. What a state or the events
mean is the game's own knowledge, asked through two host-only hooks of its show
module (docs/adding-a-game.md): `progress(state)` (the scores and table tracks a
chart draws) and `facts(events)` (the game's own facts, one per time it happened, counted here). A game
that declares them None still has its plays, wins and durations.

Players: a player is a seat's name (the logbook's players table, a name compared with
case ignored), or the seat itself ("seat 2") where it has none; `player_name` is the one
place that says so. "seat 2" of one evening and "seat 2" of the next are one player.
"""

import csv
import datetime

from chancery.logbook.store import END_EVENTS
from chancery.words import describe
from shared_rules import engine
from shared_rules.errors import RuleError

PLAYS_COLUMNS = ("date", "game", "player", "seat", "score", "winner", "duration_min", "logbook_id")


class NoStory(Exception):
    """A game's stored events cannot be folded into states (a redacted log, a game this version does
    not know): the sentence says which game and why."""


def player_name(seat, names=None):
    """How a player is named in stats, charts and exports: the seat's name (`names`: one per
    seat, None for a seat without one), else the seat itself ("seat 2")."""
    if names and seat < len(names) and names[seat]:
        return names[seat]
    return "seat %d" % seat


def players(chosen):
    """Every player of the plays `chosen`: the names (alphabetically, case ignored), then the
    seats without a name ("seat 0", "seat 1", ...)."""
    found = {}
    for p in chosen:
        for seat in range(p["seats"] or 0):
            name = player_name(seat, p["names"])
            found.setdefault(name.lower(), name)
    return sorted(found.values(), key=order)


def order(player):
    """Names first, alphabetically (case ignored), then the seats without a name in seat order."""
    word = player.lower()
    if word.startswith("seat ") and word[5:].isdigit():
        return (1, int(word[5:]), "")
    return (0, 0, word)


def parse_player(text, chosen):
    """The player a --player names among the plays `chosen`: a name (case ignored), or a seat
    without one ("seat 2", "2"); None when it names none of them."""
    word = text.strip().lower()
    if word.startswith("seat"):
        word = "seat " + word[4:].strip()
    elif word.isdigit():
        word = "seat " + word
    for player in players(chosen):
        if player.lower() == word:
            return player
    return None


def hooks(game):
    """The game's show module's (facts, progress) hooks; (None, None) for a game without a show module."""
    words = describe.words(game, "show")
    if words is None:
        return None, None
    return words.facts, words.progress


def states(header, entries):
    """The state before any entry, then after each (entries + 1 of them): one live state, folded on
    between yields, so a caller reads what it needs of each before asking for the next."""
    try:
        g = engine.game_module(header["game"])
        state = g.initial(engine.settings_for(g, header["settings"], recorded=True), header["seed"])
    except RuleError as e:
        raise NoStory("%s is not a game this version of chancery can follow (%s)" % (header["game"], e.code))
    yield state
    for i, entry in enumerate(entries):
        try:
            for ev in entry["events"]:
                engine.fold(g, state, ev)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
            raise NoStory("the stored events of %s cannot be followed at entry #%d (%s: %s)" % (
                header["game"], i + 1, type(e).__name__, e))
        yield state


def _seconds(stamp):
    return datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)


def play_of(book, game):
    """What one game of the logbook (a dict of Logbook.games()) came to:

    {"id", "game", "date" (when it was logged, UTC), "seats", "names" (per seat, None for a seat
     without one), "over" (its end event is stored), "ending", "winners", "scores" (per seat, or
     None: the game keeps none), "duration" (seconds from its first stored entry to its last, or
     None), "facts" ({fact: how often}, {} if none)}.
    The end event is read from the entries, not only the game's result, so a game an older logbook
    left open although its last event ended it counts as played.
    """
    rows = list(book.rows(game["id"]))
    names = book.names(game["id"])
    entries = [entry for _, entry, _ in rows]
    events = [ev for entry in entries for ev in entry["events"] if isinstance(ev, dict)]
    end = None
    for ev in events:
        if ev.get("t") in END_EVENTS:
            end = ev
    facts, progress = hooks(game["game"])
    scores = None
    if progress is not None and end is not None:
        header = {"game": game["game"], "settings": game["settings"], "seed": game["seed"]}
        try:
            for state in states(header, entries):
                pass
            scores = progress(state)["scores"]
        except NoStory:
            scores = None  # its plays and wins still count
    if scores is None and end is not None and isinstance(end.get("scores"), list) and \
            all(isinstance(x, int) for x in end["scores"]):
        scores = list(end["scores"])  # a game without the hook whose end event says its scores
    duration = None
    if len(rows) > 1:
        duration = (_seconds(rows[-1][2]) - _seconds(rows[0][2])).total_seconds()
    return {"id": game["id"], "game": game["game"], "date": game["created_at"], "seats": game["settings"].get(
            "players", len(scores or []) or None), "names": names, "over": end is not None,
            "ending": None if end is None else end.get("ending"),
            "winners": list(end.get("winners", [])) if end is not None else [],
            "scores": scores, "duration": duration, "facts": _counted(facts(events) if facts is not None else [])}


def _counted(facts):
    """{fact: how often} of the game's facts, one per time it happened."""
    out = {}
    for fact in facts:
        out[fact] = out.get(fact, 0) + 1
    return out


def plays(book, game=None):
    """play_of every game in the logbook (only those of `game` when given), oldest first."""
    return [play_of(book, g) for g in book.games() if game is None or g["game"] == game]


def write_plays_csv(chosen, out):
    """One row per seat of each finished play (PLAYS_COLUMNS), for a spreadsheet or a play-logging app:
    date (YYYY-MM-DD HH:MM, UTC), game, player, seat, score (empty: the game keeps none), winner (1 or
    0), duration in whole minutes (empty if unknown), and the game's id in the logbook. The player is the
    seat's name, or "seat N" where it has none. Returns the rows."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(PLAYS_COLUMNS)
    n = 0
    for p in chosen:
        if not p["over"]:
            continue
        for seat in range(p["seats"] or 0):
            score = "" if p["scores"] is None or seat >= len(p["scores"]) else p["scores"][seat]
            minutes = "" if p["duration"] is None else int(round(p["duration"] / 60.0))
            w.writerow((p["date"][:10] + " " + p["date"][11:16], p["game"], player_name(seat, p["names"]), seat, score,
                        1 if seat in p["winners"] else 0, minutes, p["id"]))
            n += 1
    return n
