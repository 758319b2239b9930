"""A whole game of each game at the table, in the mirror, through the board's own buttons only
(issue 45, part 6): the mirror (Textual's pilot) on a fresh simulated board (the firmware under
the MicroPython unix port), each action chosen at random (a fixed seed) among those the rules
offer and entered by the keys that press the seats' pads and the table's controls, from the first
key to the game's end. No `:` command, no act over the link: the player reads only the board's
display as the mirror shows it, and the test asserts at each step what it says (the menu's title,
the choice under the cursor, the confirm screen naming the action and its values in words) and
what the events pane narrates after each entry (chancery.words.narrate's sentences for that
entry's events), and at the end that both say the game is over and who won.

Each game is set to end quickly (Chancellors to a target of 1, The King's Dilemma with a Time
Counter of one space, The Council with the empire at rank 0, Yes, Your Grace with one Record in
the Annals), so that a game is a few dozen entries. Footers are read loosely (a parallel change
rewords them): the words asserted are the action's, its values' and the narration's.
"""

import asyncio
import os
import re
import sys
import time

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest

from chancery.board.link import Link
from chancery.board.simboard import SimBoard
from chancery.mirror.app import PAD_KEYS, MirrorApp
from chancery.words import narrate
from shared_rules import engine
from shared_rules.errors import RuleError

pytestmark = pytest.mark.slow(order=10)  # takes minutes: started first (tests/conftest.py)

sys.path.insert(0, paths.MP)
import playout  # noqa: E402  (tests/mp: Chancellors' aimed choices)
import random_game  # noqa: E402  (tests/mp: a value drawn from a narrowed domain)

TABLE = 5
# the keys a player presses for each of a pad's keys (chancery.mirror.app's bindings): a seat's pad
# is up, select, down, a capital letter holding it (holding up is the seat's back); the table's
# controls are the knob (Left/Right), its push (Enter) and back (Backspace), `*` and `>` holding
TABLE_KEYS = {"up": "left", "select": "enter", "down": "right", "back": "backspace", "long_select": "asterisk",
              "long_down": "greater_than_sign"}


def seat_keys(seat):
    up, select, down = PAD_KEYS[seat]
    return {"up": up, "select": select, "down": down, "back": up.upper(), "long_select": select.upper(),
            "long_down": down.upper()}


# The actions that move each game on (the table's corrections, a score or a marker set by hand,
# are left out: they would lengthen the game), and settings that end it within a few dozen entries
GAMES = {
    "chancellors": ({"players": 2, "target": 1}, ("roll", "reveal", "assign", "solve", "solve_part", "pass")),
    "kings_dilemma": ({"players": 3, "time_counter": 1, "death_space": 1},
                      ("roll", "vote", "pass", "add", "stay", "decide", "appoint", "outcome", "record", "drawn",
                       "place")),
    "the_council": ({"players": 3, "events": 1, "empire": [0, 0, 0, 0, 0, 0]}, ("draft", "event", "bid", "pass")),
    "yes_your_grace": ({"players": 3, "annals": 1}, ("next", "event", "fall", "accede", "civil_war", "reveal")),
}
SEED = {"chancellors": 10, "kings_dilemma": 28, "the_council": 4, "yes_your_grace": 3}
MOST = 60  # entries at most: a game that has not ended by then is a failure (its settings end it sooner)


def words(domain, v):
    """A value in words, as the board's menu writes it (firmware/menu.py's _words, said here again)."""
    if isinstance(v, list) and domain and domain["kind"] == "per_seat":  # seat by seat
        return "; ".join(["S%d: %s" % (i, words(domain["of"], v[i])) for i in range(len(v))])
    if isinstance(v, list):
        return ", ".join([words(domain["of"], x) for x in v]) or "-"
    if v is None:
        return "nobody"
    if v is True or v is False:
        return "yes" if v else "no"
    return "seat %d" % v if domain and domain["kind"] == "seat" else str(v)


def seat_called(seat, names):
    """A pattern for a seat as the sentences call it: by its name, else "seat N" (either case), or
    "House N" (The King's Dilemma's)."""
    return re.escape(names[seat]) if names and seat < len(names) and names[seat] else "(?:[Ss]eat|House) %d" % seat


def squeezed(text):
    return "".join(text.split())


def display(app):
    """The board's display as the mirror shows it: its lines."""
    return [line.rstrip() for line in str(app.query_one("#board").render()).splitlines()]


def events(app):
    """The events pane's text, its wrapped lines joined again."""
    return " ".join(" ".join(line.text.split()) for line in app.query_one("#events").lines)


