"""The Decktet: every card's name, rank and suits, in one table.

Source: ../shared/rules/decktet.md (basic deck of 36, extended deck of 9).
Ranks are ordered ints: Ace 1, numbers 2-9, then PAWN < COURT < CROWN; the
Excuse has rank 0 and no suit. The table is kept as one tuple of names and two
byte strings (rank, suit bits) because a tuple per card costs a board several
KB of RAM; a correction to the deck is still a one-place change here.
"""

from shared_rules.compat import const

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")

ACE = const(1)
PAWN = const(10)
COURT = const(11)
CROWN = const(12)
EXCUSE_RANK = const(0)
EXCUSE = "Excuse"
_BASIC = const(36)  # the first 36 names are the basic deck; the rest the extended deck

NAMES = (
    "Ace of Moons", "Ace of Suns", "Ace of Waves", "Ace of Leaves", "Ace of Wyrms", "Ace of Knots",
    "Author", "Desert", "Origin",
    "Journey", "Painter", "Savage",
    "Mountain", "Sailor", "Battle",
    "Forest", "Discovery", "Soldier",
    "Lunatic", "Penitent", "Market",
    "Chance Meeting", "Castle", "Cave",
    "Diplomat", "Mill", "Betrayal",
    "Pact", "Darkness", "Merchant",
    "Huntress", "Bard", "Sea", "End", "Calamity", "Windfall",
    "Watchman", "Light Keeper", "Borderland", "Harvest",
    "Consul", "Rite", "Window", "Island",
    "Excuse",
)
# rank of each card in NAMES order
_RANKS = bytes((1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9,
                12, 12, 12, 12, 12, 12, 10, 10, 10, 10, 11, 11, 11, 11, 0))
# suits of each card as bits: Moons 1, Suns 2, Waves 4, Leaves 8, Wyrms 16, Knots 32
_SUIT_BITS = bytes((1, 2, 4, 8, 16, 32,
                    1 | 32, 2 | 16, 4 | 8,        # Author, Desert, Origin
                    1 | 4, 2 | 32, 8 | 16,        # Journey, Painter, Savage
                    1 | 2, 4 | 8, 16 | 32,        # Mountain, Sailor, Battle
                    1 | 8, 2 | 4, 16 | 32,        # Forest, Discovery, Soldier
                    1 | 4, 2 | 16, 8 | 32,        # Lunatic, Penitent, Market
                    1 | 8, 2 | 32, 4 | 16,        # Chance Meeting, Castle, Cave
                    1 | 2, 4 | 8, 16 | 32,        # Diplomat, Mill, Betrayal
                    1 | 2, 4 | 16, 8 | 32,        # Pact, Darkness, Merchant
                    1, 2, 4, 8, 16, 32,           # the Crowns
                    1 | 16 | 32, 2 | 4 | 32, 4 | 8 | 16, 1 | 2 | 8,   # the Pawns
                    1 | 4 | 32, 1 | 8 | 16, 2 | 8 | 32, 2 | 4 | 16,   # the Courts
                    0))                           # the Excuse

_RANK_NAMES = {1: "Ace", 10: "Pawn", 11: "Court", 12: "Crown", 0: "Excuse"}


def _index(name):
    try:
        return NAMES.index(name)
    except ValueError:
        return -1


def is_card(name):
    return _index(name) >= 0


def rank(name):
    return _RANKS[NAMES.index(name)]


def suit_bits(name):
    return _SUIT_BITS[NAMES.index(name)]


def suits(name):
    bits = suit_bits(name)
    return tuple([SUITS[i] for i in range(6) if bits & (1 << i)])


def card(name):
    """(name, rank, suits, extended) of a card, or None if there is no such card."""
    i = _index(name)
    if i < 0:
        return None
    return (name, _RANKS[i], suits(name), 1 if i >= _BASIC else 0)


BASIC_NAMES = NAMES[:_BASIC]


def names(extended):
    """All card names of the basic deck, or of the full deck when extended (a tuple: no copy)."""
    return NAMES if extended else BASIC_NAMES


def rank_name(r):
    return _RANK_NAMES.get(r) or str(r)


def label(name):
    """'7 Castle (Suns/Knots)' - what a person at the table reads."""
    r = rank(name)
    if r == EXCUSE_RANK or r == ACE:
        return name
    return "%s %s (%s)" % (rank_name(r), name, "/".join(suits(name)))


def shares_suit(a, b):
    return (suit_bits(a) & suit_bits(b)) != 0
