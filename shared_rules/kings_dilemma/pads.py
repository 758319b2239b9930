"""A House's pad in the Vote of the Council: AYE, PASS and NAY on its three buttons.

    up = AYE, select = PASS, down = NAY (the order of the vote cards, L95-98)

On the House's voting turn (state["turn"]):
- AYE or NAY: one Power more on that side each press, held on the pad (not
  yet an action: the count shows on the display, never the Power the House
  has, which is behind its screen); pressing the other side starts its count
  afresh;
- holding AYE or NAY: the vote, or on a later turn the addition, of the
  Power counted (one if none was counted), L1743-1769, L1926-1930;
- PASS: selects, as AYE and NAY count (not yet an action): on a first turn
  "PASS: gather" (L1843-1847), pressed again "PASS: moderator" (L1855-1861),
  and again back; on a later turn "STAY" (ruling R5);
- holding PASS: the pass selected (gather if none was: one tap less for the
  commonest), or on a later turn stay.
Anything else, and any other moment, goes to the board's generic menus. The
rules core still decides: an action this builds may be refused (too much
Power, the Moderator's pass taken), and the refusal is the answer.

pad(state, seat, key, held) -> None (not the pad's business: use the menus),
or (screen lines, action or None, held) where held is the count kept for the
seat between presses ({"side", "power"} or None). With key None: the hold that
would end the House's entry from where its pad stands (that of the side it
counted or the pass it selected; a stay on a later turn), for the board to
compute that entry while it waits (firmware/ahead.py), or None. With seat and
key None (held: every pad's count, by seat): the seat whose hold would end an
entry now, so asked, or None (a House on its first turn that has counted
nothing: it will count first). With key "keys": (the voting House's seat, what each key of its
pad does now, as firmware/keymap.py's entries), or None (seat: None unless it is that House's).
"""

_HOLDS = {"aye": "back", "nay": "long_down"}  # up held is a seat pad's back (pads.py); a pass's: long_select


# what each key of the House's pad does on its voting turn, as the board's footers say it
# (firmware/keymap.py's entries, "WHO KEY WORDS" joined by "|": one string, not a tuple of each):
# a first turn, a later one (its side, or a pass)
_FIRST = "s up +1 AYE|s down +1 NAY|s back vote AYE|s long_down vote NAY|s select PASS kind|s long_select pass"
_AYE = "s up +1 AYE|s back add AYE|s long_select stay"
_NAY = "s down +1 NAY|s long_down add NAY|s long_select stay"


def pad(state, seat, key, held):
    if state["step"] != "vote":
        return None
    if key == "keys":  # the voting House's seat and its pad's keys, the footers' words
        turn = state["turn"]
        if seat is not None and seat != turn:
            return None
        mine = state["choice"][turn]
        keys = _FIRST if mine == "" else _AYE if mine == "aye" else _NAY if mine == "nay" else "s long_select stay"
        return turn, [tuple(e.split(" ", 2)) for e in keys.split("|")]
    if seat is None:
        turn = state["turn"]
        return turn if key is None and (held.get(turn) or state["choice"][turn] != "") else None
    if state["turn"] != seat:
        return None
    first = state["choice"][seat] == ""
    mine = state["choice"][seat]
    if key is None:
        if held:
            return _HOLDS.get(held["side"], "long_select")
        return None if first else "long_select"
    if key in ("up", "down", "back", "long_down"):  # back: up held (a seat pad has no back button)
        side = "aye" if key == "up" or key == "back" else "nay"
        if not first and side != mine:  # L1926: a House cannot change its choice
            return ["S%d" % seat, "you voted " + mine.upper(), "add to it only"], None, held
    if key == "up" or key == "down":
        n = held["power"] + 1 if held and held["side"] == side else 1
        return ["S%d" % seat, "%s %s" % (side.upper(), n), "hold to vote"], None, {"side": side, "power": n}
    if key == "back" or key == "long_down":
        n = held["power"] if held and held["side"] == side else 1
        if first:
            return None, {"type": "vote", "side": side, "power": n}, None
        return None, {"type": "add", "power": n}, None
    kind = held["side"] if held and held["side"] in ("gather", "moderate") else None
    if key == "select":
        if not first:
            return ["S%d" % seat, "STAY", "hold to stay"], None, None
        kind = "moderate" if kind == "gather" else "gather"
        return ["S%d" % seat, "PASS: " + ("moderator" if kind == "moderate" else kind), "hold to pass"], None, {
            "side": kind, "power": 0}
    if key == "long_select":
        return None, {"type": "pass", "kind": kind or "gather"} if first else {"type": "stay"}, None
    return None
