"""A new game for a board, as typed by a person: `GAME [SETTING=VALUE ...]`.

The mirror's `:new kings_dilemma players=3 voting=sealed` and `chancery sim
GAME --set NAME=VALUE` both come here. The settings are read with the same
parser as every typed action (commands.py), against a schema made from the
game's SETTINGS, so a mistake is answered with the setting's name and what it
allows. The board checks them again (firmware/table.py, Table.start).
"""

from chancery.words import commands
from shared_rules import engine, games
from shared_rules.errors import RuleError
from shared_rules.schema import action, param


def settings_schema(game):
    """The game's settings as the parameters of one action (every one optional)."""
    g = engine.game_module(game)
    return action("new_game", "table", [param(s["name"], s["domain"], optional=True, default=s["default"])
                                        for s in g.SETTINGS])


def parse(words):
    """{"type": "new_game", "game": G, "settings": {...}} from ["GAME", "NAME=VALUE", ...];
    raises commands.ParseError naming what is wrong."""
    if not words:
        raise commands.ParseError("new: which game? one of %s" % ", ".join(games.GAMES))
    game = words[0]
    try:
        schema = settings_schema(game)
    except RuleError:
        raise commands.ParseError("new: no game %r; the games: %s" % (game, ", ".join(games.GAMES)))
    names = [p["name"] for p in schema["params"]]
    for w in words[1:]:
        name = w.split("=")[0]
        if "=" in w and name not in names:
            raise commands.ParseError("new: %s has no setting %r; its settings: %s" % (game, name, ", ".join(names)))
    act = commands.parse(" ".join(["new_game"] + list(words[1:])), [schema], 5, ())
    act.pop("type")
    return {"type": "new_game", "game": game, "settings": act}
