"""A game's settings and action schemas with their prose, for people and forms.

Host side: the board builds its menus from the bare schemas and never loads
the documentation.
"""

from shared_rules import games
from shared_rules.engine import game_module


def describe_game(game):
    """{game, doc, settings: [...], actions: [...]}, each item with its "doc"."""
    g = game_module(game)
    docs = games.docs(g.NAME)
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
