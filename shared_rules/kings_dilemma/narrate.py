"""The King's Dilemma's events in plain words, one sentence per event (or group).

`lines(before, events)` folds the events one by one onto a copy of the state
they followed, so each sentence can say what changed (the Balance, a Resource's
Momentum, Stability). Only public facts are read from the state: choices,
committed Power, the middle pool, tokens and tracks; never the Power or Coins
behind a House's screen. An event this module does not know reads as data.
"""

from shared_rules import canon, engine
from shared_rules.kings_dilemma.show import ENDINGS, RESOURCES, balance, house, houses, power, side_word
from shared_rules.wording import cap

# a sealed vote's options (voting.start), as words
OPTION = {"aye": "AYE", "nay": "NAY", "gather": "passes and gathers", "moderate": "passes to become Moderator"}


def _coins(n):
    return "1 Coin" if n == 1 else "%d Coins" % n


def _res(r):
    return RESOURCES[r] if isinstance(r, int) else cap(str(r).lower())


def _side_name(side):
    return "white (up)" if side > 0 else "black (down)"


def _momentum_line(group):
    how = {"board": "rolled by the board", "manual": "read from the table", "smart": "read by smart dice"}.get(group[0]["source"], group[0]["source"])
    parts = ["%s %s" % (_res(ev["resource"]), _side_name(ev["side"])) for ev in group]
    return "Momentum (%s): %s." % (how, ", ".join(parts))


def _vote(before, after, ev):
    s, side, k = ev["seat"], side_word(ev["side"]), ev["power"]
    aye, _, nay = balance(after)
    bal = "Balance AYE %d - NAY %d" % (aye, nay)
    if before["choice"][s] in ("aye", "nay"):
        return "%s adds %s to %s (%d committed; %s)." % (house(s), power(k), side, after["committed"][s], bal)
    return "%s votes %s with %s (%s)." % (house(s), side, power(k), bal)


def _pass(before, ev):
    s = ev["seat"]
    if ev["kind"] == "moderate":
        had = before["moderator"]
        took = "keeping the Moderator token" if had == s else "taking the Moderator token from %s" % house(had)
        return "%s passes to become Moderator, %s (1 Coin onto its PASS card)." % (house(s), took)
    return "%s passes and gathers (1 Coin onto its PASS card; a share of the middle pool at cleanup)." % house(s)


def _next(before, ev):
    n = len(before["choice"])
    skipped = []
    q = before["turn"]
    if q is not None:
        q = (q + 1) % n
        while q != ev["seat"] and len(skipped) < n:
            skipped.append(q)
            q = (q + 1) % n
    text = "%s to vote" % house(ev["seat"])
    if skipped:
        text += " (%s passed: %s skipped)" % (houses(skipped),
                                              "its turn is" if len(skipped) == 1 else "their turns are")
    return text + "."


def _leader(before, ev):
    s, why = ev["seat"], ev["why"]
    if why == "most_power":
        return "%s takes the Leader token from %s: strictly most Power on the Balance (%s)." % (
            house(s), house(before["leader"]), power(before["committed"][s]))
    if why == "winning_side":
        return "The Leader, %s, voted for the losing side: the Leader token goes to %s, top investor of %s (%s)." % (
            house(before["leader"]), house(s), side_word(before["side"]), power(before["committed"][s]))
    if why == "all_passed":
        return "Every House passed: the Moderator, %s, takes the Leader token too." % house(s)
    if why == "moderator":
        return "The Moderator, %s, appoints %s as Leader." % (house(before["moderator"]), house(s))
    return "%s takes the Leader token (%s)." % (house(s), why)


def _await(before, ev):
    step = ev["step"]
    if step == "side":
        if ev["aye"] == 0 and ev["nay"] == 0:
            return "The vote ends with every House passed: the Moderator, %s, names the winning side." % (
                house(before["moderator"]))
        return "The vote ends tied, AYE %d - NAY %d: the Moderator, %s, decides the winning side." % (
            ev["aye"], ev["nay"], house(before["moderator"]))
    if step == "leader":
        return "The winning side's top investors tie (%s): the Moderator, %s, appoints the Leader." % (
            houses(ev["tied"]), house(before["moderator"]))
    if step == "outcome":
        return "Dilemma Resolution: enter the winning outcome's Resource changes, in card order."
    if step == "after":
        return "Record stickers, Story cards and Envelopes, then place the card on the Time Counter."
    return "Next step: %s." % step


def _won(before, ev):
    aye, _, nay = balance(before)
    side = side_word(ev["side"])
    if ev["why"] == "more":
        return "The Vote of the Council ends: %s wins, AYE %d - NAY %d." % (side, aye, nay)
    return "The Moderator, %s, decides: %s wins." % (house(before["moderator"]), side)


