"""Seeded menu walks and button scripts, for CPython and MicroPython alike.

    micropython tests/mp/menu_walk.py walks FIRST_SEED GAMES KEYS
    micropython tests/mp/menu_walk.py toy FIRST_SEED WALKS KEYS
    micropython tests/mp/menu_walk.py game SEED PLAYERS [EXTENDED]
    micropython tests/mp/menu_walk.py buttons SEED
    micropython tests/mp/menu_walk.py ticks SEED
    micropython tests/mp/menu_walk.py alloc

walks: states of Chancellors play-outs (tests/mp/playout.py's play_game), and
for each one random key walks through firmware.menu as the table, the seat
whose chance it is and another seat. toy: the same over TOY, a made-up game
whose schemas use every domain kind (nested containers too), so the menu is
shown to be generic. game: a whole game whose every action is entered
through the menu by random keys. Every screen must fit 8 lines of 16
characters, every action the menu yields must pass schema.check against the
narrowed legal schemas, and the engine may refuse it only for a rule (never
for its form). One canonical line per walk goes to stdout; the tests compare
CPython's lines with MicroPython's.

buttons: bouncy press scripts through firmware.buttons on FakeClocks
wrapping at 2**30 and 2**62, each started far from and just before the wrap;
the events and their times (from the press) must not depend on the clock.
ticks: FakeClock against the interpreter's own tick functions. alloc
(MicroPython only): what update() allocates when nothing happens.

Randomness is shared_rules.prng, so both interpreters take the same walks.
Exit status 0 when every check held, 1 otherwise.
"""

import binascii
import gc
import sys

from firmware import buttons, pads, ticks
from firmware.menu import Menu
from shared_rules import canon, engine, prng
from shared_rules import schema as schemas
from shared_rules.errors import RuleError
from shared_rules.schema import action, param

KEYS = ("select", "select", "select", "down", "down", "down", "up", "back", "long_select", "long_select",
        "long_down", "long_up")
FORM_ERRORS = ("bad_param", "unknown_action", "bad_action", "bad_schema")  # the menu's fault, never the rules'
_MICRO = sys.implementation.name == "micropython"


class Failure(Exception):
    pass


class Rnd:
    def __init__(self, seed):
        self.s = prng.seed_state(seed)

    def below(self, n):
        v, self.s = prng.draw(self.s, n)
        return v


# ---------------------------------------------------------------- a made-up game

def toy():
    """TOY, a made-up game (built on first use: the board-heap runs do not pay for it)."""
    global _TOY
    if _TOY is None:
        _TOY = _make_toy()
    return _TOY


_TOY = None


def _make_toy():
    card = {"kind": "card", "deck": "decktet"}

    class TOY:
        """A game that is not Chancellors: every domain kind, nesting, an empty choice."""
        NAME = "toy"
        SCHEMAS = (
            action("bid", "seat", [param("amount", {"kind": "int", "min": 0, "max": 250}),
                                   param("suit", {"kind": "enum", "values": ["Moons", "Suns", "Waves"]}),
                                   param("secret", {"kind": "bool"}, optional=True, default=False)]),
            action("give", "seat", [param("to", {"kind": "seat"}), param("card", card),
                                    param("tone", {"kind": "enum", "values": ["kind", "cold"]}, optional=True,
                                          default="kind")]),
            action("meld", "seat", [param("cards", {"kind": "list", "of": card, "min": 2, "max": 4, "distinct": True})]),
            action("dice", "table", [param("faces", {"kind": "list", "of": {"kind": "int", "min": 1, "max": 6},
                                                     "min": 0, "max": 3}, optional=True)]),
            action("vote", "table", [param("votes", {"kind": "per_seat", "of": {"kind": "seat", "none": True}})]),
            action("hands", "table", [
                param("hands", {"kind": "per_seat", "of": {"kind": "list", "of": {"kind": "bool"}, "min": 1, "max": 2}}),
                param("lead", {"kind": "seat", "none": True}, optional=True)]),
            action("grid", "table", [param("rows", {"kind": "list", "of": {
                "kind": "list", "of": {"kind": "int", "min": 0, "max": 2}, "min": 1, "max": 2, "distinct": True},
                "min": 1, "max": 2, "distinct": True})]),
            action("empty", "seat", [param("card", {"kind": "card", "deck": "decktet", "among": []})]),
            action("noop", "table", []),
        )

        @staticmethod
        def card_names(state):
            from shared_rules import decktet

            return decktet.NAMES

        @staticmethod
        def legal(state, seat):
            """Table actions for the table; a seat's, narrowed by the seat, for a seat."""
            from shared_rules import decktet

            out = []
            for s in toy().SCHEMAS:
                if (s["who"] == "table") != (seat is None) and s["type"] != "noop":
                    continue
                if s["type"] in ("give", "meld"):
                    p = dict(s["params"][1 if s["type"] == "give" else 0])
                    d = dict(p["domain"])
                    if s["type"] == "give":
                        d["among"] = list(decktet.NAMES[seat * 7:seat * 7 + 9])
                    else:
                        d["of"] = {"kind": "card", "deck": "decktet", "among": list(decktet.NAMES[:12])}
                    p["domain"] = d
                    s = dict(s)
                    s["params"] = [p if q["name"] == p["name"] else q for q in s["params"]]
                out.append(s)
            return out

    return TOY


