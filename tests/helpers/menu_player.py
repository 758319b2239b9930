"""A player who enters a given action through the board's menus, reading only the screens.

Used by the menu tests (a local firmware.menu.Menu), and by the end-to-end test
and the benchmark (the simulated board, over the link: BoardPlayer and
play_by_presses): `press(key)` is the one thing that differs, returning the
next screen and the action the key completed (or None).
"""

from shared_rules import engine, wire
from shared_rules import schema as schemas
from shared_rules.errors import RuleError

TABLE_PAD = 5


# a confirm screen's footer, on a seat's pad or the table's (firmware/keymap.py's "send")
SEND = (["sel: send", "hold up: change"], ["push: send", "back: change"])


def confirming(screen):
    """The screen is a confirm screen: its select sends the action."""
    return screen[-2:] in SEND


def cursor(screen):
    for line in screen[1:-1]:
        if line.startswith(">"):
            return line[2:]
    return None


def say(d, v):
    """What a value looks like on a menu line (written here on its own, as a player reads it)."""
    if v is None:
        return "nobody"
    if v is True or v is False:
        return "yes" if v else "no"
    if d is not None and d["kind"] == "seat":
        return "seat %d" % v
    return str(v)[:14]


class MenuPlayer:
    def __init__(self, screen):
        self.screen = screen
        self.keys = 0

    def press(self, k):
        raise NotImplementedError

    def key(self, k):
        self.screen, act = self.press(k)
        self.keys += 1
        return act

    def seek(self, text):
        for _ in range(300):
            if cursor(self.screen) == text:
                return
            assert self.key("down") is None
        raise AssertionError("%r is not offered: %s" % (text, self.screen))

    def choose(self, text):
        self.seek(text)
        return self.key("select")

    def value(self, d, v):
        if d["kind"] == "per_seat":
            for x in v:
                self.value(d["of"], x)
        elif d["kind"] == "list":
            if d.get("distinct") and d["of"]["kind"] not in ("list", "per_seat"):
                for x in v:
                    self.choose(say(d["of"], x))
                    assert "*" + say(d["of"], x) in [line[1:] for line in self.screen]
                self.key("long_select")
            else:
                for x in v:
                    self.value(d["of"], x)
                if len(v) < d["max"]:
                    self.key("long_select")
        else:
            self.choose(say(d, v))

    def confirming(self):
        """Whether the screen is the confirm (its select sends the action)."""
        return confirming(self.screen)

    def enter(self, schema, target):
        self.choose(target["type"])
        params = schema["params"]
        for i, p in enumerate(params):
            if confirming(self.screen):  # the menu left the rest, all optional, at their defaults
                if not [q for q in params[i:] if q["name"] in target]:
                    break
                assert self.screen[-2:] in SEND, self.screen
                self.key("back")  # to the first of them: this one
            if p["name"] in target:
                self.value(p["domain"], target[p["name"]])
            else:
                assert p.get("optional"), p
                self.choose("(%s)" % p["omit"] if p.get("omit") else "(default)")
        assert confirming(self.screen), self.screen
        return self.key("select")


class BoardPlayer(MenuPlayer):
    """Enters actions on the simulated board's own menus by virtual button presses only."""

    SEAT_KEYS = {"up": (0, "short"), "select": (1, "short"), "down": (2, "short"),
                 "long_select": (1, "long"), "back": (0, "long"), "long_down": (2, "long")}
    TABLE_KEYS = {"up": (0, "short"), "select": (1, "short"), "down": (2, "short"),
                  "long_select": (1, "long"), "back": (3, "short"), "long_down": (2, "long")}

    def __init__(self, link, pad):
        self.link = link
        self.pad = pad
        self.shown = None
        link.on_event = self._heard
        MenuPlayer.__init__(self, None)

    def _heard(self, kind, data):
        if kind == wire.DISPLAY:
            self.shown = data["lines"]

    def press(self, k):
        key, hold = (self.TABLE_KEYS if self.pad == TABLE_PAD else self.SEAT_KEYS)[k]
        kind, body = self.link.press(self.pad, key, hold)
        assert kind == wire.OK, body
        return self.shown, body["i"]

    def enter(self, schema, target):
        self.key("down")  # the first press opens the pad's menu: read its screen
        self.seek(target["type"])
        return MenuPlayer.enter(self, schema, target)


def play_by_presses(link, driver_seed, on_refusal=lambda: "", player=BoardPlayer):
    """Play the linked board's game to its end by button presses only: each action is chosen
    at random among those the rules take (tests/mp/playout.py) and entered on the pad of
    the seat whose chance it is, or on the table's controls, by player(link, pad) (the
    link's virtual presses; tests/helpers/chip_player.py's GPIO). Returns (presses, types)."""
    import playout  # tests/mp, on the path of whoever imports this

    rnd = playout.Dice(driver_seed)
    game = link.mirror.match["game"]
    g = engine.game_module(game)
    state = link.mirror.match["state"]
    players = state["settings"]["players"]
    cards = list(g.card_names(state))
    ranks = playout.card_ranks(cards)
    presses = 0
    types = set()
    while not g.is_over(link.mirror.match["state"]):
        state = link.mirror.match["state"]
        move = None
        for _ in range(20):  # an action the rules take (the mirror checks it first)
            try:
                move = engine.step(game, state, playout._choose(rnd, state, g.legal(state, None), players,
                                                                 cards, ranks))[0]
                break
            except RuleError:
                move = None
        move = move or engine.step(game, state, playout._fallback(state))[0]
        if move["type"] == "roll":
            move = {"type": "roll"}  # the board rolls its own dice
        schema = schemas.find(g.legal(state, None), move["type"])
        pad = TABLE_PAD if schema["who"] == "table" else state["queue"][0][0]
        who = player(link, pad)
        before = len(link.mirror.match["entries"])
        index = who.enter(schema, move)
        assert index == before, (move, who.screen, on_refusal())
        presses += who.keys
        types.add(move["type"])
    return presses, types


class LocalPlayer(MenuPlayer):
    """A player on a local firmware.menu.Menu of `game` (its legal and card_names) for `seat`
    (None: the table's), on `state`."""

    def __init__(self, game, state, seat):
        from firmware.menu import Menu  # the board's menu: only this player needs it

        self.m = Menu(game.legal, game.card_names)
        self.state = state
        MenuPlayer.__init__(self, self.m.start(state, seat))

    def press(self, k):
        return self.m.key(self.state, k)
