"""Yes, Your Grace's public state as text: a compact panel for the prompt and the mirror
(show.status), a full one for `chancery replay` (show.full).

Works on the public view (engine.game_module("yes_your_grace").view(state, None)); in
this game nothing in the state is secret (ruling G1: an Allegiance enters only when it
is shown). Seats are "seat N" as in the core's own messages.

The last Event's (or Civil War's) working is the state's "last": the core keeps the
calculator's result, not the cards, so its cards are named by their index on their
side as the table entered them ("#0" the first), the numbering the tie-breaker's
`first` uses. The narration (narrate.py) names the cards themselves
where it knows the action.
"""

from shared_rules import wording
from shared_rules.wording import fit, seat, seats, wrap  # noqa: F401  (seat, seats: the narrate imports them from here)

# the terminal game's help (host/chancery/play/game.py): the printed effects, whose reason is
# the rest of the words (an Event is typed as its schema says)
EXAMPLES = {
    "heir": ["heir 2", "heir - fix a misentry"],
    "role": ["role marshal 1", "role steward - house rule"],
    "holding": ["holding 1 military damage Sabotage", "holding seat=3 economic gain reason=Royal Grant"],
    "fall": ["fall assassinated Assassination", "fall deposed to=3 Overthrow"],
    "face": ["face usurper fix a misentry"],
    "cards": ["cards 3 1 2 Pickpocket", "cards - 0 1 Coin Tax Levy"],
}
CARD_FORMS = ""
KINDS = ("military", "espionage", "diplomacy", "economic")
KIND_NAMES = ("Military", "Espionage", "Diplomacy", "Economic")
KIND_SHORT = ("Mil", "Esp", "Dip", "Eco")
ROLES = ("marshal", "spymaster", "chancellor", "steward")
ROLE_NAMES = ("Marshal", "Spymaster", "Chancellor", "Steward")
TYPES = ("Soldier", "Spy", "Diplomat", "Coin")
PLURALS = ("Soldiers", "Spies", "Diplomats", "Coins")
RECORDS = {"triumph": "Notable Triumph", "violence": "Notable Violence", "peace": "Notable Peace"}
SLOT = {"triumph": "T", "violence": "V", "peace": "P"}
FACES = {"loyalist": "Loyalist", "usurper": "Usurper", "chaos": "Chaos Agent"}
STEPS = {
    "resource": "Resource Phase",
    "intrigue": "Intrigue Phase",
    "event": "Event Phase",
    "damage": "Crisis failed: damage",
    "accede": "succession",
    "civil_war": "Civil War",
    "reveal": "the Annals are full: Allegiances shown",
    "over": "game over",
}
LEGEND = "#0 is a side's first card entered, #1 its second..."  # the numbering a tie-breaker's order uses
KIND_OF_EVENT = {"crisis": "Crisis", "intrigue": "Intrigue", "overthrow": "Overthrow"}


def plural(n, word, many=None):
    return "%d %s" % (n, word if n == 1 else (many or word + "s"))


def coins(n):
    return plural(n, "Coin")


def role_name(name):
    return ROLE_NAMES[ROLES.index(name)] if name in ROLES else str(name)


def face(f):
    return FACES.get(f, str(f))


def players(view):
    return len(view["holdings"])


def annals_total(view):
    return view["settings"]["annals"]


def holder(view, r):
    """'seat 2', or 'the King' for a Role held by nobody (G7)."""
    h = view["roles"][r]
    return "the King" if h is None else seat(h)


# --- the Annals -------------------------------------------------------------------

def slots(view):
    """'T V P . . .': one slot per Record the Annals can hold (Y1), written ones first."""
    written = [SLOT.get(r, "?") for r in view["annals"]]
    return " ".join(written + ["."] * max(0, annals_total(view) - len(written)))


def annals_line(view):
    n, total = len(view["annals"]), annals_total(view)
    return "Annals [%s] %d of %d written, %s left (T Triumph, V Violence, P Peace)" % (
        slots(view), n, total, plural(total - n, "Record"))


def annals_words(view):
    out = []
    for i in range(annals_total(view)):
        if i < len(view["annals"]):
            out.append("%d %s" % (i + 1, RECORDS.get(view["annals"][i], view["annals"][i])))
        else:
            out.append("%d -" % (i + 1))
    return out


# --- seats ------------------------------------------------------------------------

