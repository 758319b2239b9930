"""The generic track kinds seats_at and members (shared_rules/render_tracks.py), and the
board's phase that lets seats sharing an LED take turns (firmware/board/leds.py tick)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import ticks
from firmware.board import leds
from firmware.buttons import Buttons
from shared_rules import render

RED, GREEN, BLUE, WHITE, GOLD = [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [200, 150, 0]
LAYOUT = {
    "leds": 14, "seat_colours": [RED, GREEN, BLUE], "colours": {"empire": WHITE, "event": GOLD},
    "tracks": [
        {"name": "moons", "start": 0, "length": 7, "dir": 1, "shows": "seats_at", "field": "ranks", "index": 0,
         "with": "empire", "colour": "empire"},
        {"name": "suits", "start": 7, "length": 6, "dir": -1, "shows": "members", "field": "suits",
         "values": ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"], "colour": "event"},
    ],
}


def pixel(frame, i):
    return list(frame[3 * i:3 * i + 3])


def draw(view, phase=0):
    return render.render(view, LAYOUT, bytearray(render.frame_size(LAYOUT)), 255, phase)


VIEW = {"ranks": [[2, 0], [2, 5], [4, 1]], "empire": [6, 6], "suits": ["Waves", "Moons"]}


def test_seats_on_one_position_take_turns_by_phase():
    seen = [pixel(draw(VIEW, phase), 2) for phase in range(4)]
    assert seen == [RED, GREEN, RED, GREEN]  # seats 0 and 1 on rank 2
    assert pixel(draw(VIEW), 4) == BLUE and pixel(draw(VIEW), 6) == WHITE  # seat 2; the empire at 6
    assert [pixel(draw(VIEW), i) for i in (0, 1, 3, 5)] == [[0, 0, 0]] * 4


def test_the_empire_takes_its_turn_where_seats_stand_with_it():
    view = dict(VIEW, empire=[2, 6])
    assert [pixel(draw(view, phase), 2) for phase in range(3)] == [RED, GREEN, WHITE]


def test_members_light_the_values_present():
    frame = draw(VIEW)
    lit = [k for k in range(6) if pixel(frame, 12 - k) == GOLD]  # dir -1: Moons is LED 12
    assert lit == [0, 2]
    assert [pixel(draw(dict(VIEW, suits="Suns")), 12 - k) == GOLD for k in range(6)] == [
        False, True, False, False, False, False]
    assert not any(draw(dict(VIEW, suits=None))[21:39])


class FakeHardware:
    def __init__(self, layout):
        self.layout = layout
        self._scans = self._phase = 0
        self.shown = self.moved = 0
        self.buttons = Buttons(19, ticks.FakeClock())
        self.controls = self  # Controls.phase_moved: the frames drawn ahead follow the phase

    def phase_moved(self):
        self.moved += 1

    def _layout_for(self, game):
        return self.layout

    def show(self, table):
        self.shown += 1


class FakeTable:
    game = "the_council"
    changed = False


def test_the_board_moves_the_phase_on_every_cycle():
    hw, table = FakeHardware(dict(LAYOUT, cycle_ms=50)), FakeTable()
    for _ in range(25):  # 25 scans of 5 ms: 125 ms
        leds.tick(hw, table, 5)
    assert hw._phase == 2 and hw.shown == 2 and hw.moved == 2 and table.changed
    still = FakeHardware(LAYOUT)  # no cycle_ms: nothing to turn
    for _ in range(25):
        leds.tick(still, FakeTable(), 5)
    assert still._phase == 0 and still.shown == 0


def test_the_phase_waits_while_a_button_is_down():
    """A redraw in the middle of a press delayed its scan (11 ms on a Pico): the phase moves on
    once no button is down or settling, not during a press."""
    hw, table = FakeHardware(dict(LAYOUT, cycle_ms=50)), FakeTable()
    hw.buttons.update(1 << 3)  # a button held
    for _ in range(25):
        leds.tick(hw, table, 5)
    assert hw._phase == 0 and hw.shown == 0
    hw.buttons.clock.advance(700)
    hw.buttons.update(0)  # released: its lockout runs
    leds.tick(hw, table, 5)
    assert hw.shown == 0
    hw.buttons.clock.advance(30)
    hw.buttons.update(0)
    leds.tick(hw, table, 5)  # then at the next scan
    assert hw._phase == 1 and hw.shown == 1


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 40).flatmap(lambda n: st.tuples(st.binary(min_size=3 * n, max_size=3 * n),
                                                       st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, 2),
                                                                          st.integers(0, 255)), max_size=6))),
       st.integers(0, 9))
def test_a_frame_goes_to_the_strip_up_to_its_last_changed_led(case, extra):
    """changed_leds: the LEDs a frame sends so that a WS2812 chain (each LED past the frame's end
    keeps its colour) shows the new bytes: every change within them, the last LED sent a changed
    one, at least one LED. The new frame may run past what the strip shows (extra bytes)."""
    shown, edits = case
    now = bytearray(shown)
    for led, channel, value in edits:
        now[3 * led + channel] = value
    now += b"\x11" * extra
    k = leds.changed_leds(memoryview(now), memoryview(shown))
    strip = bytearray(shown)
    strip[:3 * k] = now[:3 * k]
    assert strip == now[:len(shown)]
    assert 1 <= k <= len(shown) // 3
    if k > 1 or now[:3] != shown[:3]:
        assert now[3 * k - 3:3 * k] != shown[3 * k - 3:3 * k]
