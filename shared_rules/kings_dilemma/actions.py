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

from shared_rules.schema import Built, action, param, reason

# The five Resources in track order (L779-781); index = position in every per-Resource list.
RESOURCES = tuple(["influence", "wealth", "morale", "welfare", "knowledge"])


def _int(lo, hi):
    return {"kind": "int", "min": lo, "max": hi}


def _list(of, lo, hi):
    return {"kind": "list", "of": of, "min": lo, "max": hi}


def _settings():
    from shared_rules.kings_dilemma import setup  # read for a new game only (the board lets it go)

    return setup.settings()


def _schemas():
    side = {"kind": "enum", "values": ["aye", "nay"]}
    res = {"kind": "enum", "values": list(RESOURCES)}
    power = [param("power", _int(1, 99))]
    yield action("roll", "table", [
        param("values", _list(_int(1, 6), 1, 5), optional=True, omit="board rolls"),
        param("source", {"kind": "enum", "values": ["board", "manual", "smart"]}, optional=True, default="board"),
        # a smart roll's dice: each value's die, for the log only (views.legal leaves it out of the menus)
        param("dice", _list({"kind": "text", "max": 12}, 1, 5), optional=True),
    ])
    yield action("vote", "seat", [param("side", side), power[0]])
    yield action("pass", "seat", [param("kind", {"kind": "enum", "values": ["gather", "moderate"]},
                                        optional=True, default="gather")])
    yield action("add", "seat", power)
    yield action("stay", "seat", [])
    yield action("decide", "seat", [param("side", side)])
    yield action("appoint", "seat", [param("leader", {"kind": "seat"})])
    yield action("coins", "table", [param("giver", {"kind": "seat"}), param("taker", {"kind": "seat"}),
                                    param("amount", _int(1, 999))])
    yield action("outcome", "table", [param("resources", _list(res, 0, 10)),
                                      param("amounts", _list(_int(-9, 9), 0, 10))])
    yield action("record", "table", [
        param("kind", {"kind": "enum", "values": ["sticker", "story", "envelope"]}),
        param("resource", res, optional=True),
        param("sign", {"kind": "enum", "values": ["positive", "negative"]}, optional=True),
        param("number", _int(0, 999), optional=True, default=0),
    ])
    # the printed cards' effects (effects.py), at any time but the setup roll
    why = reason()
    yield action("pool", "table", [param("seat", {"kind": "seat"}),
                                   param("pool", {"kind": "enum", "values": ["coins", "power", "agenda"]}),
                                   param("amount", _int(-99, 99)), why])
    yield action("stability", "table", [param("amount", _int(-30, 30)), why])
    yield action("momentum", "table", [param("resource", res),
                                       param("change", {"kind": "enum", "values": ["add", "remove", "flip"]}), why])
    yield action("agenda_value", "table", [param("resource", res),
                                           param("sign", {"kind": "enum", "values": ["positive", "negative"]}),
                                           param("amount", _int(-9, 9)), why])
    yield action("drawn", "table", [param("card", {"kind": "enum", "values": ["event", "trigger"]}), why])
    yield action("place", "table", [
        param("where", {"kind": "enum", "values": ["time_counter", "event_area"]}, optional=True,
              default="time_counter"),
        param("death_icon", {"kind": "bool"}, optional=True, default=False),
    ])


SETTINGS = Built(_settings)
SCHEMAS = Built(_schemas)