def _move(before, ev):
    r, d = ev["resource"], ev["amount"]
    was_side, was_marker = before["momentum"][r], before["marker"][r]
    moved = ev["pos"] - before["resources"][r]
    extra = ev["spaces"] - abs(d)
    text = "%s %+d" % (_res(r), d)
    if extra:
        text += " and %d more with its Momentum%s" % (extra, "" if was_marker else " (it gains a Momentum marker)")
    elif ev["side"] != was_side:
        text += " against its Momentum"
    if moved == 0:
        text += ": stays on %d (the track's end)" % ev["pos"]
    else:
        text += ": %s %d to %d" % ("up" if moved > 0 else "down", abs(moved), ev["pos"])
        if abs(moved) < ev["spaces"]:
            text += " (stopped at the track's end)"
    if ev["side"] != was_side:
        text += "; Momentum flips to %s%s" % (_side_name(ev["side"]), ", marker removed" if was_marker else "")
    if "stability" in ev:
        st = ev["stability"] - before["stability"]
        if st:
            text += "; Stability %s %d to %d" % ("rises" if st > 0 else "drops", abs(st), ev["stability"])
        else:
            text += "; Stability stays on %d" % ev["stability"]
        if "abdicated" in ev and not before["abdicated"]:
            text += ": the King abdicates (Stability at the %s end; the game ends after this round)" % ev["abdicated"]
    elif before["abdicated"]:
        text += "; Stability no longer moves (the King has abdicated)"
    return text + "."


def _record(ev):
    kind = ev["kind"]
    if kind == "sticker":
        return "Chronicle sticker: %s, %s (signed by the Leader, %s)." % (_res(ev["resource"]), ev["sign"],
                                                                         house(ev.get("signer")))
    if kind == "story":
        return "Story card %d is signed by the Leader, %s." % (ev.get("number", 0), house(ev.get("signer")))
    return "Envelope %d is to be opened." % ev.get("number", 0)


def _placed(after, ev):
    st = after["settings"]
    icon = " It shows the King's-Death icon." if ev.get("death_icon") else ""
    if ev["space"] == st["death_space"]:
        k = after["on_death"]
        return "The card goes on the King's Death space (card %d there).%s" % (k, icon)
    return "The card goes on Time Counter space %d of %d.%s" % (ev["space"], st["time_counter"], icon)


def _end(ev):
    w, scores = ev["winners"], ev["scores"]
    ap = ", ".join(["%s %d" % (house(s), scores[s][5]) for s in range(len(scores))])
    best = scores[w[0]][5] if w else 0
    return "The game ends: %s. Agenda Points: %s. Winner%s: %s (%d AP)." % (
        ENDINGS.get(ev["ending"], ev["ending"]), ap, "s" if len(w) > 1 else "", houses(w), best)


def _gathered(before, after, ev):
    one, left = len(ev["seats"]) == 1, after["middle"]
    return "The middle pool is split among the gatherers: %s take%s %s%s%s." % (
        houses(ev["seats"]), "s" if one else "", power(ev["each"]), "" if one else " each",
        " (%d stays in the middle)" % left if left else "")


def _why(ev):
    return " (%s)" % ev["reason"] if ev.get("reason") else ""


_POOL_WORDS = {"coins": ("Coin", "Coins"), "power": ("Power", "Power"), "ap": ("Agenda Point", "Agenda Points")}


def _pool(ev):
    one, many = _POOL_WORDS.get(ev["pool"], (ev["pool"], ev["pool"]))
    n = ev["amount"] if ev["amount"] > 0 else -ev["amount"]
    what = "%d %s" % (n, one if n == 1 else many)
    if ev["amount"] > 0:
        return "%s takes %s from the general pool%s." % (house(ev["seat"]), what, _why(ev))
    return "%s returns %s to the general pool%s." % (house(ev["seat"]), what, _why(ev))


def _stability(a, ev):
    end = " The King abdicates: Stability reached the %s." % ev["abdicated"] if ev.get("abdicated") else ""
    return "Stability moves %s %d (now %d)%s.%s" % ("up" if ev["amount"] > 0 else "down", abs(ev["amount"]),
                                                   a["stability"], _why(ev), end)


def _momentum_set(ev):
    what = {"add": "gains a Momentum marker", "remove": "loses its Momentum marker",
            "flip": "turns to %s" % _side_name(ev["side"])}.get(ev["change"], ev["change"])
    return "%s %s%s." % (_res(ev["resource"]), what, _why(ev))


