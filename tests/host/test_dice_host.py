"""`chancery dice` (host/chancery/dice/): the maker's `godice` API read through a fake BLE client that
plays recorded notifications (tests/dice/godice_recordings.json), so no adapter is needed."""

import argparse
import asyncio
import binascii
import json
import os
import subprocess
import sys

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest

from chancery.board.link import Link
from chancery.board.simboard import SimBoard
from chancery.dice import ble
from chancery.dice import cli as dice_cli
from chancery.dice.watch import Watch
from firmware.dice import godice as protocol
from firmware.dice import godice_commands
from firmware.dice.desk import Desk
from shared_rules import engine, wire

HERE = paths.TESTS
with open(os.path.join(HERE, "dice", "godice_recordings.json")) as _f:
    RECORDINGS = json.load(_f)
ADDRESS = "D4:EE:07:12:A3:F0"
OTHER = "C1:C2:C3:C4:C5:C6"


class FakeClient:
    """What godice.Dice asks of bleak's BleakClient, played from recorded notifications."""

    def __init__(self, address, lost, battery=77):
        self.address, self.lost, self.battery = address, lost, battery
        self.services = self
        self.notify = None
        self.written = []
        self.connected = False

    def get_characteristic(self, uuid):
        return uuid

    async def connect(self):
        self.connected = True

    async def disconnect(self):
        self.connected = False

    async def start_notify(self, char, callback):
        assert char == protocol.RX
        self.notify = callback

    async def write_gatt_char(self, char, data):
        assert char == protocol.TX
        self.written.append(bytes(data))
        if bytes(data) == protocol.ask_battery():
            await self.play(["426174%02x" % self.battery])

    async def play(self, hexes):
        for h in hexes:
            await self.notify(protocol.RX, bytearray(binascii.unhexlify(h)))

    def drop(self):
        self.connected = False
        self.lost()


def connect_die(address, shell, clients, events):
    def client_for(addr, lost):
        clients[addr] = FakeClient(addr, lost)
        return clients[addr]

    die = ble.Die(address, shell, events.append, client_for)
    asyncio.run(die.connect())
    return die


@pytest.mark.parametrize("shell", protocol.SHELLS)
def test_the_makers_api_reads_the_recordings_as_the_boards_reader_does(shell):
    clients, events = {}, []
    connect_die(ADDRESS, shell, clients, events)
    assert events == [("battery", "d4ee0712a3f0", 77)]
    assert clients[ADDRESS].written[-1] == godice_commands.leds((0, 0, 0), (0, 0, 0))
    # godice 0.1.2 reads only R, S, FS, TS, MS, Bat and Col: the position messages are replayed
    wanted = [(h, e) for h, e in RECORDINGS[shell]["notifications"] if e and e[0] not in ("battery", "colour")]
    del events[:]
    asyncio.run(clients[ADDRESS].play([h for h, _ in wanted]))
    assert events == [tuple([e[0], "d4ee0712a3f0"] + e[2:]) for _, e in wanted]


def test_a_die_id_is_its_address_without_colons():
    assert ble.die_id("D4:EE:07:12:A3:F0") == "d4ee0712a3f0"
    assert ble.die_id("6E3A1A2B-0C4D-4E5F-8A9B-D4EE0712A3F0") == "d4ee0712a3f0"  # macOS gives a UUID


def test_scan_lists_only_godice_nearest_first():
    class Dev:
        def __init__(self, name, address):
            self.name, self.address = name, address

    class Adv:
        def __init__(self, rssi):
            self.rssi = rssi

    async def discover(timeout, return_adv):
        return {"a": (Dev("GoDice_1_K_v04", OTHER), Adv(-70)), "b": (Dev("Speaker", "00:11"), Adv(-30)),
                "c": (Dev("GoDice_2_B_v04", ADDRESS), Adv(-50)), "d": (Dev(None, "00:12"), Adv(-20))}

    assert asyncio.run(ble.scan(1, discover)) == [("GoDice_2_B_v04", ADDRESS, -50), ("GoDice_1_K_v04", OTHER, -70)]