def held_roles(view, s):
    return [ROLE_NAMES[r] for r in range(4) if view["roles"][r] == s]


def with_king(view):
    return [ROLE_NAMES[r] for r in range(4) if view["roles"][r] is None]


def title(view, s):
    if s == view["king"]:
        return "King"
    if s == view["heir"]:
        return "Heir"
    return ""


def holdings_short(view, s):
    whole, hurt = view["holdings"][s], view["damaged"][s]
    return "  ".join(["%s %d%s" % (KIND_SHORT[k], whole[k], "+%d dmg" % hurt[k] if hurt[k] else "")
                      for k in range(4)])


def seat_line(view, s):
    parts = ["%-12s %s" % ("seat %d %s" % (s, title(view, s)), holdings_short(view, s))]
    roles = held_roles(view, s)
    if s == view["king"]:
        free = with_king(view)
        if free:
            parts.append("with the King: " + ", ".join(free) if len(free) < 4 else "all Roles with the King")
    elif roles:
        parts.append(", ".join(roles))
    shown = view["shown"][s]
    if shown is not None:
        parts.append("shows " + allegiance(shown))
    return fit(parts)


def allegiance(shown):
    side, ambition = shown
    if side == "chaos":
        return "the Chaos Agent"
    if ambition is None:
        return "%s, no Ambition" % face(side)
    return "%s, Ambition %s" % (face(side), role_name(ambition))


def holdings_long(view, s):
    whole, hurt = view["holdings"][s], view["damaged"][s]
    return ", ".join(["%s %d%s" % (KIND_NAMES[k], whole[k], " (+%d Damaged)" % hurt[k] if hurt[k] else "")
                      for k in range(4)])


# --- the working -------------------------------------------------------------------

def cards(idx):
    """'#2 #4', a run of three or more as '#0-#11'."""
    idx = sorted(idx)
    out = []
    i = 0
    while i < len(idx):
        j = i
        while j + 1 < len(idx) and idx[j + 1] == idx[j] + 1:
            j += 1
        if j - i >= 2:
            out.append("#%d-#%d" % (idx[i], idx[j]))
        else:
            out += ["#%d" % x for x in idx[i:j + 1]]
        i = j + 1
    return " ".join(out)


def role_part(r, short=False):
    """A Role's contribution: 'Marshal +2 Soldiers x2 = 4', 'Steward +4 Coins'."""
    name, amount, doubled = r[0], r[1], r[2]
    t = ROLES.index(name) if name in ROLES else 0
    if t == 3:
        return "%s +%s" % (role_name(name), coins(amount))
    text = "%s +%d %s" % (role_name(name), amount, PLURALS[t] if amount != 1 else TYPES[t])
    if doubled:
        text += " x2 = %d" % (2 * amount)
    return text


def side_short(w):
    """One side's working in a line: Coins, paid, discarded, kept, doubled, Roles."""
    parts = []
    steward = sum([r[1] for r in w["roles"] if r[0] == "steward"])
    if w["coins"] or w["paid"]:
        parts.append("%s%s, %s" % (coins(w["coins"]), " (Steward %d)" % steward if steward else "",
                                   "pay %s (%d spent)" % (cards(w["paid"]), w["spent"]) if w["paid"] else
                                   "nothing paid"))
    if w["discarded"]:
        parts.append("discarded %s" % cards(w["discarded"]))
    if w["kept"]:
        parts.append("kept %s (no cost)" % cards(w["kept"]))
    if w["doubled"]:
        parts.append("doubled %s" % cards(w["doubled"]))
    for r in w["roles"]:
        if r[0] != "steward" or not r[1]:
            parts.append(role_part(r))
    return "; ".join(parts) or "no cards"


def side_long(w):
    """One side's working with every item named, even the empty ones."""
    return "; ".join([
        "%s" % coins(w["coins"]),
        "paid %s (%s spent)" % (cards(w["paid"]) or "none", coins(w["spent"])),
        "discarded (cannot be paid) %s" % (cards(w["discarded"]) or "none"),
        "kept at no cost %s" % (cards(w["kept"]) or "none"),
        "doubled %s" % (cards(w["doubled"]) or "none"),
        "Roles %s" % (", ".join([role_part(r) for r in w["roles"]]) or "none"),
        "total %d" % w["total"]])


