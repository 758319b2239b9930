"""Entries by GPIO presses on the virtual Pico, timed from the completing edge to the strip's frame.

The deployed firmware runs standalone from main.py; a host listens on its USB serial only
to know the game (the link's mirror: the board's own dice) and to read each screen (the
board's DISPLAY frames, the text of what its SSD1306 shows). Each action is drawn at random
from what the rules offer the pad that enters it (tests/mp/random_game.py's fillers), then
entered as a player would: pressing the pad's buttons on their GPIO pins, contact bounce
and all (tests/helpers/menu_player.py's MenuPlayer reads the screens), or, on The King's Dilemma's
voting turn, on the House's own AYE/PASS/NAY pad. The completing input is the release of a
tap (its first edge), or the moment a hold becomes long (long_ms after the press's first
edge). Its latency runs from that instant to the last bit of the first strip frame after it
that shows the new state (render() of the mirror's public view through the current
limiter, in the strip's byte order): all in the chip's simulated ns.
"""

import os
import time

from chip_player import QUIET_NS, ballot_keys
from menu_player import TABLE_PAD, MenuPlayer
from random_game import Draw, action

from chancery.board.link import Link
from chancery.hardware import files as hardware_files
from firmware import pads as pad_map
from firmware.board import pins as pin_maps
from shared_rules import engine, power, render, wire
from shared_rules.errors import RuleError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LONG_MS = 600  # firmware/buttons.py's long_ms: a hold completes when it reaches this
TAP_MS = 80
HOLD_MS = 700
# a menu key -> (button name on a seat's pad, on the table's controls, long?)
KEYS = {"up": ("up", "left", False), "select": ("select", "push", False), "down": ("down", "right", False),
        "long_select": ("select", "push", True), "back": ("up", "back", True), "long_down": ("down", "right", True)}
AT_ONCE_NS = 20000000  # Board.press(after=...): the second key completes this long after the first
LEAD_NS = 50000000  # ... and the first is pressed this far ahead of now, so that both land as planned