def cursor(screen):
    for line in screen[1:]:
        if line.startswith(">"):
            return line[2:]
    return None


class Table:
    """A player at the mirror: presses keys, reads the display, and keeps what it saw."""

    def __init__(self, pilot, app, link):
        self.pilot, self.app, self.link = pilot, app, link
        self.presses = 0
        self.sentences = {}  # entry index: its sentences, as the events pane must say them

    @property
    def match(self):
        return self.link.mirror.match

    def said(self):
        return "the display:\n%s\nthe events (last part):\n%s" % ("\n".join(display(self.app)),
                                                                events(self.app)[-1500:])

    async def until(self, test, what, tries=100):
        for _ in range(tries):
            if test():
                return
            await self.pilot.pause(0.05)
        raise AssertionError("%s did not happen; %s" % (what, self.said()))

    async def press(self, pad, key):
        """Press a pad's key by the keyboard; the board's next screen."""
        await self.pilot.press((TABLE_KEYS if pad == TABLE else seat_keys(pad))[key])
        self.presses += 1
        return display(self.app)


class MenuEntry:
    """One action entered on a pad's menu, reading the screens (tests/helpers/menu_player.py's way, on the
    mirror's keys): opens the pad's menu, finds the type, picks each parameter's value (or its
    default), and checks the confirm screen before sending."""

    def __init__(self, table, pad, schema, act):
        self.t, self.pad, self.schema, self.act = table, pad, schema, act
        self.who = "table" if pad == TABLE else "S%d" % pad
        self.screen = None

    async def key(self, k):
        self.screen = await self.t.press(self.pad, k)
        if os.environ.get("EXPERIENCE_TRACE"):  # each key and the screen after it
            print(k, self.screen)
        return self.screen

    async def seek(self, text, among=None):
        """Turn the knob (down, or up when shorter: among is the list as the screen orders it) to text."""
        step = "down"
        if among and text in among and cursor(self.screen) in among:
            gap = (among.index(text) - among.index(cursor(self.screen))) % len(among)
            step = "up" if gap > len(among) - gap else "down"
        for _ in range(120):
            if cursor(self.screen) == text:
                return
            await self.key(step)
        raise AssertionError("%r is not offered on %s's screen: %s" % (text, self.who, self.screen))

    async def choose(self, text, among=None):
        await self.seek(text, among)
        await self.key("select")

    def param(self):
        """The parameter the screen asks for (its prompt's first word), checked against the title."""
        assert self.screen[0] == ("%s %s" % (self.who, self.act["type"]))[:16], self.screen
        name = self.screen[1].split(" ")[0]
        for p in self.schema["params"]:
            if p["name"] == name:
                return p
        raise AssertionError("the screen asks for %r, which %s has not: %s" % (name, self.act["type"], self.screen))

    def listed(self, domain, state):
        """The values a screen lists for a domain (as firmware/menu.py's _seq orders them), in words."""
        if domain.get("among") is not None:
            seq = domain["among"]
        elif domain["kind"] == "int":
            seq = range(domain["min"], domain["max"] + 1)
        elif domain["kind"] == "enum":
            seq = domain["values"]
        elif domain["kind"] == "seat":
            seq = list(range(engine.seats(state))) + ([None] if domain.get("none") else [])
        elif domain["kind"] == "card":
            seq = engine.game_module(self.t.match["game"]).card_names(state)
        else:
            return None
        return [words(domain, v)[:14] for v in seq]

    async def fill(self, p, state):
        """Pick parameter p's value (the screen on its first question), as the act has it."""
        if p["name"] not in self.act:
            await self.choose("(%s)" % p["omit"] if p.get("omit") else "(default)")
        else:
            await self.value(p["domain"], self.act[p["name"]], state)

    async def value(self, d, v, state):
        if d["kind"] == "per_seat":  # one value a seat, in seat order
            for x in v:
                await self.value(d["of"], x, state)
        elif d["kind"] == "list" and d.get("distinct") and d["of"]["kind"] not in ("list", "per_seat"):
            for x in v:  # each item marked, the list finished by a hold
                await self.choose(words(d["of"], x)[:14], self.listed(d["of"], state))
                assert "*" + words(d["of"], x)[:14] in [line[1:] for line in self.screen], self.screen
            await self.key("long_select")
        elif d["kind"] == "list":  # an item a pick; a hold finishes one shorter than its most
            for x in v:
                await self.value(d["of"], x, state)
            if len(v) < d["max"]:
                await self.key("long_select")
        else:
            await self.choose(words(d, v)[:14], self.listed(d, state))

    async def enter(self, state):
        """Enter the act; returns the screen after its confirm screen's select."""
        await self.key("down")  # the pad's first key opens its menu: read its screen
        assert self.screen[0] == self.who + " action?", ("the pad's menu", self.screen)
        await self.choose(self.act["type"])
        done = set()
        for _ in range(len(self.schema["params"]) + 2):
            if self.screen[0] == ("%s %s?" % (self.who, self.act["type"]))[:16]:
                break  # the confirm screen
            p = self.param()
            assert p["name"] not in done, ("asked twice", p["name"], self.screen)
            done.add(p["name"])
            await self.fill(p, state)
        assert self.screen[0] == ("%s %s?" % (self.who, self.act["type"]))[:16], ("no confirm screen", self.screen)
        return await self.enter_rest(state, done)

    async def confirm(self):
        """Read the whole confirm screen (down scrolls a long one), check that it names the action and
        each value sent in words, and send it."""
        assert self.screen[0] == ("%s %s?" % (self.who, self.act["type"]))[:16], ("no confirm screen", self.screen)
        body = self.screen[1:-2]  # its last two lines (the footer) say what the keys do
        for _ in range(30):
            shown = self.screen[1:-2]
            await self.key("down")
            if self.screen[1:-2] == shown:
                break
            body.append(self.screen[-3])
        body = squeezed(" ".join(body))
        for p in self.schema["params"]:
            if p["name"] in self.act:  # the confirm screen names each value sent, in words
                said = "%s: %s" % (p["name"], words(p["domain"], self.act[p["name"]]))
                assert squeezed(said) in body, ("the confirm screen does not say %r" % said, body)
        return await self.key("select")

    async def enter_rest(self, state, done):
        """The parameters the menu left at their defaults (every one left optional: it went to the
        confirm): back from the confirm opens the first of them, one at a time, until every value
        to send is entered."""
        for _ in range(2 * len(self.schema["params"]) + 2):
            if self.screen[0] == ("%s %s?" % (self.who, self.act["type"]))[:16]:
                if not [p for p in self.schema["params"] if p["name"] in self.act and p["name"] not in done]:
                    break
                await self.key("back")
                continue
            p = self.param()
            done.add(p["name"])
            await self.fill(p, state)
        return await self.confirm()