def verdict(last):
    """'success, 2 > 1', 'failure, 3 = 3 (equal fails)', 'failure, the additional requirement fails'."""
    a, b = last["support"]["total"], last["oppose"]["total"]
    sign = ">" if a > b else ("=" if a == b else "<")
    text = "Support %d %s Oppose %d" % (a, sign, b)
    if last["success"]:
        return "success, " + text
    if a > b and not last["extra"]:
        return "failure, %s but the additional requirement does not hold" % text
    return "failure, %s%s" % (text, " (equal fails)" if a == b else "")


def event_title(last):
    kind = KIND_OF_EVENT.get(last["kind"], last["kind"])
    if last["kind"] == "crisis":
        return kind
    return "%s of %s on %s" % (kind, seat(last.get("controller")), seat(last.get("target")))


def crowned(last):
    tied = last["tied"]
    if len(tied) > 1:
        return "tied %s: the former King picked %s" % (seats(tied), seat(last["winner"]))
    return "%s crowned" % seat(last["winner"])


def working_short(view):
    """The last Event's or Civil War's working, a few lines (a card by its place as entered: #0 the first)."""
    last = view.get("last")
    if not last:
        return []
    if "seats" in last:
        parts = ["Last Civil War (%s)" % LEGEND.replace("side", "seat")]
        for s in range(len(last["seats"])):
            w = last["seats"][s]
            parts.append("%s %d%s" % (seat(s), w["total"], "" if not (w["coins"] or w["paid"] or w["discarded"] or
                                                                       w["kept"] or w["doubled"])
                                      else " = " + side_short(w)))
        parts.append(crowned(last))
        if sum([len(wrap(line, 100, "    ")) for line in fit(parts)]) <= len(last["seats"]) + 2:
            return fit(parts)
        # five seats of twelve cards would take two lines a seat: the totals only (the working is
        # in the long text and the narration)
        return fit(["Last Civil War"] + ["%s %d" % (seat(s), w["total"]) for s, w in enumerate(last["seats"])]
                   + parts[-1:])
    head = "Last %s: %s" % (event_title(last), verdict(last))
    if len(head) + len(LEGEND) + 3 <= 100:
        head += " | " + LEGEND
    return [head,
            "  Support %d: %s" % (last["support"]["total"], side_short(last["support"])),
            "  Oppose %d: %s" % (last["oppose"]["total"], side_short(last["oppose"]))]


def working_long(view):
    last = view.get("last")
    if not last:
        return ["Last working: no Event resolved yet"]
    if "seats" in last:
        out = ["Last Civil War (each seat's cards against every other card; #0 is a seat's first card entered, "
               "#1 its second...):"]
        for s in range(len(last["seats"])):
            out.append("  %s: %s" % (seat(s), side_long(last["seats"][s])))
        out.append("  Result: highest %d, %s" % (max([w["total"] for w in last["seats"]] or [0]), crowned(last)))
        return out
    out = ["Last Event: %s, additional requirement %s (#0 is a side's first card entered, #1 its second...):" % (
        event_title(last), "holds" if last["extra"] else "does not hold")]
    out.append("  Support: " + side_long(last["support"]))
    out.append("  Oppose: " + side_long(last["oppose"]))
    out.append("  Result: " + verdict(last))
    return out


# --- what the table must enter; the end -----------------------------------------------

def waiting(view):
    if view["step"] != "reveal":
        return []
    return [s for s in range(players(view)) if view["shown"][s] is None and s != view["king"] and s != view["heir"]]


def cards_available(view):
    """What a Civil War may bring: per Resource type, the Undamaged Holdings of its kind at the table (L25, G8)."""
    n = players(view)
    return ", ".join(["%s %d" % (PLURALS[t], sum([view["holdings"][s][t] for s in range(n)])) for t in range(4)])


