"""A game's settings and action schemas with their prose, for people and forms.

Host side: the board builds its menus from the bare schemas and never loads
the documentation.
"""

from shared_rules.engine import game_module


def docs_of(name):
    """The prose about a game's settings and actions: DOCS of shared_rules/GAME/docs.py.
    Named here, not in games.py: every string a board's modules name is interned there."""
    if name == "chancellors":
        from shared_rules.chancellors.docs import DOCS
    elif name == "kings_dilemma":
        from shared_rules.kings_dilemma.docs import DOCS
    elif name == "the_council":
        from shared_rules.the_council.docs import DOCS
    elif name == "yes_your_grace":
        from shared_rules.yes_your_grace.docs import DOCS
    else:
        raise KeyError(name)
    return DOCS


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
