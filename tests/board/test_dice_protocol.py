"""GoDice's protocol (firmware/dice/godice.py) and a roll read from dice (firmware/dice/roll.py).

The recordings (tests/dice/godice_recordings.json) are notifications as a GoDice sends
them, one set per shell, each with the event it must give: they were written from the
maker's published protocol (its `godice` package), and a reader must give the same
events under CPython and under the MicroPython unix port.
"""

import binascii
import json
import os

import paths
import pytest
from godice import xyzinterpret
from hypothesis import given
from hypothesis import strategies as st

from chancery.board import micropython as mp
from firmware.dice import godice, godice_commands
from firmware.dice.roll import Roll

HERE = paths.TESTS
RECORDINGS = os.path.join(HERE, "dice", "godice_recordings.json")
MP_DIR = os.path.join(HERE, "mp")
MAKER = {"D6": xyzinterpret.get_rolled_number_d6, "D20": xyzinterpret.get_rolled_number_d20,
         "D10": xyzinterpret.get_rolled_number_d10, "D10X": xyzinterpret.get_rolled_number_d10x,
         "D4": xyzinterpret.get_rolled_number_d4, "D8": xyzinterpret.get_rolled_number_d8,
         "D12": xyzinterpret.get_rolled_number_d12}


def recordings():
    with open(RECORDINGS) as f:
        return json.load(f)


def test_the_recordings_cover_every_shell_the_makers_api_reads():
    assert sorted(recordings()) == sorted(godice.SHELLS) == sorted(MAKER)


@pytest.mark.parametrize("shell", godice.SHELLS)
def test_each_recorded_notification_gives_its_event(shell):
    rec = recordings()[shell]
    reader = godice.Reader(rec["die"], shell)
    for hexed, expected in rec["notifications"]:
        event = reader.feed(binascii.unhexlify(hexed))
        assert (list(event) if event is not None else None) == expected, hexed


def test_the_same_events_under_micropython(micropython, firmware_build):
    proc = mp.run_micropython(os.path.join(MP_DIR, "dice_replay.py"), [RECORDINGS], heap="2M",
                              path=[firmware_build], micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    got, commands = {}, {}
    for line in proc.stdout.splitlines():
        shell, hexed, event = line.split(" ", 2)
        if shell == "command":
            commands[hexed] = event
        else:
            got.setdefault(shell, []).append([hexed, json.loads(event)])
    assert got == {shell: rec["notifications"] for shell, rec in recordings().items()}
    assert commands == {"battery": "03", "colour": "17", "leds": "080000ffffff00", "pulse": "10030a14ff00000100"}


@pytest.mark.parametrize("shell", godice.SHELLS)
@given(xyz=st.tuples(*[st.integers(-128, 127)] * 3))
def test_every_reading_of_the_axes_gives_the_makers_face(shell, xyz):
    assert godice.face(shell, *xyz) == MAKER[shell](xyz)


def test_a_stable_message_reads_the_axes_as_signed_bytes():
    reader = godice.Reader("d", "D6")
    assert reader.feed(b"S\xc0\x00\x00") == ("settled", "d", 1)  # x = -64: face 1
    assert reader.feed(bytearray(b"S\x40\x00\x00")) == ("settled", "d", 6)  # x = +64: face 6


def test_short_or_unknown_messages_give_no_event():
    reader = godice.Reader("d", "D6")
    for data in (b"", b"S\x01", b"FS\x01\x02", b"Bat", b"Col", b"h", b"Z\x00\x00\x00"):
        assert reader.feed(data) is None, data
    assert reader.lost() == ("lost", "d")


def test_an_unknown_shell_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="D7.*D6, D20, D10, D10X, D4, D8, D12"):
        godice.Reader("d", "D7")


