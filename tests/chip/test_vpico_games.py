"""The games end to end on the chip: `chancery deploy` onto a fresh virtual Pico (stock RPI_PICO
MicroPython 1.28 on rp2040js), then games played as a table plays them, on the board's GPIO
or over its USB serial, with every entry checked (tests/helpers/chip_player.py): the decoded strip
against render() of the public view, the decoded display against the firmware's own screen
for each key, the host's logbook against the board's journal.

One deploy serves the module (a fresh flash takes about 15 s on the emulator); each test
starts its game over the link as the host's mirror does. Skips only when no UF2 is found.
"""

import os
import subprocess
import sys
import time

import paths
import pytest
from chip_checks import expected_frame, pin_map
from chip_player import SHORT_MS, ChipPlayer, ChipTable
from conftest import needs_uf2
from menu_player import play_by_presses

from chancery.vpico import VirtualPico
from firmware.pads import TABLE, index_of
from shared_rules import engine

sys.path.insert(0, paths.MP)

pytestmark = [needs_uf2, pytest.mark.slow(order=1)]

CHANCERY = os.path.join(os.path.dirname(sys.executable), "chancery")
# Chancellors for four seats, to a target of 1: the game ends at the first problem solved, the
# shortest whole game at that seat count (6 or 7 actions, about 150 presses)
FIRST = ["--game", "chancellors", "--set", "players=4", "--set", "target=1"]


class Deployed:
    def __init__(self, vp, run, table, first_frame):
        self.vp, self.run, self.table, self.first_frame = vp, run, table, first_frame


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    """A virtual Pico on a fresh flash, `chancery deploy`ed (the real command on its port),
    then booted into the firmware with the host's link open."""
    folder = tmp_path_factory.mktemp("chip-games")
    with VirtualPico(flash=str(folder / "flash.img"), pace="free") as vp:
        run = subprocess.run([CHANCERY, "deploy", "--port", vp.port] + FIRST, capture_output=True, text=True,
                             timeout=600)
        assert run.returncode == 0, run.stdout + run.stderr
        reset = vp.resets[-1] if vp.resets else 0
        first = vp.wait_frame(after_ns=reset, timeout=120)
        table = ChipTable(vp, str(folder))
        try:
            yield Deployed(vp, run, table, first)
        finally:
            table.close()


def test_deploy_copies_verifies_and_the_board_starts_its_first_game(deployed):
    out = deployed.run.stdout
    assert "micropython 1.28.0" in out and ".mpy v6.3, rp2" in out, out
    assert "verified: " in out and "reset: the board starts the firmware" in out, out
    assert deployed.vp.resets, "deploy did not reset the board into the firmware"
    welcome = deployed.table.link.mirror.welcome
    assert welcome["game"] == "chancellors" and welcome["settings"]["target"] == 1
    match = engine.new_match("chancellors", welcome["settings"], welcome["seed"])
    assert match["start"] == welcome["start"]
    view = engine.game_module("chancellors").view(match["state"], None)
    assert deployed.first_frame.data == expected_frame("chancellors", view, pin_map())


def test_a_whole_four_seat_chancellors_game_by_gpio(deployed):
    table = deployed.table
    if table.link.mirror.match["entries"] or table.game != "chancellors":
        table.new_game("chancellors", {"players": 4, "target": 1})
    presses, types = play_by_presses(table.link, 15, player=lambda link, pad: ChipPlayer(table, pad))
    state = table.state
    assert state["step"] == "over" and state["settings"]["players"] == 4
    assert {"roll", "pass"} <= types and ("reveal" in types or "assign" in types), types
    assert table.checked == len(table.link.mirror.match["entries"])
    table.check_journal_over_the_link()


# --- findings: what the board did wrong on its chip (run here, while the board plays Chancellors) -----------

