"""Issue 45, part 2: the keys explain themselves. Every game is played on the board's table by its
own keys, and on every screen the walk reaches, each key the footer names is pressed (on a copy
of the table: the journal's folder copied, the keys since the last entry pressed again) and must
do what the footer says. The screen's kind is found as the mirror's `:help` finds it
(chancery/mirror/keyhelp.py), from the screen's lines alone; every kind of the key map
(firmware/keymap.py) is met in some game, and the sealed ballots of The King's Dilemma and
The Council are cast by the keys their footers name."""

import random
import shutil

import menu_player  # noqa: E402  (tests/helpers, tests/mp: on the path by conftest.py)
import pytest
import random_game  # noqa: E402
from clients import controls

from chancery.mirror import keyhelp
from firmware import keymap
from firmware import menu as menu_code
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import engine
from shared_rules import schema as schemas
from shared_rules.errors import RuleError

TABLE = 5
SEAT_KEYS = ("up", "select", "down", "back", "long_select", "long_down")
TABLE_KEYS = ("up", "select", "down", "back", "long_select")  # the knob is not held turned
GAMES = [("chancellors", {"players": 3}), ("kings_dilemma", {"players": 3}),
         ("kings_dilemma", {"players": 3, "voting": "sealed"}), ("the_council", {"players": 3}),
         ("yes_your_grace", {"players": 3})]
SEEN = set()  # (kind, words) checked, over every game


def boot(folder, game, settings):
    return Table(Journal(str(folder)), lambda n: b"\x07" * n, game, settings, "t").boot()


def texty(d):
    """A domain the menus cannot enter in full (free text, typed on the host)."""
    if d["kind"] == "text":
        return True
    return d["kind"] in ("list", "per_seat") and texty(d["of"])


def group(m):
    """The group (a rank, ten numbers, a page) of a menu's cursor, None off a pick screen."""
    return m._group(m.cur) if m is not None and m.state is not None and m.stage != menu_code._CONFIRM else None


