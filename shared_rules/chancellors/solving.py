"""Card values and what makes a solve (steps B and C).

Rules: ../shared/seeds/chancellors.txt L49-L59 (with control), L63-L67
(without help), L104 (the Excuse), L106 (Pawns and Courts count like Crowns).
"""

from shared_rules import decktet
from shared_rules.chancellors.services import CARD


def card_value(card, dice):
    """Ace 1, numbers their rank, Pawn/Court/Crown the higher die (L53, L106)."""
    r = decktet.rank(card)
    if r >= decktet.PAWN:
        return max(dice[0], dice[1])
    return r


def whole_need(dice, help_):
    """What the cards must add up to for a whole solve: the dice sum, or
    twice that without help (L65). help_ is "service", "excuse" or "none"."""
    total = dice[0] + dice[1]
    return total * 2 if help_ == "none" else total


def whole_points(dice):
    return dice[0] + dice[1]


def part_points(dice):
    """Half the dice sum, rounded up (L59)."""
    return (dice[0] + dice[1] + 1) // 2


def part_ok(card, dice):
    """A single card of value at most the lower die (L57): so a 1 needs an
    Ace, and a Crown works only on a double."""
    return card_value(card, dice) <= min(dice[0], dice[1])


def suits_ok(card, services):
    """C2: in step B a card must share a suit with any service the seat controls."""
    for s in services:
        if decktet.shares_suit(card, CARD[s]):
            return True
    return False
