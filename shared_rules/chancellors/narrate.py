"""Chancellors' events in plain words (host only: docs/adding-a-game.md).

lines(before, events) folds the events one by one onto a copy of the state they
followed, so every sentence can name the dice and holders as they were at that
moment. An event type this module does not know is shown as data, never dropped.
"""

from shared_rules import canon, decktet, engine
from shared_rules.chancellors import NAME
from shared_rules.wording import ballot, cap, seat

TITLE = {"diplomatic": "the Diplomatic corps", "army": "the Army", "navy": "the Navy"}
WHY = {
    "only": "the only card for it",
    "highest": "highest card",
    "lower_score": "equal rank, lower score",
}


def _dice(state, p):
    a, b = state["problems"][p]
    return "%d-%d" % (a, b)


def _points(n):
    return "1 point" if n == 1 else "%d points" % n


def _cards(cards):
    return ", ".join([decktet.label(c) for c in cards])


def _dice_line(state, group):
    """One sentence for a run of die events (folded already into `state`)."""
    source = group[0]["source"]
    how = {"board": "the board rolls", "manual": "dice read from the table",
           "smart": "smart dice"}.get(source, source)
    parts, done = [], []
    for ev in group:
        p = ev["problem"]
        if p in done:
            continue
        mine = [e for e in group if e["problem"] == p]
        if len(mine) == 2:
            parts.append("problem %d is %s" % (p, _dice(state, p)))
        else:
            parts.append("problem %d die %d rolls %d (now %s)" % (p, mine[0]["die"], mine[0]["value"],
                                                                 _dice(state, p)))
        done.append(p)
    return "Dice (%s): %s." % (how, "; ".join(parts))


def _control(before, ev):
    service, who, why = ev["service"], ev["seat"], ev["why"]
    had = before["control"][service]
    name = TITLE[service]
    if why == "unchanged":
        if who is None:
            return "Nobody played a card for %s: it stays uncontrolled." % name
        return "Nobody else played a card for %s: it stays with %s." % (name, seat(who))
    if why == "tie":
        return "%s becomes uncontrolled (equal cards, equal scores)." % cap(name)
    if why == "assigned":
        if who is None:
            return "Nobody controls %s." % name
        return "%s controls %s." % (cap(seat(who)), name)
    verb = "keeps" if had == who else "takes"
    return "%s %s %s (%s)." % (cap(seat(who)), verb, name, WHY.get(why, why))


def _step(before, after, ev):
    step, queue = ev["step"], ev["queue"]
    if step == before["step"] and not queue:
        return "No problem is left to solve this turn: the remaining chances lapse."
    if step == "B":
        if not queue:
            return "Step B: nobody controls a service."
        return "Step B, solving with control: " + ", ".join(
            ["%s (%s)" % (seat(s), TITLE[svc][4:]) for s, svc in queue]) + "."
    if step == "C":
        if not queue:
            if all(x != "" for x in after["solved"]):
                return "Step C: every problem is already solved this turn."
            return "Step C: every seat controls a service, so nobody solves without help."
        return "Step C, solving without help: " + ", ".join([seat(s) for s, _ in queue]) + "."
    return "Step %s." % step


def _solve(before, ev):
    p = ev["problem"]
    who = cap(seat(ev["seat"]))
    help_ = ev["help"]
    if help_ == "service" and before["queue"]:
        with_ = "with " + TITLE.get(before["queue"][0][1], "a service")
    elif help_ == "excuse":
        with_ = "with the Excuse"
    else:
        with_ = "without help"
    if ev["part"]:
        d = ev["aside"]
        return "%s solves part of problem %d (%s) for %s %s, playing %s; die %d (%d) is set aside." % (
            who, p, _dice(before, p), _points(ev["points"]), with_, _cards(ev["cards"]), d, before["problems"][p][d])
    return "%s solves problem %d (%s) wholly for %s %s, playing %s." % (
        who, p, _dice(before, p), _points(ev["points"]), with_, _cards(ev["cards"]))


def _why(ev):
    return " (%s)" % ev["reason"] if ev.get("reason") else ""


def _score(after, ev):
    n = ev["amount"]
    return "%s %s %s%s: now %d." % (cap(seat(ev["seat"])), "gains" if n > 0 else "loses", _points(abs(n)), _why(ev),
                                    after["scores"][ev["seat"]])


