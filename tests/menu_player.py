"""A player who enters a given action through the board's menus, reading only the screens.

Used by the menu tests (a local firmware.menu.Menu) and by the end-to-end test
(the simulated board, over the link): `press(key)` is the one thing that
differs, returning the next screen and the action the key completed (or None).
"""


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

    def enter(self, schema, target):
        self.choose(target["type"])
        for p in schema["params"]:
            if p["name"] in target:
                self.value(p["domain"], target[p["name"]])
            else:
                assert p.get("optional"), p
                self.choose("(default)")
        assert self.screen[-1] == "select: send", self.screen
        return self.key("select")