def test_scan_without_an_adapter_says_so_and_exits_2(capsys):
    async def discover(timeout, return_adv):
        raise FileNotFoundError(2, "No such file or directory")  # bleak on Linux without D-Bus

    args = argparse.Namespace(dice_command="scan", seconds=1)
    assert dice_cli.run(args, discover=discover) == 2
    err = capsys.readouterr().err
    assert "Bluetooth LE adapter" in err and "menu" in err


def test_the_command_without_an_adapter_answers_in_words_not_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "chancery", "dice", "scan", "--seconds", "1"], capture_output=True,
                          text=True, timeout=60)
    assert "Traceback" not in proc.stderr + proc.stdout
    if proc.returncode == 2:  # no adapter here (CI): said in words
        assert "Bluetooth LE" in proc.stderr
    else:  # a machine with an adapter
        assert proc.returncode == 0, proc.stderr


# --- the board's rolls -------------------------------------------------------------

class FakeLink:
    """The link as Watch uses it: a mirror of a match, and act()."""

    def __init__(self, game="chancellors", seed=11, refuse=None, players=2):
        self.mirror = argparse.Namespace(match=engine.new_match(game, {"players": players}, seed), names=None)
        self.acts = []
        self.refuse = refuse

    def act(self, move):
        self.acts.append(move)
        if self.refuse:
            return wire.ERROR, {"code": self.refuse[0], "detail": self.refuse[1], "message": ""}
        entry = engine.apply(self.mirror.match, move)
        return wire.OK, {"i": len(self.mirror.match["entries"]) - 1, "entry": entry}


def throw(watch, faces):
    """The dice of one throw: each rolls, then each settles, in order."""
    for die, _ in faces:
        watch.event(("rolling", die))
    for die, face in faces:
        watch.event(("settled", die, face))


def test_a_settled_throw_becomes_the_boards_roll_with_each_values_die():
    said, link = [], FakeLink()
    watch = Watch(link, said.append)
    watch.tick()
    assert said == ["roll 6 dice"]
    throw(watch, [("a1", 3), ("b2", 4)])
    throw(watch, [("a1", 1), ("b2", 1)])
    assert link.acts == []
    throw(watch, [("a1", 5), ("b2", 6)])
    assert link.acts == [{"type": "roll", "values": [3, 4, 1, 1, 5, 6], "source": "smart",
                          "dice": ["a1", "b2", "a1", "b2", "a1", "b2"]}]
    assert link.mirror.match["state"]["problems"] == [[3, 4], [1, 1], [5, 6]]
    assert said[-1] == "rolled 3 4 1 1 5 6"


def test_a_die_still_rolling_holds_the_roll_back():
    said, link = [], FakeLink()
    watch = Watch(link, said.append)
    throw(watch, [("a1", 3), ("b2", 4), ("a1", 1), ("b2", 1), ("a1", 5)])
    watch.event(("rolling", "b2"))
    watch.event(("rolling", "a1"))
    watch.event(("settled", "b2", 6))
    assert link.acts == []  # a1 is in the air
    watch.event(("settled", "a1", 2))
    assert len(link.acts) == 1 and link.acts[0]["values"] == [3, 4, 1, 1, 5, 6]


def test_a_die_rolled_when_no_roll_is_asked_for_is_ignored_and_said():
    said, link = [], FakeLink()
    engine.apply(link.mirror.match, {"type": "roll", "values": [1, 2, 3, 4, 5, 5], "source": "manual"})
    watch = Watch(link, said.append)
    watch.event(("rolling", "a1"))
    watch.event(("settled", "a1", 4))
    assert link.acts == [] and said == ["die a1 rolled 4, but no roll is asked for: ignored"]