def _die_set(before, after, ev):
    p = ev["problem"]
    return "Problem %d die %d is set to %d%s: %s -> %s." % (p, ev["die"], ev["value"], _why(ev), _dice(before, p),
                                                            _dice(after, p))


def _service(before, after, ev):
    name, who = TITLE[ev["service"]], ev["seat"]
    had = before["control"][ev["service"]]
    if who is None:
        text = "%s goes back to the middle of the table, from %s%s." % (cap(name), seat(had), _why(ev))
    else:
        text = "%s now controls %s, from %s%s." % (cap(seat(who)), name, "the middle" if had is None else seat(had),
                                                   _why(ev))
    if "queue" in ev:  # step B: the chance not yet taken went with it (ruling X5)
        chance = [s for s, svc in after["queue"] if svc == ev["service"]]
        text += " Its chance this turn %s." % ("goes to %s" % seat(chance[0]) if chance else "lapses")
    return text


def _end(before, ev):
    scores = before["scores"]
    winners = ", ".join(["%s (%s)" % (seat(s), _points(scores[s])) for s in ev["winners"]])
    if ev["ending"] == "catastrophe":
        p = ev.get("problem")
        where = "problem %d was 6-6 and escalated" % p if p is not None else "a 6-6 problem escalated"
        return ("CATASTROPHE: %s. The King sacks his counsellors; the lowest score wins. Winner%s: %s." % (
            where, "s" if len(ev["winners"]) > 1 else "", winners))
    return "The target is reached: the game ends. Winner%s: %s." % (
        "s" if len(ev["winners"]) > 1 else "", winners)


def _one(before, after, ev):
    t = ev["t"]
    if t == "turn":
        return "--- Turn %d: step A, every seat plays a card for control ---" % ev["turn"]
    if t == "control":
        return _control(before, ev)
    if t == "step":
        return _step(before, after, ev)
    if t == "solve":
        return _solve(before, ev)
    if t == "pass":
        if ev["abdicate"]:
            return "%s passes and abdicates %s." % (cap(seat(ev["seat"])), TITLE[ev["abdicate"]])
        return "%s passes." % cap(seat(ev["seat"]))
    if t == "excuse":
        if ev.get("why") == "used":
            return "The Excuse passes to %s." % seat(ev["seat"])
        return "The Excuse is now held by %s." % seat(ev["seat"])
    if t == "await_roll":
        dice = ", ".join(["problem %d die %d" % (p, d) for p, d in ev["dice"]])
        if ev["for"] == "partial":
            return "Step D: reroll the dice set aside: %s." % dice
        if ev["for"] == "solved":
            return "Step D: reroll the dice of the solved problems: %s." % dice
        return "Roll: %s." % dice
    if t == "escalate":
        return "Problem %d escalates: %s -> %s." % (ev["problem"], _dice(before, ev["problem"]),
                                                    _dice(after, ev["problem"]))
    if t == "score":
        return _score(after, ev)
    if t == "die_set":
        return _die_set(before, after, ev)
    if t == "service":
        return _service(before, after, ev)
    if t == "draw_cards":
        return "Step E: every seat draws three cards (hand limit six)."
    if t == "end":
        return _end(before, ev)
    return "(%s)" % canon.encode(ev)


def lines(before, events, action=None):
    """Plain sentences for `events`, which followed the state `before` (not modified): a run
    of dice, or of cards revealed, is one sentence."""
    g = engine.game_module(NAME)

    def fold(state, ev):
        engine.fold(g, state, canon.copy(ev))  # fold stores the event's lists in the state: keep the log's own

    state = canon.copy(before)
    out = []
    i = 0
    while i < len(events):
        ev = events[i]
        if ev["t"] == "die":
            group = []
            while i < len(events) and events[i]["t"] == "die" and events[i]["source"] == ev["source"]:
                fold(state, events[i])
                group.append(events[i])
                i += 1
            out.append(_dice_line(state, group))
            continue
        if ev["t"] == "played":
            group = []
            while i < len(events) and events[i]["t"] == "played":
                fold(state, events[i])
                group.append("%s %s" % (seat(events[i]["seat"]), decktet.label(events[i]["card"])))
                i += 1
            out.append("Revealed: " + ", ".join(group) + ".")
            continue
        prev = canon.copy(state)
        fold(state, ev)
        try:
            out.append(ballot(prev, ev) if ev["t"][:7] == "ballot_" else _one(prev, state, ev))
        except (KeyError, IndexError, TypeError):
            out.append("(%s)" % canon.encode(ev))
        i += 1
    return out