def keys_taken(table, inputs):
    """How many keys the board takes (display frames it sends) from inputs() (which makes
    some GPIO input and returns the board time it ends), half a second of its time after."""
    table.sync()
    heard = len(table.said)
    end = inputs()
    while table.vp.now_ns() < end + 500_000_000:
        time.sleep(0.05)
    table.sync()
    table.link.poll(0.2)
    return len(table.said) - heard


# A contact that chatters for 4 ms as it opens: closed again 1 and 3 ms after it first opened
# (chancery.vpico.inputs.press_steps mirrors a press's bounce at its release). A worn tactile
# switch does that, and it is well inside firmware/buttons.py's 20 ms lockout.
CHATTER = ((0, True), (1000, False), (2000, True), (3000, False), (4000, True))


def test_a_tap_whose_contact_chatters_is_one_key(deployed):
    """One tap of the table's push: one key. Fails since e8a00d7 (firmware/board/mpboard.py):
    the scan that counts the release can run before the chatter; the pin's IRQ then latches
    the button as pressed during it, the key's redraw keeps the scan away past the lockout,
    and the next scan takes the stale latch for a second press. With the default bounce
    (0.6 ms) it happens now and then: a whole game by presses meets it."""
    table = deployed.table
    table.new_game("chancellors", {"players": 4})
    push = index_of(TABLE, "push")
    assert keys_taken(table, lambda: table.vp.press_button(push, hold_ms=SHORT_MS, bounce=CHATTER)[1]) == 1


def test_an_encoder_turned_at_ten_detents_a_second_moves_every_detent(deployed):
    """Three detents of the table's encoder at 25 ms a contact change (100 ms a detent, an
    unhurried turn) are three keys to the menu, though each key's redraw keeps the scan away
    for tens of ms of the chip's time: the encoder is read in its pins' IRQs
    (firmware/board/knob.py). It lost detents while the scan read the encoder's levels."""
    table = deployed.table
    table.new_game("chancellors", {"players": 4})
    table.key(TABLE, "select")  # the roll's values: a list of numbers to turn through
    assert keys_taken(table, lambda: table.vp.turn(3, step_ms=25)) == 3


# --- the other games ---------------------------------------------------------------------------------------

def play_over_the_link(table, game, settings, seed, cast_on_pads=False, enough=None):
    """A whole random game (tests/helpers/sim_play.py's draws) sent over the link, the board's rolls
    as thrown dice so that the game repeats, or its start until enough(entries); with
    cast_on_pads, each sealed ballot's casts on the voters' pads. Returns the entries."""
    import random_game
    import sim_play

    table.new_game(game, settings)
    table.cast_on_pads, table.rolls = cast_on_pads, random_game.Draw(seed + 1000)
    try:
        sim_play.play_to_end(table, seed, most=400, enough=enough)
    finally:
        table.cast_on_pads, table.rolls = False, None
    entries = table.link.mirror.match["entries"]
    assert engine.game_module(game).is_over(table.state) if enough is None else enough(entries)
    assert table.checked >= len(entries)
    table.check_journal_over_the_link()
    return entries


def a_vote_revealed(entries):
    """Enough of a sealed-vote game on the chip: a ballot cast on the pads, revealed, and the
    entry after it (its outcome's first step). A whole game took 3-5 minutes of the suite's
    15, its second vote another minute; the rules to the game's end, sealed votes among them,
    are the gate's random games (tests/rules/test_micropython_gate.py: the same code under the unix
    port, in the board's 96K), and the power cuts' sealed game (tests/chip/test_vpico_power.py)
    casts and reveals on the chip too."""
    reveals = [i for i, e in enumerate(entries) if e["action"]["type"] == "ballot_reveal"]
    return len(reveals) >= 1 and len(entries) > reveals[0] + 1


def test_the_kings_dilemma_with_its_sealed_vote_on_the_pads(deployed):
    table = deployed.table
    keys = table.keys
    entries = play_over_the_link(table, "kings_dilemma", {"players": 3, "voting": "sealed", "time_counter": 4,
                                                          "death_space": 4}, 8,
                                 cast_on_pads=True, enough=a_vote_revealed)
    types = [e["action"]["type"] for e in entries]
    assert types.count("ballot_reveal") == 1 and types.count("ballot_cast") >= 2, types
    assert table.keys - keys > types.count("ballot_cast")  # the casts on the pads, and a probe per entry


