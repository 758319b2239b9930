"""A game's host-only modules, and its settings and action schemas with their prose.

The host's half of the registry (shared_rules/games.py): a game's words for people
(docs, show, narrate: docs/adding-a-game.md) are modules in its folder that a board
never loads, found here by their fixed names in the package the registry gives. The
board builds its menus from the bare schemas and never loads the documentation.
"""

import importlib

from shared_rules.engine import game_module
from shared_rules.errors import RuleError


def part(name, module):
    """A game's host-only module (docs, show, narrate: docs/adding-a-game.md), found in the
    game's own folder by its fixed name. A board never loads these, so their names are
    not in shared_rules/games.py, where every name is a string interned on each board."""
    return importlib.import_module(game_module(name).__name__ + "." + module)


def words(name, module):
    """part(name, module), or None when the game has no such module or is not one this
    host knows (its state and events then read as data)."""
    try:
        return part(name, module)
    except RuleError:
        return None
    except ModuleNotFoundError as e:
        if e.name != game_module(name).__name__ + "." + module:
            raise  # the game's module is there, and imports something that is not
        return None


def docs_of(name):
    """The prose about a game's settings and actions: DOCS of shared_rules/GAME/docs.py."""
    return part(name, "docs").DOCS


def describe_game(game):
    """{game, doc, settings: [...], actions: [...]}, each item with its "doc"."""
    g = game_module(game)
    docs = docs_of(g.NAME)
    settings = []
    for s in g.SETTINGS:
        d = dict(s)
        d["doc"] = docs.get("setting." + s["name"], "")
        settings.append(d)
    actions = []
    for a in g.SCHEMAS:
        d = dict(a)
        d["doc"] = docs.get(a["type"], "")
        params = []
        for p in a["params"]:
            q = dict(p)
            q["doc"] = docs.get(a["type"] + "." + p["name"], "")
            params.append(q)
        d["params"] = params
        actions.append(d)
    return {"game": g.NAME, "doc": docs.get("game", ""), "settings": settings, "actions": actions}
