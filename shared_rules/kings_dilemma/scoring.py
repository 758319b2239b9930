"""End of game scoring (L3332-3560) with rulings R13-R15.

Agenda Points (AP) per House: Open Agenda tokens (L3531-3542), the Power
bonus (L3551-3555), the Secret Agenda's Money Ranking (L3369-3378) and its
Resource goal (L3350-3358), whose values are tables entered as settings
because the extract lost them (R15). Most AP wins; ties share (L3557-3560).
"""

from shared_rules.kings_dilemma.rulings import RULINGS
from shared_rules.schema import ruling


def place(values, i, dense=True, high=True):
    """1-based place of values[i] (high: the largest is 1st). Dense ranking
    (R13): tied values share a place and the next distinct value takes the
    next place; competition ranking skips the places the ties used."""
    v = values[i]
    better = [x for x in values if (x > v if high else x < v)]
    if dense:
        seen = []
        for x in better:
            if x not in seen:
                seen.append(x)
        return len(seen) + 1
    return len(better) + 1


def _at(table, k):
    """table[k], or 0 beyond it."""
    return table[k] if 0 <= k < len(table) else 0


def open_agendas(positions, positive, negative, dense=True, extra=None):
    """AP per seat index from the tokens: positive[r] / negative[r] = seat or -1. The game
    scores them dense (scores() below); `dense` is for the calculator's what-ifs.

    Positive: highest +3, second +1; Negative: lowest -3, second lowest -1 (L3531-3542).
    extra: 10 ints (positive tokens, then negative) added to a token's points when it scores
    at all: an active Story card's "+1 additional" (L1659-1663; a -1 makes a penalty heavier)."""
    out = {}
    for r in range(len(positions)):
        if positive and positive[r] >= 0:
            got = _at([0, 3, 1], place(positions, r, dense, True))
            if got and extra:
                got += extra[r]
            out[positive[r]] = out.get(positive[r], 0) + got
        if negative and negative[r] >= 0:
            got = _at([0, -3, -1], place(positions, r, dense, False))
            if got and extra:
                got += extra[5 + r]
            out[negative[r]] = out.get(negative[r], 0) + got
    return out


def bonus(values, i, dense=True, zero=False):
    """Most +2, second +1 (L3551-3555); a House with none left earns nothing (ruling K3), or
    with zero=True (the setting zero_power = ranked) 0 ranks like any other count."""
    if values[i] <= 0 and not zero:
        return 0
    return _at([0, 2, 1], place(values, i, dense, True))


def scores(state):
    """Per House: [open agendas, power bonus, coin bonus, money ranking, resource goal, total]; the
    total also holds the Agenda Points effects gave (state["ap"], ruling K9)
    (lists, not dicts: five of them are copied with every later state on a board)."""
    s = state["settings"]
    n = s["players"]
    dense = s["ranking"] == "dense"
    zero = ruling(state, "zero_power", RULINGS) == "ranked"  # K3, a table's ruling
    pos = state["resources"]
    tokens = s["open_agendas"]
    # Open Agendas rank by distinct positions whatever `ranking` says: the rulebook's own
    # example fixes it (L3513-3542: two Resources tied highest, the next is second).
    opened = open_agendas(pos, tokens[:5], tokens[5:], True, state["agenda_bonus"])
    out = []
    for seat in range(n):
        row = [opened.get(seat, 0), bonus(state["power"], seat, dense, zero), 0, 0, 0]
        if s["coin_bonus"]:
            row[2] = bonus(state["coins"], seat, dense, zero)
        if s["agenda_money"]:
            row[3] = _at([0] + s["agenda_money"][seat], place(state["coins"], seat, dense, True))
        if s["agenda_goal"]:
            area = s["agenda_area"][seat] if s["agenda_area"] else []
            row[4] = _at(s["agenda_goal"][seat], len([p for p in pos if p in area]))
        row.append(row[0] + row[1] + row[2] + row[3] + row[4] + state["ap"][seat])  # + effects' AP (K9)
        out.append(row)
    return out
