"""The King's Dilemma's settings and action schemas, as data (see shared_rules/schema.py).

Prose for people is in docs.py (host only). Line numbers (Lnnn) are in
../shared/seeds/kings-dilemma-rulebook.txt; rulings Rn in
../shared/rules/kings-dilemma.md section 8.

SETTINGS and SCHEMAS are re-iterables that build their dicts when iterated,
one at a time: on a board a schema dict costs far more RAM than the bytecode
that builds it, and the engine only ever looks one schema up per action
(schema.find) and reads the settings once, when a game starts. Each pass
yields fresh dicts, so a caller may keep or change what it gets.
"""

from shared_rules.schema import Built, action, by_type, ints, listof, param, reason

# The five Resources in track order (L779-781); index = position in every per-Resource list.
RESOURCES = tuple(["influence", "wealth", "morale", "welfare", "knowledge"])


def _settings():
    from shared_rules.kings_dilemma import setup  # not at the top: setup reads the package's NAME

    return setup.settings()


# The action types in the order menus offer them (_schema builds each)
_TYPES = tuple(["roll", "vote", "pass", "add", "stay", "decide", "appoint", "coins", "outcome", "record", "pool",
                "stability", "momentum", "agenda_value", "drawn", "place"])


def _side():
    return {"kind": "enum", "values": ["aye", "nay"]}


def _res():
    return {"kind": "enum", "values": list(RESOURCES)}


def _schema(t):
    """The schema of action type t alone (None if the game has none): the votes first, the
    table's entries after them."""
    if t == "vote":
        return action("vote", "seat", [param("side", _side()), param("power", ints(1, 99))])
    if t == "pass":
        return action("pass", "seat", [param("kind", {"kind": "enum", "values": ["gather", "moderate"]},
                                             optional=True, default="gather")])
    if t == "add":
        return action("add", "seat", [param("power", ints(1, 99))])
    if t == "stay":
        return action("stay", "seat", [])
    if t == "decide":
        return action("decide", "seat", [param("side", _side())])
    if t == "roll":
        return action("roll", "table", [
            param("values", listof(ints(1, 6), 1, 5), optional=True, omit="board rolls"),
            param("source", {"kind": "enum", "values": ["board", "manual", "smart"]}, optional=True,
                  default="board"),
            # a smart roll's dice: each value's die, for the log only (views.legal leaves it out of the menus)
            param("dice", listof({"kind": "text", "max": 12}, 1, 5), optional=True),
        ])
    if t == "appoint":
        return action("appoint", "seat", [param("leader", {"kind": "seat"})])
    if t == "coins":
        return action("coins", "table", [param("giver", {"kind": "seat"}), param("taker", {"kind": "seat"}),
                                         param("amount", ints(1, 999))])
    if t == "outcome":
        return action("outcome", "table", [param("resources", listof(_res(), 0, 10)),
                                           param("amounts", listof(ints(-9, 9), 0, 10))])
    if t == "record":
        return action("record", "table", [
            param("kind", {"kind": "enum", "values": ["sticker", "story", "envelope"]}),
            param("resource", _res(), optional=True),
            param("sign", {"kind": "enum", "values": ["positive", "negative"]}, optional=True),
            param("number", ints(0, 999), optional=True, default=0),
        ])
    # the printed cards' effects (effects.py), at any time but the setup roll
    if t == "pool":
        return action("pool", "table", [param("seat", {"kind": "seat"}),
                                        param("pool", {"kind": "enum", "values": ["coins", "power", "agenda"]}),
                                        param("amount", ints(-99, 99)), reason()])
    if t == "stability":
        return action("stability", "table", [param("amount", ints(-30, 30)), reason()])
    if t == "momentum":
        return action("momentum", "table", [param("resource", _res()),
                                            param("change", {"kind": "enum", "values": ["add", "remove", "flip"]}),
                                            reason()])
    if t == "agenda_value":
        return action("agenda_value", "table", [param("resource", _res()),
                                                param("sign", {"kind": "enum", "values": ["positive", "negative"]}),
                                                param("amount", ints(-9, 9)), reason()])
    if t == "drawn":
        return action("drawn", "table", [param("card", {"kind": "enum", "values": ["event", "trigger"]}), reason()])
    if t == "place":
        return action("place", "table", [
            param("where", {"kind": "enum", "values": ["time_counter", "event_area"]}, optional=True,
                  default="time_counter"),
            param("death_icon", {"kind": "bool"}, optional=True, default=False),
        ])
    return None


SETTINGS = Built(_settings)
SCHEMAS = by_type(_TYPES, _schema)
