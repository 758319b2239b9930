"""Yes, Your Grace's events in plain words: one line (one or more sentences) per event.

`lines(before, events, action=None)` folds the events one by one onto a copy of the
state they followed, so each sentence can say what changed (a Holding now, who held
a Role at the resolution, which Record this is of how many).

An Event's or Civil War's working (resolve.py) names the cards by their index on
their side as entered: the event holds the calculator's result, not the cards. When
the action that made the events is known (narrate.history passes it: replay, the
log, the mirror's history, `chancery play`'s log), the cards are named ("Soldier 1
c2") and the totals written out as sums; without it (a live line from a board) the
cards read "card #3" and each side its total. An event this module does not know
reads as a generic sentence with its data, never a crash.
"""

from shared_rules import canon
from shared_rules.wording import cap, each
from shared_rules.yes_your_grace.show import (
    KIND_NAMES,
    RECORDS,
    ROLE_NAMES,
    ROLES,
    TYPES,
    face,
    plural,
    reasons,
    role_name,
    seat,
    seats,
    waiting,
)
from shared_rules.yes_your_grace.working import Side, _and, side_words


def generic(ev):
    """Any event this module does not know (or cannot read): its data, in a sentence."""
    return "An event not narrated here: %s." % canon.encode(ev)


def _kinds(kinds):
    """'Military and Espionage', 'two Military'."""
    names = [KIND_NAMES[k] for k in kinds]
    if len(names) == 2 and names[0] == names[1]:
        return "two %s Holdings" % names[0]
    return "%s Holding%s" % (_and(names), "s" if len(names) > 1 else "")


def _holdings_now(state, s):
    whole, hurt = state["holdings"][s], state["damaged"][s]
    return "now Undamaged: %s; %s" % (
        ", ".join(["%s %d" % (KIND_NAMES[k], whole[k]) for k in range(4)]), plural(sum(hurt), "Damaged Holding"))


# --- the events -------------------------------------------------------------------------

def _compare(ev):
    a, b = ev["support"]["total"], ev["oppose"]["total"]
    if a > b and not ev["extra"]:
        return "%d > %d, but the card's additional requirement does not hold" % (a, b)
    if a > b:
        return "%d > %d" % (a, b)
    if a == b:
        return "%d = %d: equal is failure" % (a, b)
    return "%d < %d" % (a, b)


def _event(before, after, ev, action):
    act = action if isinstance(action, dict) and action.get("type") == "event" else {}
    every = before["settings"].get("steward") == "all"
    sup = Side("Support", ev["support"], act.get("support"), every)
    opp = Side("Oppose", ev["oppose"], act.get("oppose"), every)
    holders = before["roles"]
    kind = ev["kind"]
    if kind == "crisis":
        head = "Crisis resolved."
    else:
        head = "%s played by %s on %s%s resolved." % (
            "Intrigue" if kind == "intrigue" else "Overthrow", seat(ev.get("controller")),
            "the King, " if ev.get("target") == before["king"] else "", seat(ev.get("target")))
    parts = [head, side_words(sup, opp, holders, "remains on Oppose", "on Oppose") + ".",
             side_words(opp, sup, holders, "remains on Support", "on Support") + "."]
    word = {"crisis": "Crisis", "intrigue": "Intrigue", "overthrow": "Overthrow"}.get(kind, kind)
    if ev["success"]:
        if kind == "crisis":
            n = len(before["annals"]) + 1
            parts.append("The Crisis succeeds (%s): a Notable Triumph is written (Record %d of %d)." % (
                _compare(ev), n, before["settings"]["annals"]))
        else:
            parts.append("The %s succeeds (%s): %s, who played it, enacts its effect%s." % (
                word, _compare(ev), seat(ev.get("controller")),
                " (the crown may pass: fall)" if kind == "overthrow" else ""))
    else:
        parts.append("The %s fails (%s)%s." % (word, _compare(ev), _failure(before) if kind == "crisis" else
                                              ": nothing happens"))
    if kind == "overthrow":
        parts.append("An Overthrow was resolved: the round will end in Notable Violence (L21).")
    return " ".join(parts)


