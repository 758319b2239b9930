"""Yes, Your Grace's calculator as the tests read it: every listed result's working.

The core (shared_rules/yes_your_grace/calc.py) builds one working at most, for a board's
heap; the tests look at the working of each distinct outcome it lists (at most calc.LISTED).
"""

from shared_rules.yes_your_grace import calc


def results(per, firsts, roles):
    """The working of each listed distinct outcome: one unless ambiguous."""
    ps, out = calc.settle(per, firsts, roles)
    return [calc._work(per, ps, calc._unpack(c, len(ps), 12), roles) for c, _ in out["listed"]]


def event(sides, firsts, roles):
    return results(sides, firsts, roles)


def civil_war(per_seat, firsts):
    return results(per_seat, firsts, [()] * len(per_seat))


def options(cards, coins, first):
    """The distinct ways `coins` pay the costly cards of a side, as sorted index lists: the cards
    as entered first, then one per other summary (types present, sums per type)."""
    p = calc._party(cards, coins, first)
    codes, _, n = calc._reps(p, 924)[0]  # C(12, 6): every choice of the most cards a side
    return [calc._paid(p, c) for c in codes[:n]]
