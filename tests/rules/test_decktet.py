"""The card table in shared_rules/decktet.py, checked card by card against ../shared/rules/decktet.md."""

import os
import re

import paths
import pytest

from shared_rules import decktet

# the shared folder beside the checkout (CI has it), or wherever CHANCERY_SHARED names
SHARED = os.environ.get("CHANCERY_SHARED") or os.path.join(paths.TESTS, "..", "..", "shared")
DIGEST = os.path.join(SHARED, "rules", "decktet.md")
RANKS = {"Ace": 1, "Pawn": 10, "Court": 11, "Crown": 12}


def digest_cards():
    """{name: (rank, suits)} from the digest's two tables."""
    if not os.path.exists(DIGEST):
        pytest.skip("no Decktet digest at %s: put the project's shared/ folder beside the checkout "
                    "(or name it with CHANCERY_SHARED) to check the card table against it" % DIGEST)
    cards = {}
    for line in open(DIGEST, encoding="utf-8"):
        m = re.match(r"\| (Ace|\d|Crown|Pawn|Court) \| (.*) \|$", line.strip())
        if not m:
            continue
        rank = RANKS.get(m.group(1)) or int(m.group(1))
        if m.group(1) == "Ace":
            for suit in decktet.SUITS:
                cards["Ace of " + suit] = (1, (suit,))
            continue
        if m.group(1) == "Crown":  # "one per suit: Huntress (Moons), Bard (Suns), ..."
            for name, suit in re.findall(r"(\w+) \((\w+)\)", m.group(2)):
                cards[name] = (rank, (suit,))
            continue
        for item in m.group(2).split(" · "):  # "Author: Moons, Knots · Desert: ..."
            name, suits = item.split(":")
            cards[name.strip()] = (rank, tuple(s.strip() for s in suits.split(",")))
    cards["Excuse"] = (0, ())
    return cards


def test_every_card_matches_the_digest():
    expected = digest_cards()
    assert len(expected) == 45
    got = {name: (decktet.rank(name), decktet.suits(name)) for name in decktet.NAMES}
    assert got == expected


def test_basic_and_extended_decks():
    assert len(decktet.names(False)) == 36 and len(decktet.names(True)) == 45
    for name in decktet.names(True)[36:]:
        assert decktet.rank(name) in (decktet.PAWN, decktet.COURT, 0)
    # each suit is on ten basic cards: its Ace, its Crown and one card of each rank 2-9
    for suit in decktet.SUITS:
        assert sum(1 for n in decktet.names(False) if suit in decktet.suits(n)) == 10


def test_labels_read_as_at_the_table():
    assert decktet.label("Castle") == "7 Castle (Suns/Knots)"
    assert decktet.label("Windfall") == "Crown Windfall (Knots)"
    assert decktet.label("Ace of Moons") == "Ace of Moons"
