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
from shared_rules.schema import Built, action, by_type, param, reason

# The table's effects (effects.py, C17): each changes one count in the state's list of its name.
EFFECTS = tuple(["chips", "ranks", "traitors", "empire"])


def _settings():
    from shared_rules.the_council import setup  # not at the top: setup reads the package's NAME

    return setup.settings()


# The action types in the order menus offer them (_schema builds each)
_TYPES = tuple(["draft", "event", "bid", "pass", "chips", "ranks", "traitors", "empire"])


def _schema(t):
    """The schema of action type t alone (None if the game has none)."""
    if t == "bid":
        return action("bid", "seat", [param(k, {"kind": "int", "min": 0, "max": 99}, optional=True, default=0)
                                      for k in SUITS])
    if t == "pass":
        return action("pass", "seat", [])
    card = {"kind": "card", "deck": "decktet"}
    if t == "draft":
        return action("draft", "seat", [
            param("cards", {"kind": "list", "of": card, "min": 5, "max": 5, "distinct": True}),
            param("chips", {"kind": "list", "of": {"kind": "int", "min": 0, "max": 15}, "min": 6, "max": 6},
                  optional=True),
        ])
    if t == "event":
        return action("event", "table", [param("card", card)])
    # the table's effects (C17-C19): a count moved by an amount (+ gained, - lost), small enough
    # to turn to on a pad's menu; a larger change is entered twice
    chips = {"kind": "int", "min": -9, "max": 9}
    ranks = {"kind": "int", "min": -6, "max": 6}  # the tracks run 0-6 (L8)
    suit = param("suit", {"kind": "enum", "values": list(SUITS)})
    if t == "chips":
        return action("chips", "table", [param("seat", {"kind": "seat"}), suit, param("amount", chips), reason()])
    if t == "ranks":
        return action("ranks", "table", [param("seat", {"kind": "seat"}), suit, param("amount", ranks), reason()])
    if t == "traitors":
        return action("traitors", "table", [param("seat", {"kind": "seat"}), param("amount", chips), reason()])
    if t == "empire":
        return action("empire", "table", [suit, param("amount", ranks), reason()])
    return None


SETTINGS = Built(_settings)
SCHEMAS = by_type(_TYPES, _schema)