def _failure(before):
    """What a failed Crisis does to the King (Y4)."""
    king = before["king"]
    if sum(before["damaged"][king]) >= 4:
        return ": the King, %s, already has four Damaged Holdings and is Deposed" % seat(king)
    left = sum(before["holdings"][king])
    if not left:
        return ": the King, %s, has no Undamaged Holding left, so nothing more is Damaged" % seat(king)
    if left == 1:
        return ": the last Undamaged Holding of the King, %s, is Damaged" % seat(king)
    if left == 2 or len([k for k in range(4) if before["holdings"][king][k]]) == 1:
        return ": two of the King's Holdings are Damaged (%s has no choice)" % seat(king)
    return ": two of the King's Holdings are Damaged; the King, %s, names them" % seat(king)


def _record(before, after, ev):
    kind, n, total = ev["kind"], ev["number"], after["settings"]["annals"]
    name = RECORDS.get(kind, kind)
    why = {"triumph": "a Crisis succeeded",
           "violence": "the round ends: an Overthrow was resolved or a Civil War fought in it (L21)",
           "peace": "the round ends: no Crisis succeeded and there was no Overthrow or Civil War (L21)"}.get(kind, kind)
    text = "A %s is written in the Annals of History, Record %d of %d: %s." % (name, n, total, why)
    if n >= total:
        return text + " The Annals are full: the game ends (L26)."
    return text + " %s left." % plural(total - n, "Record")


def _phase(before, after, ev):
    step = ev["step"]
    if step == "intrigue":
        return "The Intrigue Phase: Intrigue cards are played at the table."
    if step == "event":
        return "The Event Phase: the King picks the order in which the Events are resolved."
    if step == "reveal":
        if after["heir"] is None:
            text = "The game ends (L26): the King, %s, is a victor (there is no Heir)" % seat(after["king"])
        else:
            text = "The game ends (L26): the King, %s, and the Heir, %s, are victors" % (
                seat(after["king"]), seat(after["heir"]))
        wait = waiting(after)
        if wait:
            return text + "; %s show their Allegiance to see who else wins." % seats(wait)
        return text + "."
    return "The %s begins." % step.replace("_", " ")


def _damage(before, after, ev):
    s, kinds = ev["seat"], ev["kinds"]
    if before["step"] == "damage":
        text = "%s, the King, names %s to damage" % (cap(seat(s)), _kinds(kinds))
    elif len(kinds) == 1:
        text = "%s, the King, has a single Undamaged Holding left, so only it is Damaged: %s" % (
            cap(seat(s)), KIND_NAMES[kinds[0]])
    else:
        text = "%s, the King, has no choice: %s are Damaged" % (cap(seat(s)), _kinds(kinds))
    text += "; %s." % _holdings_now(after, s)
    if sum(after["damaged"][s]) >= 4:
        text += " With four Damaged Holdings, another failed Crisis deposes them."
    return text


def _await(before, after, ev):
    king = after["king"]
    have = ", ".join(["%s %d" % (KIND_NAMES[k], after["holdings"][king][k]) for k in range(4)
                      if after["holdings"][king][k]])
    return "%s, the King, names %d of their Undamaged Holdings to damage; they hold %s." % (
        cap(seat(king)), ev["count"], have)


def _holding(before, after, ev):
    s, k, change = ev["seat"], ev["kind"], ev["change"]
    name = KIND_NAMES[k]
    if change == "gain":
        text = "%s gains an Undamaged %s Holding" % (cap(seat(s)), name)
    elif change == "lose":
        text = "%s loses %s %s Holding%s" % (cap(seat(s)), "a Damaged" if ev.get("damaged") else "an Undamaged",
                                             name, " (it had no Undamaged one)" if ev.get("damaged") else "")
    elif change == "damage":
        text = "%s's %s Holding is Damaged" % (cap(seat(s)), name)
    else:
        text = "%s's %s Holding is repaired" % (cap(seat(s)), name)
    return text + " (%s now %d Undamaged, %d Damaged)." % (name, after["holdings"][s][k], after["damaged"][s][k])