class Walk:
    def __init__(self, folder, game, settings, seed):
        self.folder, self.game, self.settings = folder, game, settings
        self.t = boot(folder / "main", game, settings)
        self.g = engine.game_module(game)
        self.rnd = random.Random(seed)
        self.since = []  # (pad, key) pressed since the state last changed: a probe presses them again
        self.mark = self.stamp()
        self.probes = 0
        self.checked = {}  # (kind, who, key, words): times checked in this game

    def stamp(self):
        return self.t.count, id(self.t.state), self.t.game

    def press(self, pad, key):
        screen, index = controls(self.t).pressed(pad, key)
        self.last = pad  # the pad a screen that names none answered (a refusal)
        if self.stamp() != self.mark:
            self.since, self.mark = [], self.stamp()
        else:
            self.since.append((pad, key))
        self.check(screen)
        return screen, index

    def probe(self):
        """A copy of the table as it is: its folder copied, the keys since the last entry again."""
        self.probes += 1
        d = self.folder / ("p%d" % self.probes)
        shutil.copytree(self.folder / "main", d)
        p = boot(d, self.t.game, self.t.settings)
        c = controls(p)
        shown = c.status()
        for pad, key in self.since:
            shown, _ = c.pressed(pad, key)
        return p, shown

    # --- the footers -------------------------------------------------------------

    def check(self, screen):
        state = self.t.state
        found = keyhelp.kinds(screen, self.t.game, state)
        if found is None:
            return
        who, kinds = found
        b = state.get("ballot")
        for kind in kinds:
            for e in keymap.entries(kind, keyhelp.data(kind, self.t.game, state)):
                line = keymap.line(who, e)
                if line is None or line not in screen[1:]:
                    continue  # not named on this screen (no room, or another pad's)
                w = who or (e[0] if e[0] != "a" else None)
                tag = (kind, w, e[1], e[2], state.get("step"))  # in each step of the game
                if self.checked.get(tag, 0) >= 2:
                    continue
                self.checked[tag] = self.checked.get(tag, 0) + 1
                for pad in self.pads(screen, w, e, b, kind):
                    self.verify(screen, kinds, kind, e, pad)
                SEEN.add((kind, e[2] if kind != "ballot" else e[2].split(" ")[0]))

    def pads(self, screen, w, e, b, kind):
        """The pads whose key the entry names: the screen's own, or on the shared status a voter
        (a seat's entry), the table (the table's), a seat and the table (either's)."""
        seats = engine.seats(self.t.state)
        if w == "t":
            return [TABLE]
        if w == "s" and screen[0][:1] == "S":
            return [int(screen[0][1:].split(" ")[0])]
        if w == "s" and kind == "pad":  # the status: the House whose pad is the game's
            return [self.g.pad(self.t.state, None, "keys", None)[0]]
        if w == "s" and b is None or screen[0] == "Not allowed:":
            return [self.last]
        if w == "s":  # the status of a ballot: a voter that has not voted
            return [s for s in b["voters"] if s not in b["voted"]][:1]
        return list(range(seats)) + [TABLE]  # every pad: "a pad" is any of them

    def verify(self, screen, kinds, kind, e, pad):
        p, shown = self.probe()
        c = controls(p)  # its keys
        # the same screen (a status's first line names the last entry, which a copy does not know)
        assert shown[screen[0][:1] == "#":] == screen[screen[0][:1] == "#":], (shown, screen, self.since)
        key = e[1]
        seat = None if pad == TABLE else pad
        named = set(x[1] for k in kinds for x in keymap.entries(k, keyhelp.data(k, p.game, p.state)))
        if key == "*":  # any key of the pad but those the footer names apart
            key = self.rnd.choice([k for k in (TABLE_KEYS if pad == TABLE else ("up", "select", "down"))
                                   if k not in named])
        elif key == "ud":
            key = self.rnd.choice(("up", "down"))
        m = c.menu if c.menu_pad == pad else None
        before = {"count": p.count, "game": p.game, "setup": c.setup, "state": p.state,
                  "picks": list(m.picks) if m else None, "cur": m.cur if m else None,
                  "group": group(m), "n": m._count() if m else None,
                  "box": dict(c.marks), "held": c.held.get(pad)}
        b = p.state.get("ballot")
        after, index = c.pressed(pad, key)
        where = "%s %s: %r on %s pressed %s -> %s" % (self.game, kind, e, screen, key, after)
        words = e[2]
        m = c.menu if c.menu_pad == pad and c.menu is not None and c.menu.state is not None else None
        entered = p.count != before["count"] or p.game != before["game"]
        if kind == "ballot":
            self.ballot(p, b, seat, key, words, before, after, index, where)
        elif kind == "pad":  # The King's Dilemma's House on its voting turn
            held = c.held.get(pad)
            if words.startswith("+1 "):
                was = before["held"]
                n = was["power"] + 1 if was and was["side"] == words[3:].lower() else 1
                assert index is None and held == {"side": words[3:].lower(), "power": n}, where
            elif words == "PASS kind":
                assert index is None and after[1].startswith("PASS: "), where
            else:  # the hold: its entry, or the rules' refusal (more Power than the House has)
                kind = {"vote": "vote", "pass": "pass", "add": "add", "stay": "stay"}[words.split(" ")[0]]
                assert after[0] == "Not allowed:" or (index is not None and p.last_type == kind), where
                if kind in ("vote", "add") and index is not None:
                    assert p.state["choice"][seat] == words.split(" ")[1].lower(), where
        elif words == "its menu":
            assert index is None and (after[0].startswith("table " if seat is None else "S%d " % seat)), where
        elif words == "roll":
            assert index is not None and p.last_type == "roll", where
        elif words == "game page":
            assert after == self.g.lines(p.state), where
        elif words in ("pick", "back", "change", "done"):
            assert index is None, where
            grew = m is not None and len(m.picks) > len(before["picks"])
            if words == "pick":
                assert grew or after[0] != screen[0] or c.setup is not before["setup"], where
            elif words == "done":
                assert grew and m.picks[-1] is menu_code._END, where
            else:
                assert m is not None and len(m.picks) < len(before["picks"]), where
                assert after[-2:] not in menu_player.SEND, where  # no longer the confirm screen
        elif words in ("move", "scroll"):
            assert index is None and m is not None, where
            assert m.cur != before["cur"] or before["n"] <= (1 if words == "move" else 5), where
        elif words == "jump":
            assert index is None and m is not None, where
            assert group(m) != before["group"] or len(set(m._group(i) for i in range(m._count()))) == 1, where
        elif words in ("send", "send again"):
            assert entered or after[0] in ("Not allowed:", "undone", "names set", "new_game") or \
                c.setup is not before["setup"], where
        elif words == "close":
            assert index is not None and p.state["ballot"]["result"] is not None, where
        elif words == "undo":
            assert index is None and after[1].startswith("take back"), where
        elif words == "yes":
            assert p.count == before["count"] - 1, where
        elif words == "no":
            assert p.count == before["count"] and (after[1] == "not taken back" or key == "back"), where
        else:
            raise AssertionError("no check for %r (%s)" % (words, where))

    def ballot(self, p, b, seat, key, words, before, after, index, where):
        if words == "close":
            assert index is not None and p.state["ballot"]["result"] is not None, where
            return
        i = SEAT_KEYS.index(key)
        if words.startswith("+1 "):
            at = (b["n"], seat, i % 3)
            assert index is None and after[1] == "counted", where
            assert controls(p).marks[at] == min(before["box"].get(at, 0) + 1, b["max"]), where
            return
        if words.startswith("mark "):
            at = (b["n"], seat, i)
            assert index is None and after[1] == "marked" and b["options"][i] == words[5:], where
            assert bool(controls(p).marks.get(at)) != bool(before["box"].get(at)), where
            return
        assert index is not None, where  # a cast: what the seat chose is in the box, or revealed
        if words == "cast":
            want = [b["options"][k] for k in range(5) if before["box"].get((b["n"], seat, k))]
        else:
            want = words
        r = p.state["ballot"]
        if r["n"] == b["n"] and r["result"] is not None:
            got = r["result"]["choices"][r["voters"].index(seat)]
        else:
            got = p.ballot_box["choices"][str(seat)][0]
        assert got == want, where

    # --- the game, by its keys ---------------------------------------------------

    def play(self, entries=70):
        g, t = self.g, self.t
        self.check(controls(t).status())
        if self.game == "chancellors":  # the table sends what the rules refuse (a score below 0): the refusal's footer
            for k in ("down", "down", "select", "select", "up", "select", "select"):
                self.press(TABLE, k)
            for _ in range(8):  # back: change, then out of the menu to the status
                if self.press(TABLE, "back")[0][0].startswith("#"):
                    break
        tries = 0
        while not g.is_over(t.state) and t.count < entries and tries < 400:
            tries += 1
            b = t.state.get("ballot")
            if b is not None and b["result"] is None and b["open"]:
                self.vote(b)
                continue
            turn = t.state.get("turn")
            if g.pad is not None and isinstance(turn, int) and g.pad(t.state, turn, "select", None) is not None:
                self.house(turn)
                continue
            self.enter()

    def vote(self, b):
        for k in ("down", "back", "down"):  # the table's ballot screen, its undo asked, and let go
            self.press(TABLE, k)
        seat = [s for s in b["voters"] if s not in b["voted"]][0]
        casts = [e for e in keymap.ballot(b) if e[0] == "s" and not e[2].startswith(("+1 ", "mark "))]
        for e in keymap.ballot(b):  # a count or a mark or two first
            if e[0] == "s" and e[2].startswith(("+1 ", "mark ")) and self.rnd.random() < 0.5:
                self.press(seat, e[1])
        self.press(seat, self.rnd.choice(casts)[1])

    def house(self, seat):
        """The King's Dilemma's open vote: a House's own pad (the game's keys)."""
        for _ in range(self.rnd.randrange(3)):
            self.press(seat, self.rnd.choice(("up", "down", "select")))
        self.press(seat, self.rnd.choice(("back", "long_down", "long_select")))
        if controls(self.t).held.get(seat) is not None or self.t.state.get("turn") == seat:
            self.press(seat, "long_select")  # refused (too much Power, the Moderator taken): a pass

    def enter(self):
        t, g = self.t, self.g
        state = t.state
        players = state["settings"]["players"]
        cards = list(g.card_names(state))
        move = None
        legal = [x for x in g.legal(state, None) if not [q for q in x["params"] if texty(q["domain"])]
                 and not x["type"].startswith("ballot")]
        for _ in range(60):  # an action the rules take, its values drawn from the narrowed domains
            try:
                move = engine.step(self.game, state, random_game.action(
                    random_game.Draw(self.rnd.randrange(1 << 30)), self.rnd.choice(legal), players, cards))[0]
                break
            except RuleError:
                move = None
        if move is None:
            return
        if move["type"] == "roll":
            move = {"type": "roll"}
        schema = schemas.find(g.legal(state, None), move["type"])
        pad = TABLE if schema["who"] == "table" or move.get("seat") is None else move["seat"]
        walk = self

        class Player(menu_player.MenuPlayer):
            def press(self, k):
                return walk.press(pad, k)

        who = Player(None)
        who.key("down")  # the first key opens the pad's menu
        who.seek(move["type"])
        before = t.count
        try:
            who.enter(schema, move)
        except AssertionError:  # a value the menus do not offer now: let it go
            for _ in range(12):
                self.press(pad, "back")
        assert t.count >= before