def seat_offered(g, state, kind):
    """The first seat whose pad offers the action type now, or None."""
    for s in range(engine.seats(state)):
        if [x for x in g.legal(state, s) if x["type"] == kind]:
            return s
    return None


def chosen(rnd, game, g, state, flow):
    """An action the rules take now, drawn among the types that move the game on: (act, the pad that
    enters it, its schema there, the action as the rules normalise it)."""
    players = engine.seats(state)
    cards = g.card_names(state)
    offered = [s for s in g.legal(state, None) if s["type"] in flow] or g.legal(state, None)
    for _ in range(200):
        if game == "chancellors":  # its own aimed choices: a random hand seldom solves a problem
            act = playout._choose(rnd, state, g.legal(state, None), players, cards, playout.card_ranks(cards))
            schema = [s for s in offered if s["type"] == act["type"]]
            if not schema:
                continue
            schema = schema[0]
        else:
            schema = rnd.pick(offered)
            act = None
        pad = TABLE if schema["who"] == "table" else seat_offered(g, state, schema["type"])
        if pad is None:
            continue
        if pad != TABLE:
            schema = [x for x in g.legal(state, pad) if x["type"] == schema["type"]][0]
        if act is None:
            act = random_game.action(rnd, schema, players, cards)
        for p in schema["params"]:  # a text: a pad offers the reasons a table gives most (firmware/menu.py)
            if p["domain"]["kind"] == "text" and p["name"] in act:
                act[p["name"]] = "house rule"
        for p in schema["params"]:  # a distinct list in the order the menu lists it: fewer turns of the knob
            d, v = p["domain"], act.get(p["name"])
            if d["kind"] == "list" and d.get("distinct") and isinstance(v, list) and len(set(map(str, v))) == len(v):
                seq = list(d.get("among") or (cards if d["of"]["kind"] == "card" else d["of"].get("values") or []))
                if all(x in seq for x in v):
                    act[p["name"]] = sorted(v, key=seq.index)
        if act["type"] == "roll":
            act = {"type": "roll"}  # the board rolls its own dice: the table's held push
        if pad != TABLE:
            act["seat"] = pad
        try:
            said = engine.step(game, state, act)[0]  # as the rules normalise it: defaults written in
        except RuleError:
            continue
        return act, pad, schema, said
    raise AssertionError("no action the rules take among %s" % [s["type"] for s in offered])