def _heir(before, after, ev):
    if ev["seat"] is None:
        if before["heir"] is None:
            return "There is still no Heir."
        return "%s is no longer the Heir: there is no Heir." % cap(seat(before["heir"]))
    if before["heir"] == ev["seat"]:
        return "%s stays the Heir." % cap(seat(ev["seat"]))
    return "%s is named the Heir%s." % (cap(seat(ev["seat"])), "" if before["heir"] is None else
                                        " (in place of %s)" % seat(before["heir"]))


def _role(before, after, ev):
    r = ROLES.index(ev["role"])
    had = before["roles"][r]
    was = "the King" if had is None else seat(had)
    if ev["seat"] is None:
        return "The %s goes back to the King (from %s)." % (ROLE_NAMES[r], was)
    return "%s takes the %s (from %s)." % (cap(seat(ev["seat"])), ROLE_NAMES[r], was)


def _fall(before, after, ev):
    how = "Deposed" if ev["how"] == "deposed" else "Assassinated"
    text = "%s, the King, is %s." % (cap(seat(ev["king"])), how)
    to = ev["successor"]
    if to is None:
        return text + (" There is no Heir: Civil War (L25). Each seat takes one Resource per Undamaged Holding and "
                       "plays them face down for the seats; the highest total is crowned.")
    if to == before["heir"]:
        return text + " The Heir, %s, takes the crown and shows their Allegiance (L23)." % seat(to)
    return text + " The crown passes to %s (an Intrigue effect), who shows their Allegiance." % seat(to)


def _face(before, after, ev):
    return "The King card, %s's, turns to its %s face." % (seat(after["king"]), face(ev["face"]))


def _cards(before, after, ev):
    """G14: how many, whose hand or the decks, the type only when the effect showed it."""
    n, t = ev["count"], ev.get("resource")
    what = plural(n, "Resource card") if t is None else plural(n, TYPES[t] + " card")
    giver, taker = ev["giver"], ev["taker"]
    if taker is None:
        return "%s returns %s to the decks." % (cap(seat(giver)), what)
    if giver is None:
        text = "%s draws %s from the decks" % (cap(seat(taker)), what)
    else:
        text = "%s takes %s from %s's hand" % (cap(seat(taker)), what, seat(giver))
    return text + "; their values stay secret until they are revealed on an Event."


def _civil_war(before, after, ev, action):
    act = action if isinstance(action, dict) and action.get("type") == "civil_war" else {}
    names = act.get("cards") or []
    n = len(ev["seats"])
    sides = [Side(seat(s), ev["seats"][s], names[s] if s < len(names) else None) for s in range(n)]
    said = []
    for s in range(n):
        other = _Others([sides[o] for o in range(n) if o != s])
        said.append(side_words(sides[s], other, before["roles"], "is played for another seat",
                               "played for another seat") + ".")
    totals = ["%s %d" % (seat(s), ev["seats"][s]["total"]) for s in range(n)]
    tied, winner = ev["tied"], ev["winner"]
    top = ev["seats"][winner]["total"] if winner is not None else 0
    if len(tied) > 1:
        end = "%s tie at %d: the former King, %s, picks %s, who takes the crown and the Heir card (L25)." % (
            cap(_and([seat(s) for s in tied])), top, seat(before["former"]), seat(winner))
    else:
        end = "%s has the highest total, %d, and takes the crown and the Heir card (L25)." % (cap(seat(winner)), top)
    return "Civil War, each seat's cards against all the others: %s Tally: %s. %s" % (
        " ".join(said), ", ".join(totals), end)


class _Others:
    """Every other seat's cards in a Civil War, as one side for doubling (L25)."""

    def __init__(self, sides):
        self.sides = sides
        self.w = {"roles": []}

    def card_types(self):
        out = set()
        for s in self.sides:
            out |= s.card_types()
        return out

    def discarded_types(self):
        out = set()
        for s in self.sides:
            out |= s.discarded_types()
        return out