def stats(values):
    """(median, p95, max) of values."""
    v = sorted(values)
    n = len(v)
    return v[n // 2], v[min(n - 1, n * 95 // 100)], v[-1]


def button(pad, key):
    """(the button's index in the firmware's order, how long it is pressed in ms, whether it is held
    past long_ms) for menu key `key` on `pad`."""
    seat_name, table_name, hold = KEYS[key]
    return pad_map.index_of(pad, table_name if pad == TABLE_PAD else seat_name), HOLD_MS if hold else TAP_MS, hold


def push(vp, pad, key, at=None):
    """Press `key` on `pad` by its GPIO, contact bounce and all, at board time `at` (None: now):
    (its first edge, its release, the instant that completes it) in board ns: a tap's release, or
    the moment a hold becomes long (long_ms after its first edge)."""
    index, ms, hold = button(pad, key)
    t0, t1 = vp.press_button(index, hold_ms=ms, at=at)
    return t0, t1, t0 + LONG_MS * 1000000 if hold else t1


class Board:
    """The virtual Pico with a listening link: GPIO presses in, screens and entries out."""

    def __init__(self, vp, cfg):
        self.vp = vp
        self.cfg = cfg
        self.screens = []
        self.latencies = []  # ns from the completing edge to the frame's last bit, one per entry
        self.unmatched = 0  # entries whose frame never matched the expected render
        self.noise = []  # lines on the board's serial that were not frames (tracebacks, warnings)
        self.link = Link(vp.port, on_event=self._heard)  # heard from here on (a boot's noise too)
        self.link.open()
        self.link.hello(wait=120)  # the chip is slow while it boots, and on a loaded machine
        self.settle()

    def _heard(self, kind, data):
        if kind == wire.DISPLAY:
            self.screens.append(data["lines"])
        elif kind == "noise":
            line = getattr(data, "line", None)
            self.noise.append(line.decode(errors="replace").strip() if isinstance(line, (bytes, bytearray)) else str(data))

    @property
    def state(self):
        return self.link.mirror.match["state"]

    def entries(self):
        return len(self.link.mirror.match["entries"])

    def press(self, pad, key, timeout=60.0, after=None, settle=True):
        """Press `key` (a menu key) on `pad`; returns (screen, the completing instant in board ns).
        after: another key on the same pad pressed first, this one completing AT_ONCE_NS after that
        one completes: before the board has settled from it (its key, redraw and look ahead).
        settle=False: not waiting for the board's answer to a ping after it (a game switch's
        restart answers none)."""
        before = len(self.screens)
        keys, at = 1, None
        if after is not None:
            keys = 2
            first = push(self.vp, pad, after, self.vp.now_ns() + LEAD_NS)[2]
            at = first + AT_ONCE_NS - button(pad, key)[1] * 1000000
        _t0, t1, done = push(self.vp, pad, key, at)
        end = time.monotonic() + timeout
        while len(self.screens) < before + keys:
            if time.monotonic() > end:
                raise AssertionError("no screen after %s on pad %d" % (key, pad))
            self.link.poll(0.05)
        # A hold's screen comes at its long press, before its release: a next press of the same
        # button begun before that release would be one longer hold to the board, and no key
        # (the stalls of earlier runs at the second of two holds of the table's push, or at a tap
        # after a hold on a seat's select). The next press waits until this one is over.
        while self.vp.now_ns() < t1 + QUIET_NS:
            time.sleep(0.01)
        if settle:
            self.settle()  # its entry, if any, has come too
        return self.screens[-1], done

    def settle(self):
        """Wait until the board has finished with the last press (the redraw, its snapshot,
        the collect): it answers a ping only between presses. A whole tap that falls into
        the board's busy time is not seen at all by a scan that polls the pins."""
        kind, _ = self.link.request(wire.PING, {}, wait=120)
        assert kind == wire.PONG, kind

    def expected_frames(self):
        """The strip bytes the new state may show (every phase of shared LEDs)."""
        game = self.link.mirror.match["game"]
        layout = hardware_files.layout(game)  # placed on the panel, as `chancery deploy` gives it to the board
        data, n, order = pin_maps.strip(self.cfg)
        view = engine.game_module(game).view(self.state, None)
        o = pin_maps.order_offsets(order)
        out = set()
        for phase in range(60 if layout.get("cycle_ms") else 1):
            frame = bytearray(3 * max(n, layout["leds"]))
            render.render(view, layout, frame, layout.get("level", 255), phase)
            power.limit(frame, pin_maps.budget_ma(self.cfg))
            out.add(bytes(frame[j + o[k]] for j in range(0, 3 * n, 3) for k in range(3)))
        return out

    def entered(self, done, timeout=60.0):
        """Time the frame that shows the entry completed at board time `done`: ns from `done` to its
        last bit (the first frame after `done`'s, if none shows the state: counted in `unmatched`),
        None if no frame came."""
        want = self.expected_frames()
        first = None
        end = time.monotonic() + timeout
        k = 0
        while time.monotonic() < end:
            frames = [f for f in self.vp.frames if f.first_ns >= done]
            for f in frames[k:]:
                first = first or f
                if f.data in want:
                    self.latencies.append(f.last_ns - done)
                    return f.last_ns - done
            k = len(frames)
            time.sleep(0.02)
        self.unmatched += 1
        if first is not None:
            self.latencies.append(first.last_ns - done)
            return first.last_ns - done
        return None


class GpioPlayer(MenuPlayer):
    """MenuPlayer on the board's GPIOs. at_once: the confirm's select pressed to complete AT_ONCE_NS
    after a down on the confirm screen (Board.press's after), so that it comes while the board is
    still busy with that key and the entry it computes ahead for the confirm (firmware/ahead.py)."""

    def __init__(self, board, pad, at_once=False):
        self.board = board
        self.pad = pad
        self.done = None
        self.at_once = at_once
        MenuPlayer.__init__(self, None)

    def press(self, k):
        before = self.board.entries()
        sends = self.screen and self.screen[-2:-1] in (["sel: send"], ["push: send"])  # a confirm screen
        after = "down" if self.at_once and k == "select" and sends else None
        screen, self.done = self.board.press(self.pad, k, after=after)
        return screen, (before if self.board.entries() > before else None)

    def enter(self, schema, target):
        self.key("down")  # the first press opens the pad's menu: read its screen
        self.seek(target["type"])
        return MenuPlayer.enter(self, schema, target)


def _menu_can_enter(schema):
    def ok(d):
        return d["kind"] != "text" and ok(d["of"]) if d["kind"] in ("list", "per_seat") else d["kind"] != "text"
    return all(ok(p["domain"]) for p in schema["params"])


def _keys(d, v):
    """About how many presses a menu takes to enter value v of domain d (its downs from the top)."""
    if d["kind"] in ("list", "per_seat"):
        return 1 + sum(_keys(d["of"], x) for x in v) if isinstance(v, list) else 1
    if d["kind"] == "int" and isinstance(v, int):
        return 1 + abs(v - d.get("min", 0))
    among = d.get("values") or d.get("among")
    return 1 + (among.index(v) if isinstance(among, list) and v in among else 4)


def _cheap(rnd, game, state, draws):
    """_choose's (pad, schema, action) of the fewest presses among `draws` drawn."""
    best = None
    for _ in range(draws):
        got = _choose(rnd, game, state)
        n = sum(_keys(p["domain"], got[2][p["name"]]) for p in got[1]["params"] if p["name"] in got[2])
        if best is None or n < best[0]:
            best = n, got
    return best[1]


def _choose(rnd, game, state):
    """(pad, schema, action) drawn among what each pad's menu offers and the rules take."""
    g = engine.game_module(game)
    seats = engine.seats(state)
    cards = g.card_names(state)
    offers = []
    for seat in [None] + list(range(seats)):
        for s in g.legal(state, seat):
            if (s["who"] == "table") == (seat is None) and _menu_can_enter(s):
                offers.append((seat, s))
    for _ in range(50):
        seat, s = rnd.pick(offers)
        move = action(rnd, s, seats, cards)
        if seat is not None:
            move["seat"] = seat
        try:
            move = engine.step(game, state, move)[0]
        except RuleError:
            continue
        if move["type"] == "roll":
            move = {"type": "roll"}  # the board rolls its own dice
        return (TABLE_PAD if seat is None else seat), s, move
    raise AssertionError("no action the rules take in 50 draws at step %s" % state.get("step"))


def _kd_vote(board, seat, move, alone=False):
    """The King's Dilemma's voting turn on the House's own pad: AYE (up) / NAY (down) tapped
    for each Power, then held to vote; PASS (select) tapped to select (once: gather, twice: the
    Moderator), then held to pass; on a later turn held to stay. alone: a Power of 1, or a pass to
    gather, by the hold alone (what it means then). Returns (the hold's long instant, whether the
    board could know the entry ahead: taps before the hold, or a stay: firmware/ahead.py)."""
    t = move["type"]
    if t == "stay":
        return board.press(seat, "long_select")[1], True
    if t == "pass":
        taps = 0 if alone and move["kind"] == "gather" else 1 if move["kind"] == "gather" else 2
        for _ in range(taps):
            board.press(seat, "select")
        return board.press(seat, "long_select")[1], taps > 0
    side = move.get("side") or board.state["choice"][seat]
    key = "up" if side == "aye" else "down"
    taps = 0 if alone and move["power"] == 1 else move["power"]
    for _ in range(taps):
        board.press(seat, key)
    return board.press(seat, "back" if key == "up" else "long_down")[1], taps > 0


def _ballot_keys(b, move):
    """The keys that enter a sealed ballot's action as the board reads them (firmware/ballot_box.py's
    key): a voter's cast on its own pad (with "multi", each option marked by its key, then down held to
    cast the marks), or the table's close (push held); None where the pad cannot say it."""
    if move["type"] == "ballot_close":
        return TABLE_PAD, ["long_select"]
    if move["type"] != "ballot_cast":
        return None
    keys = ballot_keys(b, move["choice"], move.get("count", 1))
    return None if keys is None else (move["seat"], keys)


def enter(board, rnd, say=print, holds=False, at_once=False, draws=1):
    """Draw the next action at random (a Draw) and enter it by GPIO presses: (the instant that
    completed it in board ns, the kind of input: "confirm", "confirm at once", "roll", "vote",
    "vote alone", "cast", "close") once the board has taken it; else None, said. holds: the board's
    roll by the table's hold of push (else by the table's menu: roll, "(board rolls)", confirm),
    and a King's Dilemma vote of Power 1 or pass to gather by the hold alone (else tapped first);
    at_once: a menu's confirm as GpioPlayer's at_once presses it. draws: a menu's action is the one of
    the fewest presses among this many drawn (a game's long lists take minutes on the emulator)."""
    state = board.state
    game = board.link.mirror.match["game"]
    before = board.entries()
    b = state.get("ballot")
    if game == "kings_dilemma" and state["step"] == "vote" and b is None:
        seat = state["turn"]
        move = _choose_for(rnd, game, state, seat)
        done, ahead = _kd_vote(board, seat, move, holds)
        kind = "vote" if ahead else "vote alone"
    elif b is not None and b["open"]:  # the voters' pads and the table's push are the ballot's now
        pad, schema, move = _choose(rnd, game, state)
        got = _ballot_keys(b, move)
        if got is None:
            say("  (%s: %s cannot be pressed on a pad)" % (game, move))
            return None
        for k in got[1]:
            done = board.press(got[0], k)[1]
        kind = "close" if move["type"] == "ballot_close" else "cast"
    else:
        pad, schema, move = _cheap(rnd, game, state, draws)
        if holds and move["type"] == "roll" and pad == TABLE_PAD:
            done, kind = board.press(TABLE_PAD, "long_select")[1], "roll"
        else:
            player = GpioPlayer(board, pad, at_once)
            try:
                player.enter(schema, move)
            except AssertionError as e:
                say("  (%s: could not enter %s: %s)" % (game, move, str(e)[:200]))
                for line in board.noise[-5:]:  # what the board said on its serial meanwhile (a traceback?)
                    say("  (%s: the board said: %s)" % (game, line[:300]))
                try:
                    for _ in range(8):  # back out to the menu's top
                        board.press(pad, "back")
                except AssertionError:  # a key the board dropped (out of memory): it answers no screen
                    board.settle()
                return None
            done, kind = player.done, "confirm at once" if at_once else "confirm"
    if board.entries() <= before:
        say("  (%s: %s was not taken: %s)" % (game, move, board.screens[-1] if board.screens else None))
        return None
    return done, kind


def play(board, seed, entries, say=print):
    """Enter up to `entries` actions; returns how many the board took."""
    rnd = Draw(seed)
    g = engine.game_module(board.link.mirror.match["game"])
    took = failed = 0
    while took < entries and not g.is_over(board.state) and failed < 20:
        got = enter(board, rnd, say)
        if got is None:
            failed += 1
            continue
        board.entered(got[0])
        took += 1
    return took


def _choose_for(rnd, game, state, seat):
    """A move for the voting House, drawn among its legal ones the rules take."""
    g = engine.game_module(game)
    offers = [s for s in g.legal(state, seat) if s["who"] != "table"]
    for _ in range(50):
        s = rnd.pick(offers)
        move = action(rnd, s, engine.seats(state), g.card_names(state))
        move["seat"] = seat
        try:
            return engine.step(game, state, move)[0]
        except RuleError:
            continue
    raise AssertionError("no vote the rules take")

