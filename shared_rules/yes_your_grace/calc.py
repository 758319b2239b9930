"""The calculator: paying costs, discarding, doubling, Roles, totals (L15-L20, L25).

Pure functions of the entered cards; no state. A card is a tuple (type, value,
cost), type 0 Soldier, 1 Spy, 2 Diplomat, 3 Coin (actions.TYPES). Coin cards
only pay costs and add nothing to a side's total (G3).

Paying (L16-L17): the side's Coins go to its costly cards highest cost first;
the first card that cannot be paid in full is discarded with every card of a
lower (or equal, still unpaid) non-zero cost; zero-cost cards are never
discarded for lack of Coins. Which card of the tied group at the boundary is
paid is the tie-breaker's choice (Y5): `first` names card indexes paid first
among equal costs, in that order; when the choice is still open, every distinct
choice is an option, and `event`/`civil_war` return one result per distinct
set of totals (more than one: ambiguous, the table must give the order).
"""

from shared_rules.compat import const
from shared_rules.yes_your_grace.actions import TYPES

_COIN = const(3)


def parse(name):
    """(type, value, cost) of a card name from actions.card_name."""
    parts = name.split(" ")
    return TYPES.index(parts[0]), int(parts[1]), int(parts[2][1:]) if len(parts) > 2 else 0


def _picks(groups, slots, at):
    """Every way to take `slots` cards from groups of interchangeable cards (lists of indexes)."""
    if at == len(groups):
        return [[]] if slots == 0 else []
    out = []
    idx = groups[at]
    for c in range(min(slots, len(idx)) + 1):
        for rest in _picks(groups, slots - c, at + 1):
            out.append(idx[:c] + rest)
    return out


def _kinds(cards, idx):
    return sorted([(cards[i][0], cards[i][1]) for i in idx])


def options(cards, coins, first):
    """The distinct ways `coins` pay the costly cards of a side: a list of sorted index lists
    (the cards paid), one per distinct choice of the tie-breaker (one when nothing is open)."""
    costly = [i for i in range(len(cards)) if cards[i][2] > 0 and cards[i][0] != _COIN]
    costs = sorted(set([cards[i][2] for i in costly]), reverse=True)
    paid = []
    left = coins
    for c in costs:
        group = [i for i in costly if cards[i][2] == c]
        if left >= c * len(group):
            paid.extend(group)
            left -= c * len(group)
            continue
        k = left // c  # paid from this group; the next one fails, the rest below are discarded
        named = [i for i in first if i in group]
        if k <= len(named):
            return [sorted(paid + named[:k])]
        rest = [i for i in group if i not in named]
        keys = sorted(set([(cards[i][0], cards[i][1]) for i in rest]))
        groups = [[i for i in rest if (cards[i][0], cards[i][1]) == key] for key in keys]
        entry = rest[:k - len(named)]  # the cards as entered first: the working when no choice matters
        picks = [p for p in _picks(groups, k - len(named), 0) if _kinds(cards, p) != _kinds(cards, entry)]
        return [sorted(paid + named + p) for p in [entry] + picks]
    return [sorted(paid)]


def _remaining(cards, paid):
    return [i for i in range(len(cards)) if cards[i][0] != _COIN and (cards[i][2] == 0 or i in paid)]


def _present(cards, kept, roles):
    """The types present on a side after paying: for the other side's doubling (L18-L19)."""
    out = [0, 0, 0]
    for i in kept:
        out[cards[i][0]] = 1
    for r in roles:
        if r[1] < _COIN and r[2] > 0:
            out[r[1]] = 1
    return out


def _doubles(t, other):
    """Soldiers double against Spies, Spies against Diplomats, Diplomats against Soldiers (L18)."""
    return other[(t + 1) % 3] == 1


def coins_of(cards, roles):
    return sum([c[1] for c in cards if c[0] == _COIN]) + sum([r[2] for r in roles if r[1] == _COIN])


def _side(cards, paid, kept, roles, other):
    """One side's working: what was paid, discarded, kept, doubled, the Roles, the total."""
    total = 0
    doubled = []
    for i in kept:
        if _doubles(cards[i][0], other):
            doubled.append(i)
            total += 2 * cards[i][1]
        else:
            total += cards[i][1]
    out_roles = []
    for r in roles:
        d = r[1] < _COIN and _doubles(r[1], other)
        if r[1] < _COIN:
            total += r[2] * (2 if d else 1)
        out_roles.append([r[0], r[2], d])
    return {"coins": coins_of(cards, roles), "spent": sum([cards[i][2] for i in paid]), "paid": paid,
            "discarded": [i for i in range(len(cards)) if cards[i][2] > 0 and cards[i][0] != _COIN and i not in paid],
            "kept": [i for i in kept if cards[i][2] == 0], "doubled": doubled, "roles": out_roles, "total": total}


def event(sides, firsts, roles):
    """Every distinct result of an Event: a list of [support working, oppose working], one per
    distinct pair of totals. sides: the two card lists; firsts: the two tie-break lists; roles:
    per side a list of [role name, type, amount] (the Steward's amount is Coins, type 3)."""
    opts = [options(sides[k], coins_of(sides[k], roles[k]), firsts[k]) for k in (0, 1)]
    out = []
    seen = []
    for a in opts[0]:
        for b in opts[1]:
            paid = [a, b]
            kept = [_remaining(sides[k], paid[k]) for k in (0, 1)]
            present = [_present(sides[k], kept[k], roles[k]) for k in (0, 1)]
            work = [_side(sides[k], paid[k], kept[k], roles[k], present[1 - k]) for k in (0, 1)]
            key = [work[0]["total"], work[1]["total"]]
            if key not in seen:
                seen.append(key)
                out.append(work)
    return out


def _combos(opts, at):
    if at == len(opts):
        return [[]]
    return [[o] + rest for o in opts[at] for rest in _combos(opts, at + 1)]


def civil_war(per_seat, firsts):
    """Every distinct result of a Civil War tally (L25): a list of per-seat workings. Each seat's
    cards pay their own costs (ties broken by that seat) and count as one side of an Event
    against every other card still remaining."""
    n = len(per_seat)
    opts = [options(per_seat[s], coins_of(per_seat[s], ()), firsts[s]) for s in range(n)]
    out = []
    seen = []
    for paid in _combos(opts, 0):
        kept = [_remaining(per_seat[s], paid[s]) for s in range(n)]
        present = [_present(per_seat[s], kept[s], ()) for s in range(n)]
        work = []
        for s in range(n):
            others = [0, 0, 0]
            for o in range(n):
                if o != s:
                    others = [max(others[t], present[o][t]) for t in range(3)]
            work.append(_side(per_seat[s], paid[s], kept[s], (), others))
        key = [w["total"] for w in work]
        if key not in seen:
            seen.append(key)
            out.append(work)
    return out