def toy_state(players):
    return {"settings": {"players": players}}


# ---------------------------------------------------------------- walks

def check_screen(screen):
    if not isinstance(screen, list) or not 1 <= len(screen) <= 8:
        raise Failure("screen of %r lines" % (len(screen),))
    for line in screen:
        if not isinstance(line, str) or len(line) > 16:
            raise Failure("screen line %r" % (line,))


def check_action(g, state, seat, legal, act, chancellors):
    """The verdict on an action the menu yielded: 'ok DIGEST' or 'refused CODE'."""
    seats = engine.seats(state)
    cards = g.card_names(state)
    try:
        schemas.check(act, legal, seats, cards)  # the narrowed domains, not only the game's
        schemas.check(act, g.SCHEMAS, seats, cards)
    except RuleError as e:
        raise Failure("the menu yielded %s: %s %s" % (canon.encode(act), e.code, canon.encode(e.detail)))
    if s_who(legal, act) == "seat" and seat is not None and act.get("seat") != seat:
        raise Failure("a seat's action without its seat: %s" % canon.encode(act))
    if not chancellors:
        return "ok"
    try:
        return "ok " + canon.digest(engine.step(g.NAME, state, act)[2])
    except RuleError as e:
        if e.code in FORM_ERRORS:
            raise Failure("the engine refused the form of %s: %s" % (canon.encode(act), e.code))
        return "refused " + e.code


def s_who(legal, act):
    return schemas.find(legal, act["type"])["who"]


def walk(g, state, seat, rnd, keys, chancellors, write=None):
    """One random key walk; returns (crc of every screen, actions yielded)."""
    menu = Menu(g.legal, g.card_names)
    screen = menu.start(state, seat)
    legal = menu.schemas
    crc = 0
    count = 0
    for _ in range(keys):
        check_screen(screen)
        for line in screen:
            crc = binascii.crc32(line.encode(), crc)
        k = KEYS[rnd.below(len(KEYS))]
        screen, act = menu.key(state, k)
        if act is not None:
            count += 1
            verdict = check_action(g, state, seat, legal, act, chancellors)
            if write:
                write("  %s %s\n" % (canon.encode(act), verdict))
            screen = menu.start(state, seat)  # as the board does once an action is applied
    check_screen(screen)
    return crc & 0xFFFFFFFF, count


def actor(state):
    if state["step"] in ("B", "C") and state["queue"]:
        return state["queue"][0][0]
    return None


def playout_states(seed, players, extended, every):
    """Every `every`-th state of a random play-out (tests/mp/playout.py)."""
    import playout

    acts = []
    playout.play_game(seed, players, extended, lambda i, a, e, d: acts.append(a))
    state = engine.new_match("chancellors", {"players": players, "extended": extended}, seed)["state"]
    out = [state]
    for i in range(len(acts)):
        state = engine.step("chancellors", state, acts[i])[2]
        if (i + 1) % every == 0 or state["step"] == "over":
            out.append(state)
    return out