def need(view):
    """What the table must enter now, beyond the round's own phases ([] when nothing special)."""
    step = view["step"]
    king = view["king"]
    if step == "damage":
        whole = [KIND_NAMES[k] for k in range(4) if view["holdings"][king][k]]
        return ["To enter: damage, %s of the King's Undamaged Holdings (%s)" % (view["pending"], ", ".join(whole))]
    if step == "accede":
        s = view["successor"]
        how = "won the Civil War" if view["war"] else (
            "the Heir" if s is not None and s == view["heir"] else "takes the crown")
        text = "To enter: %s (%s) shows their Allegiance (accede); a Chaos Agent %s" % (
            seat(s), how, "crowned by a Civil War wins alone" if view["war"] else "picks the face")
        return fit([text, "the former King, %s, draws a new Allegiance" % seat(view["former"])])
    if step == "civil_war":
        return fit(["To enter: Civil War (no Heir): the Resource cards played for each seat (civil_war)",
                    "one per Undamaged Holding: %s" % cards_available(view),
                    "a tie: the former King, %s, decides" % seat(view["former"])])
    if step == "reveal":
        return ["To enter: %s show their Allegiance (reveal: side and Ambition)" % seats(waiting(view))]
    return []


def reasons(view):
    """[(seat, victor?, why, why in short)] for the King, the Heir and each shown Allegiance (L26)."""
    out = []
    violence = len([r for r in view["annals"] if r == "violence"])
    king, heir = view["king"], view["heir"]
    if view["ending"] == "chaos":
        return [(king, king in view["winners"], "a Chaos Agent crowned by a Civil War, who wins alone (L25)",
                 "Chaos Agent crowned by a Civil War, alone")]
    for s in range(players(view)):
        if s == king:
            out.append((s, True, "the %s King" % face(view["face"]), "King"))
            continue
        if s == heir:
            out.append((s, True, "the Heir", "Heir"))
            continue
        shown = view["shown"][s]
        if shown is None:
            out.append((s, s in view["winners"], "Allegiance not shown", "not shown"))
            continue
        side, ambition = shown
        if side == "chaos":
            enough = violence >= 2
            out.append((s, enough, "the Chaos Agent, with %s of Notable Violence%s" % (
                plural(violence, "Record"), "" if enough else ", 2 needed"),
                "Chaos Agent, %d Violence%s" % (violence, "" if enough else " of 2")))
        elif side != view["face"]:
            out.append((s, False, "a %s, while the King card faces %s" % (face(side), face(view["face"])),
                        "%s, wrong side" % face(side)))
        elif ambition is None:
            out.append((s, False, "a %s with no Ambition" % face(side), "%s, no Ambition" % face(side)))
        else:
            r = ROLES.index(ambition)
            got = view["roles"][r] == s
            out.append((s, got, "a %s whose Ambition, the %s, %s" % (
                face(side), ROLE_NAMES[r], "they hold" if got else "is held by " + holder(view, r)),
                "%s with %s" % (face(side), ROLE_NAMES[r]) if got else "%s held by %s" % (
                    ROLE_NAMES[r], holder(view, r))))
    return out


def ending(view):
    if view["step"] != "over":
        return ""
    w = view["winners"]
    if view["ending"] == "chaos":
        how = "a Chaos Agent took the crown in a Civil War"
    else:
        how = "the Annals hold %s" % plural(len(view["annals"]), "Record")
    return "Game over (%s). Victor%s: %s." % (how, "s" if len(w) > 1 else "", seats(w))


def why_parts(view):
    """The end in a few panel parts: how it ended, the victors and why, the others and why not."""
    if view["ending"] == "chaos":
        how = "Game over: a Chaos Agent won a Civil War"
    else:
        how = "Game over: the Annals are full"
    won = ["%s %s" % (seat(s), short) for s, ok, _, short in reasons(view) if ok]
    lost = ["%s %s" % (seat(s), short) for s, ok, _, short in reasons(view) if not ok]
    return [how, "Victors: " + ", ".join(won or [seats(view["winners"])])] + (
        ["not: " + ", ".join(lost)] if lost else [])


def ballot_text(view):
    """A sealed ballot the table opened (shared_rules/ballot.py): who has voted, never what."""
    b = view.get("ballot")
    if not b or b.get("result") is not None:
        return []
    return ["Ballot %d (%s): %d of %d voted%s" % (b["n"], b["question"], len(b["voted"]), len(b["voters"]),
                                                 "" if b["open"] else ", closed")]


# --- the panel and the full text -------------------------------------------------------

def head(view):
    step = view["step"]
    parts = ["Round %d, %s" % (view["round"], STEPS.get(step, step)),
             "King %s (%s)" % (seat(view["king"]), face(view["face"])),
             "no Heir" if view["heir"] is None else "Heir %s" % seat(view["heir"])]
    if step in ("event", "damage", "accede", "civil_war"):
        parts.append("%s, %s%s" % (plural(view["events"], "Event"), plural(view["triumphs"], "Triumph"),
                                    ", Violence" if view["violence"] else ""))
    return parts


