"""A new game at the board's table: the action new_game checked and begun (Table.start),
and the new match with its journal (Table.new_game)."""

from firmware.table import _int
from shared_rules import engine


def start(table, move, seq=None):
    """Table.start: see there."""
    game, settings, names = move.get("game"), move.get("settings", {}), move.get("names")
    switch = game != table.game and game in engine.games.GAMES
    # no room on the flash for a new game's journal: refused, nothing moved
    short = table._kept("room")
    if switch and table.restart is not None:
        table.switch_due = {"move": {"type": "new_game", "game": game, "settings": settings}, "re": seq}
        if names is not None:
            table.switch_due["move"]["names"] = names
        table.restart_due = True
        return short
    players = engine.settings_for(engine.game_module(game), settings)["players"]  # raises RuleError:
    if names is not None:  # nothing moved yet
        names = table.name({"type": "names", "names": names}, players)
    table.setup = None
    table.ballot_box = None
    table.held = {}
    begin(table, game, settings)
    if names is not None:
        table.name({"type": "names", "names": names})
    if table.listening:
        table.hello()
    return short


def begin(table, game, settings):
    """Table.new_game: the match, its header on the journal, and the table on it."""
    match = engine.new_match(game, settings, _int(table._entropy(4)) & 0x3FFFFFFF)
    table.header = {"format": match["format"], "game": match["game"], "settings": match["settings"],
                   "seed": match["seed"], "start": match["start"]}
    table.journal.start(table.header)
    table.game, table.state, table.count = match["game"], match["state"], 0
    table.menu = None
    table.menu_pad = None
    table.parked = {}
    table.setup = None
    table.changed = table.screen_due = True
    table.last_type = None