def _agenda_value(ev):
    t = ev["token"]
    return "The %s Open Agenda token for %s is worth %+d when it scores%s." % (
        "Negative" if t >= 5 else "Positive", _res(t % 5), ev["amount"], _why(ev))


# event tag -> sentence(before, after, event)
TELL = {
    "pool": lambda b, a, ev: _pool(ev),
    "stability": lambda b, a, ev: _stability(a, ev),
    "momentum_set": lambda b, a, ev: _momentum_set(ev),
    "agenda_value": lambda b, a, ev: _agenda_value(ev),
    "drawn": lambda b, a, ev: "The round's card is %s card: no Vote; it goes to the Event area%s." % (
        "an Event" if ev["card"] == "event" else "a Trigger", _why(ev)),
    "vote": _vote,
    "pass": lambda b, a, ev: _pass(b, ev),
    "stay": lambda b, a, ev: "%s stays: no more Power on %s." % (house(ev["seat"]), side_word(b["choice"][ev["seat"]])),
    "next": lambda b, a, ev: _next(b, ev),
    "leader": lambda b, a, ev: _leader(b, ev),
    "await": lambda b, a, ev: _await(b, ev),
    "won": lambda b, a, ev: _won(b, ev),
    "coins": lambda b, a, ev: "%s gives %s %s." % (house(ev["giver"]), house(ev["taker"]), _coins(ev["amount"])),
    "coins_back": lambda b, a, ev: "Cleanup: %s take%s back the Coin from %s PASS card." % (
        houses(ev["seats"]), "s" if len(ev["seats"]) == 1 else "", "its" if len(ev["seats"]) == 1 else "their"),
    "gathered": _gathered,
    "returned": lambda b, a, ev: "The losing side takes its Power back from the Balance: %s." % ", ".join(
        ["%s %d" % (house(s), p) for s, p in zip(ev["seats"], ev["power"])]),
    "to_middle": lambda b, a, ev: "The winning side's %s goes onto the middle pool (now %d)." % (
        power(ev["power"]), a["middle"]),
    "round": lambda b, a, ev: "--- Round %d: the Vote of the Council; the Leader, %s, votes first ---" % (
        ev["round"], house(ev["seat"])),
    "move": lambda b, a, ev: _move(b, ev),
    "record": lambda b, a, ev: _record(ev),
    "placed": lambda b, a, ev: _placed(a, ev),
    "end": lambda b, a, ev: _end(ev),
    "momentum": lambda b, a, ev: _momentum_line([ev]),
}


def one(before, after, ev):
    """One sentence for one event, `before` and `after` the states around it."""
    tell = TELL.get(ev["t"])
    return tell(before, after, ev) if tell else "(%s)" % canon.encode(ev)


def ballot(before, ev):
    """The sealed Vote of the Council (ballot_* events): who has voted; the choices at the reveal."""
    t = ev["t"]
    if t == "ballot_opened":
        return "The sealed %s opens: %s each commit a side and Power, or pass, on their pads." % (
            ev["question"], houses(ev["voters"]))
    if t == "ballot_voted":
        return "%s has voted." % house(ev["seat"])
    if t == "ballot_closed":
        return "The ballot is closed: a House that has not voted passes and gathers."
    if t == "ballot_set_aside":
        return "The sealed vote on that card is set aside: an Event or Trigger card is not voted on."
    b = before["ballot"]
    amounts = ev.get("amounts") or [None] * len(ev["choices"])
    said = []
    for s, c, a in zip(b["voters"], ev["choices"], amounts):
        if c is None:
            said.append("%s did not vote" % house(s))
        elif a is not None:
            said.append("%s %s with %s" % (house(s), OPTION.get(c, c), power(a)))
        else:
            said.append("%s %s" % (house(s), OPTION.get(c, c)))
    return "Revealed: %s. The choices are played from the Leader, %s, clockwise." % (
        "; ".join(said), house(before["leader"]))


def lines(before, events, action=None):
    """Plain sentences for `events`, which followed the state `before` (not modified)."""
    g = engine.game_module("kings_dilemma")
    state = canon.copy(before)
    out = []
    i = 0
    while i < len(events):
        ev = events[i]
        if ev["t"] == "momentum":
            group = []
            while i < len(events) and events[i]["t"] == "momentum" and events[i]["source"] == ev["source"]:
                group.append(events[i])
                engine.fold(g, state, canon.copy(events[i]))
                i += 1
            out.append(_momentum_line(group))
            continue
        prev = canon.copy(state)
        try:
            engine.fold(g, state, canon.copy(ev))
            out.append(ballot(prev, ev) if ev["t"][:7] == "ballot_" else one(prev, state, ev))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            out.append("(%s)" % canon.encode(ev))
        i += 1
    return out
