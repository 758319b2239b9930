"""Chancellors' public state as text: a compact status for the prompt, a full one for replay.

The King's Dilemma's is in show_kings_dilemma.py, The Council's in show_the_council.py,
Yes, Your Grace's in show_yes_your_grace.py; any other game reads as data.

Works on the public view (matches.view(match, None)); seats are "seat 0".. as
in the core's own messages.
"""

from shared_rules import canon

SERVICES = (("diplomatic", "Diplomatic corps"), ("army", "Army"), ("navy", "Navy"))
SHORT = {"diplomatic": "Diplomatic", "army": "Army", "navy": "Navy"}


def fit(parts, width=100):
    """Parts joined by ' | ', on as few lines of at most `width` columns as they fit."""
    out = [parts[0]]
    for p in parts[1:]:
        if len(out[-1]) + 3 + len(p) > width:
            out.append("  " + p)
        else:
            out[-1] += " | " + p
    return out


def seat(s):
    return "nobody" if s is None else "seat %d" % s


def seats(lst):
    return ", ".join([seat(s) for s in lst]) or "nobody"


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
    if view.get("game") == "kings_dilemma":
        from chancery import show_kings_dilemma

        return show_kings_dilemma.status(view)
    if view.get("game") == "the_council":
        from chancery import show_the_council

        return show_the_council.status(view)
    if view.get("game") == "yes_your_grace":
        from chancery import show_yes_your_grace

        return show_yes_your_grace.status(view)
    if view.get("game") != "chancellors":
        return generic_status(view)
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


def generic_status(view):
    """Any other game: its scalar fields on one line, its lists on the next (public view only)."""
    plain = ["%s %s" % (k, canon.encode(view[k])) for k in sorted(view)
             if k not in ("game", "settings") and not isinstance(view[k], (list, dict))]
    lists = ["%s %s" % (k, canon.encode(view[k])) for k in sorted(view)
             if k not in ("game", "settings") and isinstance(view[k], list)]
    return " | ".join(plain) + "\n" + " | ".join(lists)


def generic(view, prompt_line):
    """Any other game's public view, field by field (sorted), then where it stands."""
    lines = ["%s: %d seats" % (view.get("game", "?"), view["settings"]["players"])]
    for key in sorted(view):
        if key not in ("game", "settings"):
            lines.append("%s: %s" % (key, canon.encode(view[key])))
    lines.append("Now: " + prompt_line)
    return "\n".join(lines)


def full(view, prompt_line):
    """The multi-line form printed by `chancery replay`."""
    if view.get("game") == "kings_dilemma":
        from chancery import show_kings_dilemma

        return show_kings_dilemma.full(view, prompt_line)
    if view.get("game") == "the_council":
        from chancery import show_the_council

        return show_the_council.full(view, prompt_line)
    if view.get("game") == "yes_your_grace":
        from chancery import show_yes_your_grace

        return show_yes_your_grace.full(view, prompt_line)
    if view.get("game") != "chancellors":
        return generic(view, prompt_line)
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
