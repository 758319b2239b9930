"""What every game's host-only words share (show.py and narrate.py in each game's folder).

Host only, never on a board (the deploy leaves it out, with the games' show and narrate
modules: host/chancery/board/micropython.py HOST_ONLY). A leaf: nothing it imports imports
it back. Seats are "seat 0".. as in the core's own messages.
"""

from shared_rules import canon, engine


def fit(parts, width=100):
    """Parts joined by ' | ', on as few lines of at most `width` columns as they fit."""
    out = [parts[0]]
    for p in parts[1:]:
        if len(out[-1]) + 3 + len(p) > width:
            out.append("  " + p)
        else:
            out[-1] += " | " + p
    return out


def wrap(line, width=100, indent="    "):
    """A long line broken at spaces into lines of at most `width` columns (a word longer
    than that stands alone), each after the first indented by `indent`."""
    out = []
    cur = ""
    for w in line.split(" "):
        if not w:
            continue
        if cur and len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = indent + w
        else:
            cur = cur + " " + w if cur else w
    if cur:
        out.append(cur)
    return out


def cap(text):
    return text[:1].upper() + text[1:]


def seat(s):
    return "nobody" if s is None else "seat %d" % s


def seats(lst):
    return ", ".join([seat(s) for s in lst]) or "nobody"


def data_status(view):
    """A game without words of its own: its scalar fields on one line, its lists on the next."""
    plain = ["%s %s" % (k, canon.encode(view[k])) for k in sorted(view)
             if k not in ("game", "settings") and not isinstance(view[k], (list, dict))]
    lists = ["%s %s" % (k, canon.encode(view[k])) for k in sorted(view)
             if k not in ("game", "settings") and isinstance(view[k], list)]
    return " | ".join(plain) + "\n" + " | ".join(lists)


def data_full(view, prompt_line):
    """A game without words of its own: its public view field by field (sorted), then where it stands."""
    lines = ["%s: %d seats" % (view.get("game", "?"), view["settings"]["players"])]
    for key in sorted(view):
        if key not in ("game", "settings"):
            lines.append("%s: %s" % (key, canon.encode(view[key])))
    lines.append("Now: " + prompt_line)
    return "\n".join(lines)


def data(ev):
    """An event as data: one that no sentence knows, or that its state refuses."""
    return "(%s)" % canon.encode(ev)


def ballot(before, ev):
    """The sealed ballot's events, in any game (shared_rules/ballot.py)."""
    t = ev["t"]
    if t == "ballot_opened":
        return "Ballot %d: %s (%s); voting: %s." % (ev["n"], ev["question"], " / ".join(ev["options"]),
                                                     seats(ev["voters"]))
    if t == "ballot_voted":
        return "%s has voted." % cap(seat(ev["seat"]))
    if t == "ballot_closed":
        return "The ballot is closed."
    if t == "ballot_set_aside":
        return "Ballot %d is set aside: no vote is held on it, and its votes count for nothing." % ev["n"]
    b = before["ballot"]
    amounts = ev.get("amounts") or [None] * len(ev["choices"])  # a counted option's secret count
    said = ["%s %s%s" % (seat(s), _choice(c), "" if a is None else " (%d)" % a)
            for s, c, a in zip(b["voters"], ev["choices"], amounts)]
    return "Revealed: %s. Counts: %s." % (", ".join(said), ", ".join(
        ["%s %d" % (o, n) for o, n in zip(b["options"], ev["counts"])]))


def _choice(c):
    """A revealed choice: an option, a list of them (a multi ballot), or None (no vote)."""
    if c is None:
        return "(no vote)"
    if isinstance(c, list):
        return " + ".join(c) or "(none)"
    return c


def each(game, before, events, one, generic=data, ballot_line=None):
    """The sentences of a game narrated event by event: one(state before, state after, event)
    for the game's own events, ballot_line(state, event) for the sealed ballot's (by default
    ballot), generic(event) for an event the fold refuses (the state then stays as it
    was). Each event is folded onto a copy, so `before` is never modified."""
    g = engine.game_module(game)
    state = canon.copy(before)
    out = []
    for ev in events:
        nxt = canon.copy(state)
        try:
            engine.fold(g, nxt, canon.copy(ev))  # fold keeps the event's lists: never the log's own
            out.append((ballot_line or ballot)(state, ev) if ev["t"][:7] == "ballot_" else one(state, nxt, ev))
            state = nxt
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, ZeroDivisionError):
            out.append(generic(ev))
    return out


def playing(name, settings):
    """What is played, in one line: the game's name and its seats."""
    n = settings["players"]
    return "%s for %d seats (seat 0 to seat %d)." % (name, n, n - 1)