def status(view):
    """A panel of at most about a dozen lines, 100 columns, for the prompt and the mirror."""
    lines = fit(head(view))
    lines.append(annals_line(view))
    for s in range(players(view)):
        lines += seat_line(view, s)
    lines += working_short(view)
    lines += need(view)
    lines += ballot_text(view)
    if view["step"] == "over":
        lines += fit(why_parts(view))
    out = []
    for line in lines:  # a very long part (a side of twelve cards) wraps, never runs past 100 columns
        out += wrap(line, 100, "    ") if len(line) > 100 else [line]
    return "\n".join(out)


def _settings_text(st):
    return "Yes, Your Grace: %d seats, the game ends at Record %d, the Steward counts %s Economic Holdings" % (st["players"], st["annals"], "every" if st["steward"] == "all" else "Undamaged")


def full(view, prompt_line):
    """The multi-line form printed by `chancery replay`: everything, the working in full."""
    lines = [_settings_text(view["settings"])]
    lines.append("Round %d, %s; this round: %s, %s, Violence %s" % (
        view["round"], STEPS.get(view["step"], view["step"]), plural(view["events"], "Event") + " resolved",
        plural(view["triumphs"], "Triumph"), "yes" if view["violence"] else "no"))
    n, total = len(view["annals"]), annals_total(view)
    lines.append("Annals of History (%d of %d written, %s remain): %s" % (
        n, total, plural(total - n, "Record"), ", ".join(annals_words(view))))
    lines.append("King: %s, the King card faces %s; Heir: %s" % (seat(view["king"]), face(view["face"]),
                                                                 seat(view["heir"])))
    if view["former"] is not None:
        lines.append("Former King: %s" % seat(view["former"]))
    lines.append("Roles: " + ", ".join(["%s %s" % (ROLE_NAMES[r], holder(view, r)) for r in range(4)]))
    lines.append("Holdings (Undamaged, with Damaged ones in brackets):")
    for s in range(players(view)):
        t = title(view, s)
        lines.append("  %s%s: %s" % (seat(s), " (%s)" % t if t else "", holdings_long(view, s)))
    shown = ["%s %s" % (seat(s), allegiance(view["shown"][s])) for s in range(players(view))
             if view["shown"][s] is not None]
    if shown:
        lines.append("Allegiances shown: " + "; ".join(shown))
    lines += working_long(view)
    lines += need(view)
    lines += ballot_text(view)
    if view["step"] == "over":
        lines.append(ending(view))
        for s, ok, why, _ in reasons(view):
            lines.append("  %s: %s (%s)" % (seat(s), why, "a victor" if ok else "not a victor"))
    else:
        lines.append("Now: " + prompt_line)
    return "\n".join(lines)


def actor(state):
    """The seat whose turn it is (the terminal game's prompt): none, the table enters every step."""
    return None


def heading(settings):
    """What is played, in one line (the terminal game's first)."""
    return wording.playing("Yes, Your Grace", settings)


# --- the logbook's hooks (host only: `chancery log stats` and `chancery log chart`) ---

def facts(events):
    """What one play came to (the game keeps no score), from all its events in order: a fact in words
    for each time it happened (`chancery log stats` counts them over the plays): the Annals' Records
    of Triumph, Violence and Peace, the Kings who fell, the Civil Wars and how the game ended."""
    return [f for f in map(_fact, events) if f]


def _fact(ev):
    t = ev.get("t")
    if t == "record":
        return "Annals: " + RECORDS.get(ev.get("kind"), str(ev.get("kind")))
    if t == "fall":
        return "a King fell"
    if t == "civil_war":
        return "Civil War"
    if t == "over":
        return "ended: " + ("a Chaos Agent crowned by a Civil War" if ev.get("ending") == "chaos"
                            else "the Annals were written")
    return None


def progress(state):
    """What a chart draws after each entry: no score (the game keeps none); the Annals' Records so far; the round."""
    return {"scores": None, "tracks": [[RECORDS[k], len([r for r in state["annals"] if r == k])]
                                       for k in ("triumph", "violence", "peace")],
            "round": ["round", state["round"]]}