def run_game(game, micropython, firmware_build, tmp_path):
    settings, flow = GAMES[game]
    settings = dict(settings)
    players = settings.pop("players")
    board = SimBoard(data_dir=str(tmp_path / "flash"), game=game, players=players, seed=SEED[game],
                     heap=heaps.BOARD, settings=settings, micropython=micropython, code_path=[firmware_build])
    board.open_pty()
    link = Link(board.port_name)
    link.open()
    board.start()
    took = {}
    try:
        link.hello(wait=10.0)
        asyncio.run(play(game, flow, link, took))
    finally:
        link.close()
        board.stop()
    return took


async def play(game, flow, link, took):
    app = MirrorApp(link, connect=False)
    g = engine.game_module(game)
    rnd = playout.Dice(SEED[game])
    names = link.mirror.names
    start = time.monotonic()
    async with app.run_test(size=(160, 50)) as pilot:
        t = Table(pilot, app, link)
        await t.until(lambda: display(app)[:1] == ["#0"], "the board's display at the hello")
        assert "a new game" not in events(app)
        told = 0  # entries whose narration the events pane was checked for
        box = {}  # a sealed ballot's choices, as the voters cast them (the board keeps its own)
        for _ in range(MOST):
            state = link.mirror.match["state"]
            if g.is_over(state):
                break
            before = [e["digest"] for e in link.mirror.match["entries"]]
            ballot = state.get("ballot")
            if ballot is not None and ballot["open"] and ballot["result"] is None:
                act = said = await cast(t, rnd, ballot, box)
                pad = act["seat"]
            elif ballot is not None and ballot["result"] is None and not ballot["open"]:
                raise AssertionError("a closed ballot the board did not reveal: %s" % t.said())
            else:
                act, pad, schema, said = chosen(rnd, game, g, state, flow)
                if act["type"] == "roll" and pad == TABLE:
                    assert "roll" in " ".join(display(app)), ("the display does not say the dice are due", t.said())
                    await t.press(TABLE, "long_select")  # hold push: the board rolls
                elif game == "kings_dilemma" and pad != TABLE and state["step"] == "vote" and state["turn"] == pad:
                    await vote_pad(t, pad, act, state)
                else:
                    await MenuEntry(t, pad, schema, act).enter(state)
            await t.until(lambda: len(link.mirror.match["entries"]) > len(before), "the entry of %r" % (act,))
            entry = link.mirror.match["entries"][len(before)]
            got = dict(entry["action"])
            if act["type"] != "ballot_cast":  # what the keys entered is the action chosen (a cast's choice is hidden)
                assert got == said or (act == {"type": "roll"} and got["type"] == "roll"), (got, said)
            # the display: the board's status, the entry's number and its type
            n = len(link.mirror.match["entries"])
            await t.until(lambda: (display(app) or [""])[0].startswith("#%d" % n), "the status after #%d" % n)
            # the events pane: each new entry in the narrator's words, numbered
            told = await narrated(t, game, told, names)
            said_of(t, len(before), act, schema if act["type"] != "ballot_cast" else None, names)
        else:
            raise AssertionError("%s did not end in %d entries: %s" % (game, MOST, t.said()))
        match = link.mirror.match
        state = match["state"]
        assert g.is_over(state)
        before_last = g.initial(match["settings"], match["seed"])
        for e in match["entries"][:-1]:
            for ev in e["events"]:
                engine.fold(g, before_last, dict(ev))
        told = await narrated(t, game, told, names)
        winners = state["winners"]
        assert winners, state
        await t.until(lambda: "game over" in " ".join(display(app)), "the display's game over")
        # and who won, as the pads name the seats
        assert "won: S" + ",".join(str(s) for s in winners) in display(app), t.said()
        # the events pane: the last entry's sentences say that the game ended, and who won
        last = [" ".join(line.split()) for line in narrate.lines(game, before_last, match["entries"][-1]["events"],
                                                                  match["entries"][-1]["action"], names)]
        end = [line for line in last if re.search("game ends|game is over|catastrophe", line, re.I)]
        assert end, ("no sentence says the game is over", last)
        won = re.search("winner|victor", end[-1], re.I)  # the words after it name the winners
        for s in winners:
            assert re.search(r"\b%s\b" % seat_called(s, names), end[-1][won.start() if won else 0:]), (s, end[-1])
            assert "#%d %s" % (len(match["entries"]), end[-1]) in events(app)
        took.update(entries=len(link.mirror.match["entries"]), presses=t.presses, seconds=time.monotonic() - start)