def test_a_die_lost_mid_roll_leaves_the_roll_to_the_menu():
    said, link = [], FakeLink()
    watch = Watch(link, said.append)
    watch.event(("rolling", "a1"))
    watch.event(("lost", "a1"))
    assert said[-1] == "die a1 lost: enter the roll on the menu"
    throw(watch, [("b2", v) for v in (1, 2, 3, 4, 5, 6)])
    assert link.acts == []
    assert said[-1] == "die b2 rolled 6: this roll is the menu's now (a die was lost)"


def test_a_refused_roll_is_said_in_words_and_left_to_the_menu():
    said, link = [], FakeLink(refuse=("bad_param", {"action": "roll", "name": "values", "why": "domain",
                                                    "domain": {"kind": "int", "min": 1, "max": 6}, "value": 17}))
    watch = Watch(link, said.append)
    throw(watch, [("a1", 17)] + [("b2", 2)] * 5)
    assert len(link.acts) == 1
    assert said[-1].startswith("the roll was refused: ") and said[-1].endswith("; enter it on the menu")


def test_the_kings_dilemma_momentum_roll_is_read_by_smart_dice_too():
    said, link = [], FakeLink(game="kings_dilemma", players=4)
    watch = Watch(link, said.append)
    throw(watch, [("a1", 1), ("b2", 2), ("a1", 3), ("b2", 4), ("a1", 6)])
    assert link.acts == [{"type": "roll", "values": [1, 2, 3, 4, 6], "source": "smart",
                          "dice": ["a1", "b2", "a1", "b2", "a1"]}]
    assert [e["source"] for e in link.mirror.match["entries"][0]["events"] if e["t"] == "momentum"] == ["smart"] * 5


def test_a_game_whose_roll_takes_no_smart_dice_says_so_once():
    game = argparse.Namespace(NAME="oldgame", dice_wanted=lambda state: 2, SCHEMAS=[
        {"type": "roll", "who": "table", "params": [{"name": "source", "domain": {"kind": "enum",
                                                                                   "values": ["board", "manual"]}}]}])
    said, acts = [], []
    desk = Desk(lambda: (game, {}, 0), acts.append, said.append)
    desk.tick()
    desk.tick()
    throw(desk, [("a1", 3)])
    assert said[0] == "oldgame's roll takes no smart dice: enter it on the menu"
    assert said.count(said[0]) == 1 and acts == []


def test_watch_reads_the_dice_into_the_simulated_boards_log(tmp_path, micropython, firmware_build):
    """The whole way: recorded D6 notifications through godice, the watch loop, the link, the real firmware."""
    board = SimBoard(data_dir=str(tmp_path / "board"), players=2, seed=5, heap=heaps.BOARD, micropython=micropython,
                     code_path=[firmware_build])
    board.open_pty()
    link = Link(board.port_name)
    link.open()
    board.start()
    with board:
        link.hello(wait=10.0)
        clients = {}

        def client_for(addr, lost):
            clients[addr] = FakeClient(addr, lost)
            return clients[addr]

        d6 = {f: h for h, e in RECORDINGS["D6"]["notifications"] if e and e[0] == "settled" for f in [e[2]]}
        script = [(ADDRESS, 3), (OTHER, 4), (ADDRESS, 1), (OTHER, 1), (ADDRESS, 5), (OTHER, 6)]
        played = []

        def until():
            if not played and len(clients) == 2:
                played.append(True)

                async def throws():
                    for addr, face in script:
                        await clients[addr].play(["52", "52", d6[face]])
                        await asyncio.sleep(0.01)
                asyncio.ensure_future(throws())
            return len(link.mirror.match["entries"]) == 1

        args = argparse.Namespace(dice_command="watch", die=[ADDRESS, OTHER], shell="D6", port=None)
        assert dice_cli.run(args, client_for=client_for, link=link, until=until) == 0
        entry = link.mirror.match["entries"][0]
        assert entry["action"] == {"type": "roll", "values": [3, 4, 1, 1, 5, 6], "source": "smart",
                                   "dice": ["d4ee0712a3f0", "c1c2c3c4c5c6"] * 3}
        assert [e["source"] for e in entry["events"] if e["t"] == "die"] == ["smart"] * 6
        link.close()