def walks(first, games, keys, write):
    g = engine.game_module("chancellors")
    for seed in range(first, first + games):
        players = 2 + seed % 3
        states = playout_states(seed, players, seed % 2 == 1, 7)
        for n in range(len(states)):
            state = states[n]
            who = actor(state)
            for seat in ((None, 1) if who is None else (None, who, (who + 1) % players)):
                rnd = Rnd(seed * 1000 + n * 10 + (9 if seat is None else seat))
                write("seed=%d state=%d step=%s seat=%s\n" % (seed, n, state["step"], seat))
                crc, count = walk(g, state, seat, rnd, keys, True, write)
                write("  crc=%08x actions=%d\n" % (crc, count))


def toy_walks(first, count, keys, write):
    for k in range(first, first + count):
        players = 2 + k % 4
        seat = None if k % 3 == 0 else k % players
        crc, n = walk(toy(), toy_state(players), seat, Rnd(k), keys, False, write)
        write("toy=%d players=%d seat=%s crc=%08x actions=%d\n" % (k, players, seat, crc, n))


def menu_game(seed, players, extended, write, cap=800):
    """A whole game of Chancellors entered through the menu by random keys."""
    g = engine.game_module("chancellors")
    state = engine.new_match("chancellors", {"players": players, "extended": extended}, seed)["state"]
    gc.collect()
    rnd = Rnd(seed)
    menu = Menu(g.legal, g.card_names)
    done = refused = tries = 0
    digest = ""
    while state["step"] != "over" and tries < cap * 4:
        tries += 1
        seat = actor(state)
        menu.start(state, seat)
        act = None
        for _ in range(300):
            act = menu.key(state, KEYS[rnd.below(len(KEYS))])[1]
            if act is not None:
                break
        if act is None:
            continue
        check_action(g, state, seat, menu.schemas, act, False)
        try:
            act, events, state, digest = engine.step("chancellors", state, act)
            digest = canon.digest(state)
            done += 1
        except RuleError as e:
            if e.code in FORM_ERRORS:
                raise Failure("the engine refused the form of %s: %s" % (canon.encode(act), e.code))
            refused += 1
        act = events = None  # noqa: F841  (free them before the collection)
        gc.collect()
    write("game seed=%d players=%d actions=%d refused=%d step=%s ending=%s digest=%s\n" % (
        seed, players, done, refused, state["step"], state["ending"], digest))
    return state["step"] == "over"


# ---------------------------------------------------------------- buttons

def press_script(seed):
    """[(ms, levels bitmask)]: bouncy presses of a few buttons, short and long, some at once."""
    rnd = Rnd(seed)
    out = []
    levels = 0
    for _ in range(12):
        b = rnd.below(4) * 5 + rnd.below(3)  # a few seats' buttons
        hold = (40, 150, 450, 590, 650, 900, 1500)[rnd.below(7)]
        for target in (1, 0):
            for _ in range(rnd.below(6)):  # bounce: the contact flips a few times, 1-3 ms each
                levels ^= 1 << b  # (within the 20 ms lockout after the first edge)
                out.append((1 + rnd.below(3), levels))
            levels = (levels | (1 << b)) if target else (levels & ~(1 << b))
            out.append((hold if target else 80 + rnd.below(100), levels))
        if rnd.below(3) == 0:  # a 5 ms glitch on another button: a press (its first edge counts)
            out.append((5, levels | (1 << 18)))
            out.append((60, levels))
    return out


def run_buttons(script, clock, scan=2):
    """Feed a script at one scan every `scan` ms; (ms since the start, index, kind) for each event."""
    keys = buttons.Buttons(pads.COUNT, clock)
    t0 = clock.ticks_ms()
    out = []
    for ms, levels in script:
        left = ms
        while left > 0:
            step = scan if left >= scan else left
            clock.advance(step)
            left -= step
            for i, kind in keys.update(levels):
                out.append((clock.ticks_diff(clock.ticks_ms(), t0), i, kind))
    return out


