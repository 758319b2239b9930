"""A new game for a board, as typed by a person: `GAME [SETTING=VALUE ...] [NAME ...]`.

The mirror's `:new kings_dilemma players=3 voting=sealed` and `chancery sim
GAME --set NAME=VALUE` both come here; the mirror's `:new chancellors Ann Bob Cy Dee`
names the seats too (`with_names`): the words after the settings that are no
setting, or everything after `names=` (`names=Mary Ann, Bob`). The settings are read with the same
parser as every typed action (commands.py), against a schema made from the
game's SETTINGS, so a mistake is answered with the setting's name and what it
allows. The board checks them again (firmware/table.py, Table.start).
"""

from chancery.words import commands
from chancery.words import names as seat_words
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


def with_names(words):
    """(the new_game action, the seats' names or None) from ["GAME", "NAME=VALUE", ..., "Ann", "Bob"]
    or [..., "names=Ann,Bob"]: the names are checked against the new game's seats. Bare words
    are read as settings first (`chancellors 3` is players=3), and the last ones that are no
    setting as names. Raises commands.ParseError naming what is wrong."""
    words = list(words)
    at = [k for k in range(1, len(words)) if words[k].lower() == "names" or words[k].lower().startswith("names=")]
    if at:
        act = parse(words[:at[0]])
        text = " ".join(words[at[0]:])[len("names"):].lstrip()
        return act, seat_words.checked(seat_words.split(text[1:] if text[:1] == "=" else text), seats_of(act))
    bare = [k for k in range(1, len(words)) if "=" not in words[k]]
    first = None
    for cut in range(len(bare) + 1):  # the fewest trailing bare words taken as names
        taken = bare[len(bare) - cut:]
        try:
            act = parse([w for k, w in enumerate(words) if k not in taken])
        except commands.ParseError as e:
            first = first or e
            continue
        if not taken:
            return act, None
        return act, seat_words.checked(seat_words.split(" ".join([words[k] for k in taken])), seats_of(act))
    raise first


def seats_of(act):
    """How many seats the new game has: its players setting, given or by default (a setting out of
    its domain is said here, since the names cannot be checked without it)."""
    try:
        return engine.settings_for(engine.game_module(act["game"]), act["settings"])["players"]
    except RuleError as e:
        raise commands.ParseError("new: %s" % games.message(e))
