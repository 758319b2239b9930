"""Yes, Your Grace's words: error messages and where-the-game-stands sentences.

Rendered on demand from an error's facts (shared_rules/texts.py); Lnn are lines
of ../shared/seeds/yes-your-grace.txt, Yn the digest's rulings, Gn the package's.
"""


def seats(xs):
    return ", ".join(["seat %d" % s for s in xs]) or "nobody"


def _who(s):
    return "nobody" if s is None else "seat %d" % s


def now(n):
    """Where the game stands, from flow.situation(state)."""
    step = n["step"]
    if step == "over":
        why = "a Chaos Agent took the crown in a Civil War" if n["ending"] == "chaos" else \
            "the Annals hold %d Records" % n["records"]
        return "the game is over (%s); victors: %s" % (why, seats(n["winners"]))
    king = "the King is seat %d (%s), the Heir %s; %d of %d Records" % (
        n["king"], n["face"], _who(n["heir"]), n["records"], n["annals"])
    if step == "resource":
        return "the Resource Phase: name the Heir and give out Roles, then next (%s)" % king
    if step == "intrigue":
        return "the Intrigue Phase: cards are played at the table, then next (%s)" % king
    if step == "event":
        return "the Event Phase: resolve each Event (event), then next ends the round (%s)" % king
    if step == "damage":
        return "the Crisis failed: name %d of seat %d's Undamaged Holdings to damage (damage)" % (
            n["pending"], n["king"])
    if step == "accede":
        return "seat %d takes the crown: enter the Allegiance they show (accede)" % n["successor"]
    if step == "civil_war":
        return "Civil War: enter the Resource cards played for each seat (civil_war); the former King, " \
               "seat %d, decides a tie" % n["former"]
    return "the Annals are full: %s show their Allegiance (reveal)" % seats(n["waiting"])


def _indexes(idx):
    """'#1, #3' (card indexes from 0 in the order entered), 'none'."""
    return ", ".join(["#%d" % i for i in idx]) or "none"


def _open(outs, k):
    """The cards of side k paid in some outcomes but not in all: the tie the choice is about."""
    out = []
    for o in outs:
        for i in o[k]:
            if i not in out and [p for p in outs if i not in p[k]]:
                out.append(i)
    return sorted(out)


def _war_outcome(n, totals):
    top = max(totals) if totals else 0
    tied = [s for s in range(len(totals)) if totals[s] == top]
    who = "seat %d is crowned" % tied[0] if len(tied) == 1 else "%s tie, the former King decides" % seats(tied)
    return "(%d) %s: %s" % (n, ", ".join(["seat %d %d" % (s, totals[s]) for s in range(len(totals))]), who)


def _event_outcome(n, o):
    a, b = o[0], o[1]
    result = "Support ahead" if a > b else "a failure"
    return "(%d) Support %d vs Oppose %d, %s; paid: Support %s, Oppose %s" % (
        n, a, b, result, _indexes(o[2]), _indexes(o[3]))


def _ambiguous(d):
    """Y5, G5: the distinct outcomes listed with their totals and the cards they pay; the tied
    cards in question per side or seat ("open", else read off the outcomes); what to enter."""
    outs = d["outcomes"]
    more = d["count"] - len(outs)
    opened = d.get("open")
    tied = []
    if d.get("war"):
        items = [_war_outcome(i + 1, outs[i]) for i in range(len(outs))]
        for s in range(len(opened or [])):
            if opened[s]:
                tied.append("seat %d %s" % (s, _indexes(opened[s])))
        how = "each supported seat says which of its tied cards it pays first (first: per seat, card indexes " \
              "from 0 in the order entered)"
    else:
        items = [_event_outcome(i + 1, outs[i]) for i in range(len(outs))]
        for k, name in ((0, "Support"), (1, "Oppose")):
            idx = opened[k] if opened is not None else _open(outs, k + 2)
            if idx:
                tied.append("%s %s" % (name, _indexes(idx)))
        how = "the tie-breakers say which tied cards are paid first (support_first, oppose_first: card " \
              "indexes from 0 in the order entered; a Crisis: the King; an Intrigue: its controller on Support, " \
              "its target on Oppose)"
    if tied:
        how = "the tied cards in question: %s; %s" % ("; ".join(tied), how)
    if d.get("more"):  # the calculator counts and lists a bounded number (calc._COUNT, calc.LISTED)
        count, tail = "at least %d" % d["count"], "; and more"
    else:
        count, tail = "%d" % d["count"], "; and %d more" % more if more > 0 else ""
    return "the payment of tied costs changes the result, %s outcomes: %s%s. To resolve it, %s" % (
        count, "; ".join(items), tail, how)


def _hand(s):
    return "the decks" if s is None else "seat %d's hand" % s