async def narrated(t, game, told, names):
    """Check that the events pane narrates each entry from `told` on; returns the new count."""
    match = t.match
    g = engine.game_module(game)
    state = g.initial(match["settings"], match["seed"])
    for e in match["entries"][:told]:
        for ev in e["events"]:
            engine.fold(g, state, dict(ev))
    for i in range(told, len(match["entries"])):
        e = match["entries"][i]
        sentences = narrate.lines(game, state, e["events"], e["action"], names)
        assert sentences, e
        t.sentences[i] = " ".join(" ".join(line.split()) for line in sentences)
        for line in sentences:
            assert "{" not in line and "'t':" not in line, ("a sentence that reads as data", line)
            want = " ".join(("#%d %s" % (i + 1, line)).split())
            await t.until(lambda: want in events(t.app), "the narration %r" % want)
        for ev in e["events"]:
            engine.fold(g, state, dict(ev))
    return len(match["entries"])


def decktet_cards(domain, v):
    """The Decktet cards a value of a domain names (they are said by name in every sentence)."""
    if domain["kind"] in ("list", "per_seat") and isinstance(v, list):
        return [c for x in v for c in decktet_cards(domain["of"], x)]
    return [v] if domain["kind"] == "card" and domain.get("deck") == "decktet" else []


def said_of(t, i, act, schema, names):
    """What entry i's sentences must say, known apart from the narrator: the seat that acted (its
    pad's), the Decktet cards it named; a sealed cast holds no choice (the board keeps it)."""
    entry, said = t.match["entries"][i], t.sentences[i]
    seat = entry["action"].get("seat")
    if seat is not None:
        assert re.search(r"\b%s\b" % seat_called(seat, names), said), ("the seat is not named", said)
    if schema is None:
        assert "choice" not in entry["action"] and "choice" not in str(entry["events"]), entry
        return
    for p in schema["params"]:
        for card in decktet_cards(p["domain"], act.get(p["name"])):
            assert card in said, ("the card %s is not named" % card, said)


async def vote_pad(t, seat, act, state):
    """The King's Dilemma's vote on a House's pad: up AYE, select PASS, down NAY, each counted on
    the display, held to vote (firmware's shared_rules/kings_dilemma/pads.py)."""
    kind = act["type"]
    if kind in ("vote", "add"):
        side = act.get("side") or state["choice"][seat]
        key = "up" if side == "aye" else "down"
        for n in range(1, act["power"] + 1):
            screen = await t.press(seat, key)
            assert "%s %d" % (side.upper(), n) in screen, (screen, act)
        await t.press(seat, "back" if side == "aye" else "long_down")  # up held, down held
    elif kind == "pass":
        screen = await t.press(seat, "select")
        assert "PASS: gather" in screen, screen
        if act.get("kind") == "moderate":
            screen = await t.press(seat, "select")
            assert "PASS: moderator" in screen, screen
        await t.press(seat, "long_select")
    elif kind == "stay":
        screen = await t.press(seat, "select")
        assert "STAY" in screen, screen
        await t.press(seat, "long_select")
    else:
        raise AssertionError("no vote pad for %r" % act)


async def cast(t, rnd, ballot, box):
    """The next voter casts on its pad: a sealed ballot's keys (firmware/ballot_box.py: with "multi"
    the first five keys mark an option, holding down casts; else each key is an option). The
    display never says which."""
    seat = [s for s in ballot["voters"] if s not in ballot["voted"]][0]
    keys = ["up", "select", "down", "back", "long_select"]
    if ballot.get("multi"):
        marks = [k for k in range(min(5, len(ballot["options"]))) if rnd.below(3) == 0]
        for k in marks:
            screen = await t.press(seat, keys[k])
            assert screen[0] == "S%d ballot" % seat and "marked" in screen, screen
            assert not [o for o in ballot["options"] if str(o) in screen[1:]], screen  # no option shown
        box[seat] = [ballot["options"][k] for k in marks]
        screen = await t.press(seat, "long_down")
    else:
        k = rnd.below(min(3, len(ballot["options"])))
        box[seat] = ballot["options"][k]
        screen = await t.press(seat, keys[k])
    assert "S%d ballot" % seat in screen or screen[0].startswith("#"), screen
    return {"type": "ballot_cast", "seat": seat}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_at_the_mirror_by_the_boards_buttons(game, micropython, firmware_build, tmp_path):
    took = run_game(game, micropython, firmware_build, tmp_path)
    print("%s: %d entries, %d presses, %.1f s" % (game, took["entries"], took["presses"], took["seconds"]))
