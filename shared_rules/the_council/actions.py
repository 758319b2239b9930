"""The Council's settings and action schemas, as data (see shared_rules/schema.py).

Prose for people is in docs.py (host only). Lnn: lines of
../shared/seeds/the-council.txt; Tn: rulings of ../shared/rules/the-council.md;
Cn: this package's own rulings (__init__.py).

SETTINGS and SCHEMAS are re-iterables that build their dicts when iterated
(as in kings_dilemma/actions.py): a board keeps only the bytecode. Every name
here is a string the board interns for good, so names are reused where they
fit: the bid's parameters are the suits' own names (decktet.SUITS), the
resume setting of the chips is "chips", the draft's entry mode is "draft", and
the table's effects (effects.py) are named after the state's lists they change.
"""

from shared_rules.decktet import SUITS
from shared_rules.schema import Built, action, param, reason

# The table's effects (effects.py, C17): each changes one count in the state's list of its name.
EFFECTS = tuple(["chips", "ranks", "traitors", "empire"])


def _settings():
    six = {"kind": "list", "of": {"kind": "int", "min": 0, "max": 6}, "min": 6, "max": 6}
    per_seat = {"kind": "list", "of": {"kind": "int", "min": 0, "max": 99}, "min": 0, "max": 5}
    for name, domain, default in (
            ("players", {"kind": "int", "min": 3, "max": 5}, 4),
            ("extended", {"kind": "bool"}, False),
            ("dealer", {"kind": "int", "min": 0, "max": 4}, 0),
            # the draft entered as cards, chips derived (L23), or with the chips as counted (C3)
            ("draft", {"kind": "enum", "values": ["cards", "chips"]}, "cards"),
            ("events", {"kind": "int", "min": 0, "max": 45}, 0),  # T1: 0 = until the deck is empty
            ("effects", {"kind": "enum", "values": ["matching", "all"]}, "matching"),  # T4
            ("lowest", {"kind": "enum", "values": ["all", "bidders"]}, "all"),  # T7
            ("lowest_ties", {"kind": "enum", "values": ["none", "all"]}, "none"),  # T7
            # a game resumed (or a teaching position): [] = the seed's setup (L13-L14)
            ("ranks", {"kind": "list", "of": six, "min": 0, "max": 5}, []),
            ("empire", {"kind": "list", "of": {"kind": "int", "min": 0, "max": 6}, "min": 0, "max": 6}, []),
            ("traitors", per_seat, []),
            ("chips", {"kind": "list", "of": dict(six, of={"kind": "int", "min": 0, "max": 99}), "min": 0,
                       "max": 5}, [])):
        yield {"name": name, "domain": domain, "default": default}


def _schemas():
    card = {"kind": "card", "deck": "decktet"}
    yield action("draft", "seat", [
        param("cards", {"kind": "list", "of": card, "min": 5, "max": 5, "distinct": True}),
        param("chips", {"kind": "list", "of": {"kind": "int", "min": 0, "max": 15}, "min": 6, "max": 6},
              optional=True),
    ])
    yield action("event", "table", [param("card", card)])
    yield action("bid", "seat", [param(k, {"kind": "int", "min": 0, "max": 99}, optional=True, default=0)
                                 for k in SUITS])
    yield action("pass", "seat", [])
    # the table's effects (C17-C19): a count moved by an amount (+ gained, - lost), small enough
    # to turn to on a pad's menu; a larger change is entered twice
    seat = param("seat", {"kind": "seat"})
    suit = param("suit", {"kind": "enum", "values": list(SUITS)})
    why = reason()
    chips = {"kind": "int", "min": -9, "max": 9}
    ranks = {"kind": "int", "min": -6, "max": 6}  # the tracks run 0-6 (L8)
    yield action("chips", "table", [seat, suit, param("amount", chips), why])
    yield action("ranks", "table", [seat, suit, param("amount", ranks), why])
    yield action("traitors", "table", [seat, param("amount", chips), why])
    yield action("empire", "table", [suit, param("amount", ranks), why])


SETTINGS = Built(_settings)
SCHEMAS = Built(_schemas)