def run_encoder(seed):
    """A bouncy quadrature signal: detents clockwise, then back; returns the position trail."""
    rnd = Rnd(seed)
    enc = buttons.Encoder()
    cw = ((1, 0), (1, 1), (0, 1), (0, 0))
    trail = []
    for turn in (7, -4, 3):
        for _ in range(turn if turn > 0 else -turn):
            seq = cw if turn > 0 else ((0, 1), (1, 1), (1, 0), (0, 0))
            prev = (0, 0)
            for a, b in seq:
                if rnd.below(3) == 0:  # bounce back and forth once
                    enc.update(a, b)
                    enc.update(prev[0], prev[1])
                enc.update(a, b)
                prev = (a, b)
            trail.append(enc.position)
    return trail


def button_lines(seed, write):
    ok = True
    script = press_script(seed)
    base = None
    for bits in (30, 62):
        for start in (12345, (1 << bits) - 700):
            events = run_buttons(script, ticks.FakeClock(bits, start))
            text = " ".join(["%d:%d:%s" % e for e in events])
            write("clock=2**%d start=%d events=%s\n" % (bits, start, text))
            if base is None:
                base = text
            ok = ok and text == base
    write("encoder %s\n" % canon.encode(run_encoder(seed)))
    return ok


def tick_lines(seed, write):
    """FakeClock against the tick functions of this interpreter (on CPython: firmware.ticks' own)."""
    rnd = Rnd(seed)
    bits = 62 if _MICRO else 30
    if _MICRO and ticks.ticks_add((1 << 62) - 1, 1) != 0:
        bits = 30  # a 32-bit port
    fake = ticks.FakeClock(bits)
    half = 1 << (bits - 1)
    bad = 0
    values = [0, 1, half - 1, half, half + 1, (1 << bits) - 1]
    for _ in range(200):
        values.append(rnd.below(1 << 30) << (bits - 30) | rnd.below(1 << 16))
    for a in values:
        for d in (0, 1, -1, half - 1, -half + 1, 12345, -(half >> 1)):
            if ticks.ticks_add(a, d) != fake.ticks_add(a, d):
                bad += 1
        for b in values[:20]:
            if ticks.ticks_diff(a, b) != fake.ticks_diff(a, b):
                bad += 1
    for d in (half, -half):
        for f in (ticks.ticks_add, fake.ticks_add):
            try:
                f(0, d)
                bad += 1
            except OverflowError:
                pass
    write("ticks period=2**%d mismatches=%d\n" % (bits, bad))
    return bad == 0


def alloc_lines(write):
    """Bytes update() allocates over 2,000 scans while nothing happens (MicroPython only).

    A button is held throughout (its long press already given): the steady
    state of a scan loop, with the levels as a bitmask and as a list."""
    clock = ticks.FakeClock(30, (1 << 30) - 1000)
    keys = buttons.Buttons(pads.COUNT, clock)
    held = [0] * pads.COUNT
    held[2] = 1
    events = []
    for _ in range(400):  # press button 2 and hold it past the long press (and the wrap)
        clock.advance(2)
        events.extend(keys.update(0b100))
    gc.collect()
    gc.disable()
    a = gc.mem_alloc()
    for _ in range(1000):
        clock.advance(2)
        keys.update(0b100)
        keys.update(held)
    b = gc.mem_alloc()
    gc.enable()
    write("alloc steady=%d events=%s\n" % (b - a, canon.encode([list(e) for e in events])))
    return b == a


def main(argv):
    write = sys.stdout.write
    mode = argv[0] if argv else ""
    nums = [int(a) for a in argv[1:]]
    try:
        if mode == "walks":
            walks(nums[0], nums[1], nums[2], write)
            ok = True
        elif mode == "toy":
            toy_walks(nums[0], nums[1], nums[2], write)
            ok = True
        elif mode == "game":
            ok = menu_game(nums[0], nums[1], bool(nums[2]) if len(nums) > 2 else False, write)
        elif mode == "buttons":
            ok = button_lines(nums[0], write)
        elif mode == "ticks":
            ok = tick_lines(nums[0], write)
        elif mode == "alloc":
            ok = alloc_lines(write)
        else:
            write("usage: menu_walk.py walks|toy|game|buttons|ticks|alloc ARGS\n")
            return 2
    except Failure as e:
        write("FAIL: %s\n" % e)
        return 1
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