def test_a_sealed_vote_on_the_pads_shows_nothing_of_the_hidden_choices(deployed):
    """The same position twice (a new game with the same settings and the same roll: the
    same public view), the same presses on the same pads, only the hidden choices differ:
    every strip frame, every display picture, every screen and entry the host hears is the
    same until the reveal, which the last cast brings."""
    table = deployed.table
    votes = ([(0, ["up", "back"]), (1, ["select"]), (2, ["select"])],  # AYE 1 (a tap counts, the hold casts), gather
             [(0, ["down", "long_down"]), (1, ["select"]), (2, ["select"])])  # NAY 1, gather, gather
    seen, revealed = [], []
    for vote in votes:
        table.new_game("kings_dilemma", {"players": 3, "voting": "sealed"})
        table.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
        b = table.state["ballot"]
        assert b["open"] and b["voters"] == [0, 1, 2] and b["options"] == ["aye", "gather", "nay", "moderate"]
        t0, said, made = table.vp.now_ns(), len(table.said), len(table.link.mirror.match["entries"])
        for seat, keys in vote[:-1]:
            for k in keys:
                table.key(seat, k)
        t1 = table.vp.now_ns()
        entries = [(e["action"], e["events"]) for e in table.link.mirror.match["entries"][made:]]
        seen.append(([f.data for f in table.vp.frames if t0 <= f.first_ns <= t1],
                     [p.ram for p in table.vp.pictures if t0 <= p.t_ns <= t1], table.said[said:], entries))
        for k in vote[-1][1]:
            table.key(vote[-1][0], k)
        reveal = [e["action"] for e in table.link.mirror.match["entries"] if e["action"]["type"] == "ballot_reveal"]
        revealed.append(reveal)
    frames, pictures, screens, entries = seen[0]
    assert frames and pictures and len(screens) == 3 and [a["type"] for a, _ in entries] == ["ballot_cast"] * 2
    assert seen[0] == seen[1]
    assert revealed == [[{"type": "ballot_reveal", "choices": ["aye", "gather", "gather"], "amounts": [1, None, None]}],
                        [{"type": "ballot_reveal", "choices": ["nay", "gather", "gather"], "amounts": [1, None, None]}]]


def test_the_council_over_the_link(deployed):
    # the seed's scoring example's position (tests/scenarios/the-council/seed-l40-scoring-12.jsonl): the
    # empire falls at the end of the first events phase, so a whole game is a draft, an event and its reveal
    settings = {"players": 3, "events": 1, "ranks": [[5, 0, 3, 0, 0, 0], [0] * 6, [0] * 6],
                "empire": [4, 6, 4, 6, 6, 6], "traitors": [2, 0, 0]}
    # Switching to it restarts the board (firmware/board/reboot.py: the other game's code and
    # interned names leave the heap): the link hears MicroPython's soft reboot, and the session
    # goes on without a new hello, every entry heard and checked as before.
    link = deployed.table.link
    heard, noise, hellos = link.on_event, [], []
    link.on_event = lambda kind, data: (noise.append(data) if kind == "noise" else None, heard(kind, data))
    link.hello = lambda *a, **k: hellos.append(a)
    try:
        entries = play_over_the_link(deployed.table, "the_council", settings, 2)
    finally:
        link.on_event = heard
        del link.hello
    assert "ballot_reveal" in [e["action"]["type"] for e in entries]
    assert [n for n in noise if b"soft reboot" in (getattr(n, "line", None) or b"")], noise
    assert hellos == []


def test_yes_your_grace_over_the_link(deployed):
    entries = play_over_the_link(deployed.table, "yes_your_grace", {"players": 3, "annals": 1}, 5)
    assert len(entries) >= 5