def _no_holding(d):
    what = {"gain": "holds %d already, the most of a kind" % d["most"], "lose": "has none",
            "damage": "has no Undamaged one", "repair": "has no Damaged one"}[d["change"]]
    return "seat %d cannot %s %s %s Holding: it %s (%d Undamaged, %d Damaged)" % (
        d["seat"], d["change"], "an" if d["kind"][:1] in "ae" else "a", d["kind"], what, d["undamaged"], d["damaged"])


TEXTS = {
    "wrong_step": lambda d: "%s is not possible now: %s" % (d["what"], now(d["now"])),
    "game_over": lambda d: now(d["now"]),
    "king_not_heir": "seat {seat} is the King: the King cannot be their own Heir (L24)",
    "king_no_role": "seat {seat} is the King and holds no Role ({role}): give it to another seat, or null "
                    "to keep it with the King",
    "no_holding": _no_holding,
    "not_waiting": lambda d: "seat %s has nothing to show now; waiting for %s" % (d["seat"], seats(d["waiting"])),
    "bad_allegiance": "a Chaos Agent has no Ambition (got {ambition}): leave ambition out",
    "bad_index": "{name} names card {index}, but that side has {cards} cards (indexes from 0, in the order entered)",
    "role_twice": "the {role} card is on both sides: a Role card is played to one side",
    "role_unheld": "nobody holds the {role} card (it is with the King): it cannot be played",
    "role_played": "the {role} card was played to an Event this round already: a Role card goes to one Event "
                   "a round (L12-L13); it comes back when the round ends (L21)",
    "bad_event": lambda d: "an %s card needs its controller (who played it) and its target, two different "
                           "seats (got %s and %s)" % (d["kind"], d["controller"], d["target"]),
    "overthrow_king": "the Overthrow card is played only on the King, seat {king} (not seat {target}), or resolves on "
                      "a King of this round who has fallen since (L14)",
    "ambiguous": _ambiguous,
    "bad_damage": lambda d: "name exactly %d Undamaged Holdings of seat %d (got %s); Undamaged: %s" % (
        d["count"], d["seat"], ", ".join(d["kinds"]), ", ".join(d["undamaged"]) or "none"),
    "same_king": "seat {seat} is the King already: the crown passes to another seat",
    "face_needed": "seat {seat} shows the Chaos Agent: name the face of the King card they pick (face: "
                   "loyalist or usurper) (L23)",
    "bad_face": "seat {seat} shows a {side}: the King card faces {side}, not {face} (L23)",
    "too_many_cards": "{used} {kind} Resources were played, but the Undamaged {kind} Holdings at the table "
                      "provide only {have} (L25)",
    "same_face": "the King card, seat {king}'s, faces {face} already: turn it to the other face, or enter "
                 "nothing",
    "no_hands": "no seat holds Resource cards in the Event Phase (the Intrigue Phase ends with the rest "
                "discarded, L13): an effect on Coins or cards there changes an Event still to resolve, so enter "
                "that Event as its cards lie when it resolves (L14)",
    "cards_nowhere": lambda d: "the cards go from %s to %s: giver and taker are two places, a seat's hand and "
                               "another seat's hand or the decks (nobody)" % ((_hand(d["giver"]),) * 2),
    "tie_for_crown": lambda d: "the Civil War is tied at %d between %s: the former King, %s, names the winner "
                               "among them (winner)" % (d["total"], seats(d["tied"]), _who(d["former"])),
}


def prompt(state):
    """One line: what the table is being asked now."""
    from shared_rules.yes_your_grace.flow import situation

    text = now(situation(state))
    if state["step"] != "over":
        return "Round %d, %s." % (state["round"], text)
    return text[0].upper() + text[1:] + "."


# --- the table's display page (firmware/table.py: the table's back key); here, with the
# other words, so that a board loads them only when the page is asked for

def lines(state):
    """The table's display (16 x 8): the last event's working, so the table can check
    it (card numbers as entered, from 0: paid, discarded, doubled; each side's total),
    and the Annals so far."""
    out = []
    last = state["last"]
    if last and "support" in last:
        out.append(("%s %s" % (last["kind"], "ok" if last["success"] else "fails"))[:16])
        for tag, side in (("S", last["support"]), ("O", last["oppose"])):
            out.append(("%s total %d c%d" % (tag, side["total"], side["coins"]))[:16])
            out.append(("%s pay %s" % (tag, _nums(side["paid"])))[:16])
            out.append(("%s off %s x2 %s" % (tag, _nums(side["discarded"]), _nums(side["doubled"])))[:16])
    a = state["annals"]
    out.append(("Annals %d/%d %s" % (len(a), state["settings"]["annals"], "".join([r[0].upper() for r in a])))[:16])
    return out


def _nums(xs):
    return ",".join([str(x) for x in xs]) or "-"
