"""The Decktet: every card's name, rank and suits, in one table.

Source: ../shared/rules/decktet.md (basic deck of 36, extended deck of 9).
Ranks are ordered ints: Ace 1, numbers 2-9, then PAWN < COURT < CROWN; the
Excuse has rank 0 and no suit. The table is kept as one tuple of names and two
byte strings (rank, suit bits) because a tuple per card costs a board several
KB of RAM; a correction to the deck is still a one-place change here. The
names are split from one string: as a constant tuple MicroPython would keep
each name as an object of its own plus the tuple's copy (3.5 KB), and as
interned strings (a list of literals) they would push a board past the
boundary where its table of interned strings doubles (7 KB at once).
"""

from shared_rules.compat import const

SUITS = tuple(["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"])

_ACE = const(1)
PAWN = const(10)
COURT = const(11)
_CROWN = const(12)
_EXCUSE_RANK = const(0)
EXCUSE = "Excuse"
_BASIC = const(36)  # the first 36 names are the basic deck; the rest the extended deck

NAMES = tuple((
    "Ace of Moons|Ace of Suns|Ace of Waves|Ace of Leaves|Ace of Wyrms|Ace of Knots|"
    "Author|Desert|Origin|"
    "Journey|Painter|Savage|"
    "Mountain|Sailor|Battle|"
    "Forest|Discovery|Soldier|"
    "Lunatic|Penitent|Market|"
    "Chance Meeting|Castle|Cave|"
    "Diplomat|Mill|Betrayal|"
    "Pact|Darkness|Merchant|"
    "Huntress|Bard|Sea|End|Calamity|Windfall|"
    "Watchman|Light Keeper|Borderland|Harvest|"
    "Consul|Rite|Window|Island|"
    "Excuse").split("|"))
# Rank of each card, in NAMES order. Byte-string literals, not bytes((...)):
# a tuple of ints would be kept alive in the module's constants (1 KB each).
_RANKS = (
    b"\x01\x01\x01\x01\x01\x01\x02\x02\x02\x03\x03\x03"
    b"\x04\x04\x04\x05\x05\x05\x06\x06\x06\x07\x07\x07"
    b"\x08\x08\x08\x09\x09\x09\x0c\x0c\x0c\x0c\x0c\x0c"
    b"\x0a\x0a\x0a\x0a\x0b\x0b\x0b\x0b\x00"
)
# Suits of each card as bits (Moons 1, Suns 2, Waves 4, Leaves 8, Wyrms 16,
# Knots 32), in NAMES order; rows as in decktet.md: Aces, the 2s ... the 9s
# (three cards each), Crowns, Pawns, Courts, the Excuse.
_SUIT_BITS = (
    b"\x01\x02\x04\x08\x10\x20\x21\x12\x0c\x05\x22\x18"
    b"\x03\x0c\x30\x09\x06\x30\x05\x12\x28\x09\x22\x14"
    b"\x03\x0c\x30\x03\x14\x28\x01\x02\x04\x08\x10\x20"
    b"\x31\x26\x1c\x0b\x25\x19\x2a\x16\x00"
)

_RANK_NAMES = {1: "Ace", 10: "Pawn", 11: "Court", 12: "Crown", 0: "Excuse"}


def rank(name):
    return _RANKS[NAMES.index(name)]


def suit_bits(name):
    return _SUIT_BITS[NAMES.index(name)]


def suits(name):
    bits = suit_bits(name)
    return tuple([SUITS[i] for i in range(6) if bits & (1 << i)])


BASIC_NAMES = NAMES[:_BASIC]


def names(extended):
    """All card names of the basic deck, or of the full deck when extended (a tuple: no copy)."""
    return NAMES if extended else BASIC_NAMES


def rank_name(r):
    return _RANK_NAMES.get(r) or str(r)


def label(name):
    """'7 Castle (Suns/Knots)' - what a person at the table reads."""
    r = rank(name)
    if r == _EXCUSE_RANK or r == _ACE:
        return name
    return "%s %s (%s)" % (rank_name(r), name, "/".join(suits(name)))


def shares_suit(a, b):
    return (suit_bits(a) & suit_bits(b)) != 0