@pytest.mark.parametrize("game, settings", GAMES, ids=["%s-%s" % (g, "-".join(map(str, s.values())))
                                                        for g, s in GAMES])
def test_every_key_a_footer_names_does_what_it_says(tmp_path, game, settings):
    w = Walk(tmp_path, game, settings, 45)
    w.play()
    assert w.probes > 10, w.probes


def test_every_kind_of_screen_was_walked():
    """After the games above (this file's order): every kind of the key map was checked."""
    if len(SEEN) < 5:
        pytest.skip("the walks did not run in this process")
    kinds = set(k for k, _ in SEEN)
    assert kinds >= {k for k in keyhelp.kinds_named() if keymap.entries(k)} | {"ballot", "pad"}, sorted(kinds)
    # The King's Dilemma's open vote: a House's pad counts, passes and votes, as its footer says
    assert {("pad", "+1 AYE"), ("pad", "PASS kind"), ("pad", "pass")} <= SEEN, sorted(SEEN)
    # the sealed votes' keys, in words: a count, the casts, The Council's marks
    assert {("ballot", "+1"), ("ballot", "gather"), ("ballot", "moderate"), ("ballot", "mark"),
            ("ballot", "cast")} <= SEEN, sorted(SEEN)


def test_help_shows_the_key_map_of_the_screen_in_view(tmp_path):
    """The mirror's `:help` (chancery/mirror/keyhelp.py): the same map as the footer, found from the
    screen's lines, each key with its words and the keyboard's keys for it."""
    t = boot(tmp_path / "kd", "kings_dilemma", {"players": 3, "voting": "sealed"})
    t.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    status = controls(t).status()
    assert status[1:] == ["vote: 0 of 3", "up: +1 aye", "dn: +1 nay", "hold up: aye", "sel: gather",
                          "hold sel:moderat", "hold dn: nay"]
    help = "\n".join(keyhelp.text(status, "kings_dilemma", t.state))
    assert "(ballot)" in help
    for words in ("sel        gather", "hold sel   moderate", "hold up    aye", "up         +1 aye",
                  "hold push  close"):  # the table's close too, which the display had no room for
        assert words in help, help
    assert "keyboard: A S D F G" in help  # a hold is the capital letter
    t = boot(tmp_path / "ch", "chancellors", {"players": 3})
    for k in ("select", "select"):  # seat 1's menu, its roll: every parameter optional, the confirm
        screen, _ = controls(t).pressed(1, k)
    assert screen[-2:] == ["sel: send", "hold up: change"]
    help = keyhelp.text(screen, "chancellors", t.state)
    assert help[0] == "Keys on the board's screen now (send):" and "hold up    change" in "\n".join(help)
    assert keyhelp.kinds(["S1 roll?", "values: board"], "chancellors", t.state) is None  # no footer known
