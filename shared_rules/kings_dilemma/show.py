"""The King's Dilemma's public state as text: a compact panel for the prompt and the
mirror (show.status), a full one for `chancery replay` (show.full).

Works on the public view only (engine.game_module("kings_dilemma").view(state, None)):
the Power and Coins behind each House's screen are None there and are never read,
so nothing here can print them. A sealed ballot shows who has voted, never what.
"""

from shared_rules import wording
from shared_rules.kings_dilemma.texts import ENDINGS  # noqa: F401  (the core's words; narrate uses them too)
from shared_rules.wording import cap, fit

RESOURCES = ("Influence", "Wealth", "Morale", "Welfare", "Knowledge")
STEPS = {
    "roll": "setup: roll the Resource markers' Momentum",
    "vote": "Vote of the Council",
    "side": "Vote Resolution: tied, the Moderator decides",
    "leader": "Vote Resolution: the Moderator appoints the Leader",
    "outcome": "Dilemma Resolution: the winning outcome",
    "after": "Dilemma Resolution: records and the Time Counter",
    "over": "game over",
}
PASSED = {"gather": "passed, gathers", "moderate": "passed, Moderator"}
PASSED_WORDS = {"gather": "passed to gather", "moderate": "passed to become Moderator"}
SCORE_PARTS = ("Open Agendas", "Power bonus", "Coin bonus", "money ranking", "resource goal")

# the terminal game's help (host/chancery/play/game.py): none typed out for this game
EXAMPLES = {}
CARD_FORMS = ""


def house(s):
    return "nobody" if s is None else "House %d" % s


def houses(lst):
    return ", ".join([house(s) for s in lst]) or "nobody"


def power(n):
    return "1 Power" if n == 1 else "%d Power" % n


def side_word(side):
    return side.upper() if side in ("aye", "nay") else side


def momentum(side, marker):
    """'up', 'down+M' (with a Momentum marker), '?' before the roll."""
    if side == 0:
        return "?"
    return ("up" if side > 0 else "down") + ("+M" if marker else "")


def momentum_words(side, marker):
    if side == 0:
        return "Momentum not rolled yet"
    text = "Momentum white (up)" if side > 0 else "Momentum black (down)"
    return text + (", with a Momentum marker" if marker else "")


def balance(view):
    """(AYE, middle, NAY) Power on the Balance: committed Power is public."""
    aye = nay = 0
    for s in range(len(view["choice"])):
        if view["choice"][s] == "aye":
            aye += view["committed"][s]
        elif view["choice"][s] == "nay":
            nay += view["committed"][s]
    return aye, view["middle"], nay


def balance_text(view):
    return "AYE %d | middle %d | NAY %d" % balance(view)


def _sealed(view):
    """The open (unrevealed) sealed ballot, or None."""
    b = view.get("ballot")
    if b is None or b.get("result") is not None:
        return None
    return b


def house_fact(view, s, words=None):
    """A House's public facts this vote: its choice and committed Power (until cleanup
    returns it or moves it to the middle), and whether its side won."""
    c = view["choice"][s]
    if c in ("aye", "nay"):
        text = c.upper()
        if view["committed"][s]:
            text += " %d" % view["committed"][s] if words is None else ", %s committed" % power(view["committed"][s])
        if view["side"]:
            text += " (won)" if c == view["side"] else " (lost)"
        elif view["step"] == "vote" and view.get("turn") == s:
            text += ", to add or stay"
        return text
    if c in PASSED:
        return (words or PASSED)[c]
    b = _sealed(view)
    if b is not None and s in b["voters"]:
        return "voted (sealed)" if s in b["voted"] else "not voted"
    if view["step"] == "vote":
        return "to vote" if view.get("turn") == s else "not yet"
    return "-"


def _tags(view, s):
    tags = ""
    if view["leader"] == s:
        tags += " (Leader)"
    if view["moderator"] == s and view["choice"][s] != "moderate":
        tags += " (Moderator)"
    return tags


def tracks_text(view):
    return " | ".join(["%s %d %s" % (RESOURCES[r], view["resources"][r],
                                      momentum(view["momentum"][r], view["marker"][r])) for r in range(5)])


def stability_text(view):
    text = "Stability %d (0-%d)" % (view["stability"], view["settings"]["stability_track"] - 1)
    if view["abdicated"]:
        text += ", the King has abdicated (%s end)" % view["abdicated"]
    return text


def time_text(view):
    st = view["settings"]
    text = "Time Counter %d of %d (King's Death space %d)" % (min(view["placed"], st["death_space"]),
                                                             st["time_counter"], st["death_space"])
    if view["on_death"]:
        text += ", %d card%s on it" % (view["on_death"], "s" if view["on_death"] > 1 else "")
    return text


def ending(view):
    if view["step"] != "over":
        return ""
    w = view["winners"]
    best = view["scores"][w[0]][5] if w and view["scores"] else 0
    return "Game over: %s. Winner%s: %s (%d AP)." % (ENDINGS.get(view["ending"], view["ending"]),
                                                     "s" if len(w) > 1 else "", houses(w), best)


def _head(view):
    rnd = "Round %d, " % view["round"] if view["round"] else ""
    return rnd + STEPS.get(view["step"], view["step"])


