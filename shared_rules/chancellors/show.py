"""Chancellors' public state as text: a compact status for the prompt and the mirror,
a full one for `chancery replay` (host only: docs/adding-a-game.md).

Works on the public view (matches.view(match, None)).
"""

from shared_rules.wording import seat, seats

SERVICES = tuple([("diplomatic", "Diplomatic corps"), ("army", "Army"), ("navy", "Navy")])
SHORT = {"diplomatic": "Diplomatic", "army": "Army", "navy": "Navy"}

# How the terminal game (host/chancery/play/game.py) shows an action typed: its help's examples
EXAMPLES = {
    "roll": ["roll", "roll 3 4 1 1 5 6"],
    "reveal": ["reveal Merchant, Windfall, Cave", "reveal 9 Merchant, Crown of Knots, 7 Cave"],
    "assign": ["assign diplomatic=2 army=- navy=0"],
    "solve": ["solve 2 Castle Mountain"],
    "solve_part": ["part 1 Ace of Moons aside 0"],
    "pass": ["pass", "pass abdicate"],
    "excuse": ["excuse 2", "excuse -"],
    "score": ["score 1 -5 fix a misentry", "score seat=0 amount=3 reason=\"house rule\""],
    "die": ["die 2 1 5 misread"],
    "service": ["service army 2 fix a misentry", "service navy - house rule"],
}
CARD_FORMS = ('Cards: a name ("Castle"), its start ("Cas"), "7 Castle", "Crown of Knots", "Ace of Moons", '
              '"9 Leaves/Knots"; case does not matter.')

def _pending(view):
    if view.get("step") != "roll":
        return []
    return [tuple(x) for x in view.get("pending", [])]


def problem(view, p):
    """'3-4', '?-?' (waiting for a roll) and a marker if solved or part solved this turn."""
    pend = _pending(view)
    dice = view["problems"][p]
    faces = ["?" if (p, d) in pend else str(dice[d]) for d in (0, 1)]
    text = "-".join(faces)
    solved = view["solved"][p]
    if solved == "full":
        text += " solved"
    elif solved == "part":
        aside = view["aside"][p]
        text += " part" + (" (die %d aside)" % aside if aside >= 0 else "")
    return text


def scores_text(view):
    return ", ".join(["seat %d: %d" % (s, v) for s, v in enumerate(view["scores"])])


def control_text(view, short=False):
    names = SHORT if short else dict(SERVICES)
    return ", ".join(["%s: %s" % (names[k], seat(view["control"][k])) for k, _ in SERVICES])


def problems_text(view):
    return "   ".join(["%d: %s" % (p, problem(view, p)) for p in range(len(view["problems"]))])


def status(view):
    """Two short lines for the play prompt (and the mirror's state panel)."""
    line = "Scores %s | %s" % (scores_text(view), control_text(view, short=True))
    if view["settings"].get("extended"):
        line += " | Excuse: %s" % seat(view.get("excuse"))
    return line + "\nProblems  " + problems_text(view)


def ending(view):
    if view.get("step") != "over":
        return ""
    w = view.get("winners", [])
    if view.get("ending") == "catastrophe":
        how = "catastrophe, a 6-6 problem escalated: the lowest score wins"
    else:
        how = "the target was reached: the highest score wins"
    return "Game over (%s). Winner%s: %s." % (how, "s" if len(w) > 1 else "", seats(w))


def full(view, prompt_line):
    """The multi-line form printed by `chancery replay`."""
    st = view["settings"]
    lines = [
        "Chancellors: %d seats, target %d%s" % (st["players"], st["target"],
                                                ", extended deck" if st.get("extended") else ""),
        "Turn %d, step %s" % (view["turn"], view["step"]),
        "Scores:   " + scores_text(view),
        "Services: " + control_text(view),
    ]
    if st.get("extended"):
        lines.append("Excuse:   " + seat(view.get("excuse")))
    lines.append("Problems:")
    for p in range(len(view["problems"])):
        lines.append("  %d: %s" % (p, problem(view, p)))
    if view.get("played"):
        lines.append("Cards played this turn: " + ", ".join(view["played"]))
    if view.get("step") == "over":
        lines.append(ending(view))
    else:
        lines.append("Now: " + prompt_line)
    return "\n".join(lines)


def actor(state):
    """The seat whose turn it is (the terminal game's prompt): the head of step B's or C's queue."""
    if state.get("step") in ("B", "C") and state.get("queue"):
        return state["queue"][0][0]
    return None


def heading(settings):
    """What is played, in one line (the terminal game's first)."""
    return "Chancellors for %d seats (seat 0 to seat %d), target %d%s." % (
        settings["players"], settings["players"] - 1, settings["target"],
        ", extended deck" if settings.get("extended") else "")


# --- the logbook's hooks (host only: `chancery log stats` and `chancery log chart`) ---

def facts(events):
    """What one play came to beyond its scores, from all its events in order: a fact in words for
    each time it happened (`chancery log stats` counts them over the plays): how the game ended."""
    return [f for f in map(_fact, events) if f]


def _fact(ev):
    if ev.get("t") == "end":
        return "catastrophe (a 6-6 problem escalated)" if ev.get("ending") == "catastrophe" else \
            "ended at the target score"
    return None


def progress(state):
    """What a chart draws after each entry: every seat's score, no table track, the turn, and the
    target score that ends the game."""
    return {"scores": list(state["scores"]), "tracks": [], "round": ["turn", state["turn"]],
            "target": state["settings"]["target"]}
