"""Events, damage, succession and the Civil War: the checks, the calculator's working, the events.

An Event's emitted event carries the working (calc.py): per side the Coins, the
cards paid, discarded, kept (zero cost) and doubled (indexes into the side's
cards as entered), the Roles' contributions and the total, then the outcome,
so the host and the board can show the table how it was computed.
"""

from shared_rules.errors import RuleError
from shared_rules.schema import ruling
from shared_rules.yes_your_grace import calc
from shared_rules.yes_your_grace.actions import KINDS, ROLES
from shared_rules.yes_your_grace.rulings import RULINGS


def waiting(state):
    """The seats whose Allegiance is still to be shown at the end (not the King, not the Heir)."""
    if state["step"] != "reveal":
        return []
    return [s for s in range(len(state["shown"])) if state["shown"][s] is None and s != state["king"]
            and s != state["heir"]]


def victory(state, emit):
    """L26: the King and the Heir; the side of the King's face with its Role; the Chaos Agent
    with two or more Records of Notable Violence."""
    won = [state["king"]]
    if state["heir"] is not None:
        won.append(state["heir"])
    violence = len([r for r in state["annals"] if r == "violence"])
    for s in range(len(state["shown"])):
        a = state["shown"][s]
        if a is None or s in won:
            continue
        if a[0] == "chaos":
            if violence >= 2:
                won.append(s)
        elif a[0] == state["face"] and a[1] is not None and state["roles"][ROLES.index(a[1])] == s:
            won.append(s)
    emit({"t": "over", "ending": "annals", "winners": sorted(won)})


def write(state, kind, emit):
    """Write a Record in the Annals (L20-L21); at the last one (Y1) the game ends at once
    (L26): True then. Seats other than the King and the Heir show their Allegiance."""
    emit({"t": "record", "kind": kind, "number": len(state["annals"]) + 1})
    if len(state["annals"]) < state["settings"]["annals"]:
        return False
    emit({"t": "phase", "step": "reveal"})
    if not waiting(state):
        victory(state, emit)
    return True


def role_amounts(state, roles):
    """[role, type, amount] for each Role card on a side, from its holder's Holdings now (L19, Y2)."""
    out = []
    for name in roles:
        r = ROLES.index(name)
        seat = state["roles"][r]
        have = state["holdings"][seat][r]
        if r == 3:
            if state["settings"]["steward"] == "all":
                have += state["damaged"][seat][r]
            have *= 2
        out.append([name, r, have])
    return out


def _indexes(name, first, cards):
    for i in first:
        if i >= len(cards):
            raise RuleError("bad_index", {"name": name, "index": i, "cards": len(cards)})


def _ambiguous(out, war=False):
    """Y5, G5: the listed outcomes (at most calc.LISTED), how many there are ("more": at least
    that many), and per side or seat the tied cards whose order the table must give ("open")."""
    facts = {"outcomes": out["outcomes"], "count": out["count"], "open": out["open"]}
    if not out["exact"]:
        facts["more"] = True
    if war:
        facts["war"] = True
    raise RuleError("ambiguous", facts)


def event(state, act, emit):
    kind = act["kind"]
    sides = [[calc.parse(c) for c in act["support"]], [calc.parse(c) for c in act["oppose"]]]
    firsts = [act["support_first"], act["oppose_first"]]
    _indexes("support_first", firsts[0], sides[0])
    _indexes("oppose_first", firsts[1], sides[1])
    roles = [act["support_roles"], act["oppose_roles"]]
    for name in roles[0] + roles[1]:
        if name in roles[0] and name in roles[1]:
            raise RuleError("role_twice", {"role": name})
        if state["roles"][ROLES.index(name)] is None:
            raise RuleError("role_unheld", {"role": name})
        if ROLES.index(name) in state["played"]:  # a Role card goes to one Event a round (L12-L13, L21)
            raise RuleError("role_played", {"role": name, "round": state["round"]})
    ev = {"t": "event", "kind": kind, "extra": act["extra"]}
    if kind != "crisis":  # an Intrigue card: who played it, on whom (L14, L22)
        c, t = act.get("controller"), act.get("target")
        if c is None or t is None or c == t:
            raise RuleError("bad_event", {"kind": kind, "controller": c, "target": t})
        if kind == "overthrow" and t not in state["kings"]:  # G13: or a King of this round, fallen since
            raise RuleError("overthrow_king", {"target": t, "king": state["king"]})
        ev["controller"], ev["target"] = c, t
    out = calc.outcomes(sides, firsts, [role_amounts(state, roles[0]), role_amounts(state, roles[1])])
    if out["count"] > 1:  # Y5: the tie-breakers must say which tied cards are paid first
        _ambiguous(out)
    work = out["result"]
    ev["support"], ev["oppose"] = work[0], work[1]
    ev["success"] = work[0]["total"] > work[1]["total"] and act["extra"]
    emit(ev)
    if kind != "crisis":
        return  # Intrigue: the controller enacts the effect (holding, role, heir, fall), or nothing
    if ev["success"]:
        write(state, "triumph", emit)  # Y3: one Triumph per successful Crisis, as it resolves
        return
    king = state["king"]
    if sum(state["damaged"][king]) >= 4:  # Y4: a King with four Damaged Holdings is Deposed
        fall(state, "deposed", None, emit)
        return
    whole = state["holdings"][king]
    count = min(2, sum(whole))
    held = [k for k in range(4) if whole[k]]
    if len(held) == 1 or sum(whole) <= 2:  # nothing to choose: damage what there is (Y4)
        kinds = []
        for k in held:
            kinds.extend([k] * min(whole[k], count - len(kinds)))
        if kinds:
            emit({"t": "damage", "seat": king, "kinds": kinds})
    else:  # G6: the King names the two Holdings
        emit({"t": "await", "count": count})