def _accede(before, after, ev):
    s, side = ev["seat"], ev["side"]
    shows = "the Chaos Agent" if side == "chaos" else "a %s Allegiance" % face(side)
    if side == "chaos" and before["war"]:
        return "%s shows %s: crowned by a Civil War, they win alone at once (L25)." % (cap(seat(s)), shows)
    text = "%s shows %s and takes the crown; the King card faces %s%s." % (
        cap(seat(s)), shows, face(ev["face"]), " (their pick, L23)" if side == "chaos" else " (L23)")
    back = [ROLE_NAMES[r] for r in range(4) if before["roles"][r] == s]
    if back:
        text += " The %s they held go%s back to the King (L24)." % (_and(back), "es" if len(back) == 1 else "")
    heir = ev.get("heir")
    if heir is None:
        tail = "the new King has no Heir yet."
    else:  # G16, the table's ruling overthrow_heir = stays
        tail = "%s stays the Heir (the table's ruling: overthrow_heir is stays)." % seat(heir)
    if before["former"] is not None and before["former"] != s:
        text += " The old King, %s, draws a new random Allegiance;" % seat(before["former"])
        return text + " " + tail
    return text + " " + cap(tail)


def _round(before, after, ev):
    if before["violence"]:
        why = "it ended in Violence"
    elif not before["triumphs"]:
        why = "it ended in Peace"
    else:
        why = "%s succeeded and there was no Violence, so nothing more is written, L21" % (
            "a Crisis" if before["triumphs"] == 1 else "%d Crises" % before["triumphs"])
    return "--- Round %d is over (%s). Round %d: the Resource Phase (the King names the Heir, gives out Roles) ---" % (
        before["round"], why, ev["round"])


def _shown(before, after, ev):
    s, side, ambition = ev["seat"], ev["side"], ev.get("ambition")
    if side == "chaos":
        return "%s shows the Chaos Agent." % cap(seat(s))
    if ambition is None:
        return "%s shows a %s Allegiance with no Ambition." % (cap(seat(s)), face(side))
    return "%s shows a %s Allegiance, Ambition %s." % (cap(seat(s)), face(side), role_name(ambition))


def _over(before, after, ev):
    w = ev["winners"]
    if ev["ending"] == "chaos":
        return "The game is over: %s, a Chaos Agent crowned by a Civil War, wins alone (L25)." % seats(w)
    why = reasons(after)
    won = ["%s (%s)" % (seat(s), text) for s, ok, text, _ in why if ok]
    lost = ["%s (%s)" % (seat(s), text) for s, ok, text, _ in why if not ok]
    text = "The game is over with %s in the Annals. Victor%s: %s." % (
        plural(len(after["annals"]), "Record"), "s" if len(w) > 1 else "", "; ".join(won) or seats(w))
    if lost:
        text += " Not victors: %s." % "; ".join(lost)
    return text


# event tag -> sentence(before, after, event[, action]); every tag flow.fold knows
TELL = {
    "phase": _phase,
    "event": _event,
    "record": _record,
    "damage": _damage,
    "await": _await,
    "holding": _holding,
    "heir": _heir,
    "face": _face,
    "cards": _cards,
    "role": _role,
    "fall": _fall,
    "civil_war": _civil_war,
    "accede": _accede,
    "round": _round,
    "shown": _shown,
    "over": _over,
}
WITH_ACTION = ("event", "civil_war")


def _with_reason(ev, text):
    """An effect's reason (effects.py: the card's name, "house rule") leads its sentence:
    'Sabotage: seat 3's Military Holding is Damaged (...).'"""
    why = ev.get("reason")
    return "%s: %s%s" % (cap(why), text[:1].lower(), text[1:]) if why else text


def one(before, after, ev, action=None):
    """The sentence(s) for one event, `before` and `after` the states around it."""
    tell = TELL.get(ev["t"])
    if tell is None:
        return generic(ev)
    if ev["t"] in WITH_ACTION:
        return tell(before, after, ev, action)
    return _with_reason(ev, tell(before, after, ev))


def lines(before, events, action=None):
    """Plain sentences for `events`, which followed the state `before` (not modified); `action`,
    the action that made them if known, names the cards of a working."""
    return each("yes_your_grace", before, events, lambda a, b, ev: one(a, b, ev, action), generic)