def test_commands_are_the_bytes_the_die_takes():
    assert godice.ask_battery() == b"\x03"
    assert godice_commands.ask_colour() == b"\x17"
    assert godice_commands.leds((0, 0, 255), (255, 255, 0)) == bytes([8, 0, 0, 255, 255, 255, 0])
    assert godice_commands.pulse(3, 10, 20, (255, 0, 0)) == bytes([16, 3, 10, 20, 255, 0, 0, 1, 0])
    with pytest.raises(ValueError, match="three ints 0-255"):
        godice_commands.leds((0, 0, 256), (0, 0, 0))
    with pytest.raises(ValueError, match="0-255"):
        godice_commands.pulse(300, 1, 1, (0, 0, 0))


# --- a roll read from dice ---------------------------------------------------------

def test_a_roll_takes_the_settled_faces_of_its_dice_in_order():
    roll = Roll(3)
    for event in [("rolling", "a"), ("rolling", "b"), ("settled", "b", 4), ("battery", "a", 80),
                  ("settled", "a", 2), ("rolling", "a"), ("settled", "a", 6)]:
        assert roll.take(event) is None
    assert roll.done() and roll.values == [4, 2, 6] and roll.ids == ["b", "a", "a"]


def test_a_die_still_rolling_is_never_read_and_keeps_the_roll_open():
    roll = Roll(1)
    roll.take(("rolling", "a"))
    roll.take(("rolling", "b"))
    roll.take(("settled", "a", 5))
    assert not roll.done()  # b is in the air: it could have been the throw's die
    assert "roll it again" in roll.take(("tilted", "b", 3))
    assert roll.done() and roll.values == [5]


def test_a_die_turned_by_hand_or_cocked_gives_no_value():
    roll = Roll(1)
    assert "by hand" in roll.take(("moved", "a", 6))
    assert "cocked" in roll.take(("tilted", "a", 6))
    assert roll.values == [] and not roll.done()


def test_a_die_lost_mid_roll_sends_the_roll_to_the_menu():
    roll = Roll(2)
    roll.take(("rolling", "a"))
    note = roll.take(("lost", "a"))
    assert roll.fallback == "a" and "enter the roll on the menu" in note and not roll.done()


def test_a_die_lost_before_it_rolled_only_says_so():
    roll = Roll(2)
    assert roll.take(("lost", "a")) == "a lost"
    assert roll.fallback is None


def test_only_the_rolls_own_dice_count():
    roll = Roll(1, dice=["a"])
    assert "not for this roll" in roll.take(("settled", "b", 3))
    roll.take(("settled", "a", 4))
    assert roll.done() and roll.ids == ["a"]


_EVENTS = st.lists(st.tuples(st.sampled_from(["rolling", "settled", "moved", "tilted", "lost", "battery"]),
                             st.sampled_from(["a", "b", "c"]), st.integers(1, 6)), max_size=30)


@given(wanted=st.integers(1, 4), events=_EVENTS)
def test_a_roll_is_never_done_while_a_die_is_in_the_air_and_never_takes_too_many(wanted, events):
    roll = Roll(wanted)
    in_air = set()
    for kind, die, face in events:
        roll.take((kind, die) if kind in ("rolling", "lost") else (kind, die, face))
        if kind == "rolling":
            in_air.add(die)
        elif kind in ("settled", "moved", "tilted"):
            in_air.discard(die)
        assert len(roll.values) <= wanted and len(roll.ids) == len(roll.values)
        if in_air:
            assert not roll.done()


def test_the_heap_benchs_thrown_d6_settles_as_the_reader_reads_it():
    # tools/chip/heap_paths.py throws D6s from its own copy of the face vectors (so that the
    # runner does not load the reader into the board's heap): each face must read as that face
    import ast

    with open(os.path.join(HERE, "..", "tools", "chip", "heap_paths.py")) as f:
        tree = ast.parse(f.read())
    axes = [ast.literal_eval(n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", None) == "D6_AXES"]
    assert axes == [godice._D6]
    for face in range(1, 7):
        x, y, z = [(a - 64) & 255 for a in axes[0][3 * face - 3:3 * face]]
        assert godice.Reader("D6").feed(b"S" + bytes([x, y, z])) == ("settled", "D6", face)