def damage(state, names, emit):
    king = state["king"]
    kinds = sorted([KINDS.index(k) for k in names])
    if len(kinds) != state["pending"] or [k for k in kinds if kinds.count(k) > state["holdings"][king][k]]:
        raise RuleError("bad_damage", {"seat": king, "count": state["pending"], "kinds": names,
                                           "undamaged": [KINDS[j] for j in range(4) if state["holdings"][king][j]]})
    emit({"t": "damage", "seat": king, "kinds": kinds})


def fall(state, how, to, emit, reason=None):
    """The King Deposed or Assassinated (L23-L25): `to` takes the crown (an Intrigue effect),
    else the Heir, else Civil War. `reason`: the effect's (effects.fall), kept in the event."""
    king = state["king"]
    if to is None:
        to = state["heir"]
    elif to == king:
        raise RuleError("same_king", {"seat": to})
    ev = {"t": "fall", "how": how, "king": king, "successor": to}
    if reason:
        ev["reason"] = reason
    emit(ev)


def accede(state, act, emit):
    """The successor shows their Allegiance; the King card faces its side, or the side a
    Chaos Agent picks (L23); a Chaos Agent crowned by a Civil War wins alone (L25)."""
    side, face, seat = act["side"], act.get("face"), state["successor"]
    if side == "chaos" and state["war"]:
        emit({"t": "accede", "seat": seat, "face": state["face"], "side": side})
        emit({"t": "over", "ending": "chaos", "winners": [seat]})
        return
    if side == "chaos":
        if face is None:
            raise RuleError("face_needed", {"seat": seat})
    elif face is not None and face != side:
        raise RuleError("bad_face", {"seat": seat, "side": side, "face": face})
    ev = {"t": "accede", "seat": seat, "face": face or side, "side": side}
    heir = state["heir"]
    if heir is not None and heir != seat and not state["war"] and ruling(state, "overthrow_heir", RULINGS) == "stays":
        ev["heir"] = heir  # G16: the crown went by a card past the Heir, who stays Heir (the table's ruling)
    emit(ev)


def civil_war(state, act, emit):
    """L25: one Resource per Undamaged Holding, each played for a seat; each seat's cards
    against all the others; the highest total is crowned, a tie decided by the former King."""
    n = len(state["holdings"])
    per_seat = [[calc.parse(c) for c in act["cards"][s]] for s in range(n)]
    firsts = act.get("first") or [[] for _ in range(n)]
    for s in range(n):
        _indexes("first", firsts[s], per_seat[s])
    for t in range(4):  # G8: no more cards of a type than Undamaged Holdings of its kind
        have = sum([state["holdings"][s][t] for s in range(n)])
        used = sum([len([c for c in cards if c[0] == t]) for cards in per_seat])
        if used > have:
            raise RuleError("too_many_cards", {"kind": KINDS[t], "have": have, "used": used})
    out = calc.outcomes(per_seat, firsts, [()] * n, False)
    if out["count"] > 1:
        _ambiguous(out, True)
    work = out["result"]
    totals = [w["total"] for w in work]
    tied = [s for s in range(n) if totals[s] == max(totals)]
    winner = tied[0]
    if len(tied) > 1:
        winner = act.get("winner")
        if winner not in tied:
            raise RuleError("tie_for_crown", {"tied": tied, "total": max(totals), "former": state["former"],
                                              "winner": winner}, tied)
    emit({"t": "civil_war", "seats": work, "tied": tied, "winner": winner})