def status(view):
    """A panel of a few lines (at most 100 columns) for the prompt and the mirror."""
    n = view["settings"]["players"]
    lines = fit([_head(view), "Leader " + house(view["leader"]), "Moderator " + house(view["moderator"])])
    bal = ["Balance AYE %d" % balance(view)[0], "middle %d" % view["middle"], "NAY %d" % balance(view)[2]]
    if view["side"]:
        bal.append("winning side: " + side_word(view["side"]))
    b = _sealed(view)
    if b is not None:
        bal.append("sealed ballot: %d of %d voted" % (len(b["voted"]), len(b["voters"])))
    lines += fit(bal)
    lines += fit(["Houses 0 " + house_fact(view, 0)] + ["%d %s" % (s, house_fact(view, s)) for s in range(1, n)])
    lines += fit(tracks_text(view).split(" | "))
    lines += fit([stability_text(view), time_text(view)])
    if view["step"] == "over":
        lines.append(ending(view))
        lines += fit(["AP " + house(0) + " %d" % view["scores"][0][5]] +
                      ["%s %d" % (house(s), view["scores"][s][5]) for s in range(1, len(view["scores"]))])
    return "\n".join(lines)


def _record(rec):
    if rec["kind"] == "sticker":
        text = "Chronicle sticker %s %s" % (cap(rec["resource"].lower()), rec["sign"])
    elif rec["kind"] == "story":
        text = "Story card %d" % rec["number"]
    else:
        return "round %d: Envelope %d" % (rec["round"], rec["number"])
    return "round %d: %s (signed by %s)" % (rec["round"], text, house(rec.get("signer")))


def full(view, prompt_line):
    """The multi-line form printed by `chancery replay`."""
    st = view["settings"]
    n = st["players"]
    lines = [
        "The King's Dilemma: %d Houses, %s vote" % (n, st.get("voting", "open")),
        _head(view),
        "Leader: %s   Moderator: %s" % (house(view["leader"]), house(view["moderator"])),
        "Resources (spaces 0-%d):" % (st["resource_track"] - 1),
    ]
    for r in range(5):
        lines.append("  %-10s %2d  %s" % (RESOURCES[r], view["resources"][r],
                                         momentum_words(view["momentum"][r], view["marker"][r])))
    lines.append(stability_text(view))
    lines.append(time_text(view))
    lines.append("Balance: " + balance_text(view))
    b = _sealed(view)
    if b is not None:
        lines.append("Sealed ballot (%s): voted %s; waiting for %s" % (
            b["question"], houses(b["voted"]), houses([s for s in b["voters"] if s not in b["voted"]])))
    lines.append("Houses this vote:")
    for s in range(n):
        lines.append("  %s: %s%s" % (house(s), house_fact(view, s, PASSED_WORDS), _tags(view, s)))
    if view["side"]:
        lines.append("Winning side: " + side_word(view["side"]))
    if view["chronicle"]:
        lines.append("Records:")
        for rec in view["chronicle"]:
            lines.append("  " + _record(rec))
    if view["step"] == "over":
        lines.append(ending(view))
        for s in range(len(view["scores"])):
            row = view["scores"][s]
            named = ["%s %d" % (SCORE_PARTS[i], row[i]) for i in range(5) if row[i]]
            if view.get("ap") and view["ap"][s]:  # Agenda Points the printed effects gave (ruling K9)
                named.append("effects %d" % view["ap"][s])
            parts = ", ".join(named)
            lines.append("  %s: %d AP%s" % (house(s), row[5], " (%s)" % parts if parts else ""))
    else:
        lines.append("Now: " + prompt_line)
    return "\n".join(lines)


def actor(state):
    """The seat whose turn it is (the terminal game's prompt): the House voting now."""
    return state.get("turn") if state.get("step") == "vote" else None


def heading(settings):
    """What is played, in one line (the terminal game's first)."""
    return wording.playing("The King's Dilemma", settings)


# --- the logbook's hooks (host only: `chancery log stats` and `chancery log chart`) ---

def facts(events):
    """What one play came to beyond its scores, from all its events in order: a fact in words for
    each time it happened (`chancery log stats` counts them over the plays): how the game ended, the
    King's abdication (Stability at an end of its track), and which side won each dilemma."""
    return [f for f in map(_fact, events) if f]


def _fact(ev):
    t = ev.get("t")
    if t == "end":
        return "ended: " + ENDINGS.get(ev.get("ending"), str(ev.get("ending")))
    if t in ("move", "stability") and ev.get("abdicated"):
        return "abdication (Stability at the %s end)" % ev["abdicated"]
    if t == "won":
        return "dilemma won by %s" % side_word(ev.get("side"))
    return None


def progress(state):
    """What a chart draws after each entry: every House's Agenda Points as they would be scored
    now, the five Resources and Stability on their tracks, and the round."""
    from shared_rules.kings_dilemma import scoring

    tracks = [[RESOURCES[r], state["resources"][r]] for r in range(5)]
    return {"scores": [row[5] for row in scoring.scores(state)], "tracks": tracks + [["Stability", state["stability"]]],
            "round": ["round", state["round"]]}
