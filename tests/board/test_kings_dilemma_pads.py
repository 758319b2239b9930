"""The King's Dilemma at the table: each House votes on its pad's AYE / PASS / NAY buttons.

The rulebook's five-player vote (L1944-2046), entered on the board by button
presses only, ends in the same state as its scenario file, where the same vote
is given as actions; pads.py's keys are checked one by one too.
"""

import os

import paths
from clients import controls, linked

from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, engine, scenario
from shared_rules.kings_dilemma import pads

ROOT = paths.ROOT
VOTE = os.path.join(ROOT, "tests", "scenarios", "kings-dilemma", "seed-l1944-five-player-vote.jsonl")


def scenario_state(upto):
    """The state after the scenario file's first `upto` actions, applied by the engine."""
    with open(VOTE) as f:
        header, items = scenario.read_lines(f)
        actions = [item["action"] for item in items if "action" in item][:upto]
    m = engine.new_match(header["game"], header["settings"], header["seed"])
    for act in actions:
        engine.apply(m, act)
    return header, m


def test_the_five_player_vote_by_pad_presses(tmp_path):
    header, expected = scenario_state(9)  # the roll and the eight voting turns
    t = Table(Journal(str(tmp_path)), lambda n: b"\x01" * n, header["game"],
              header["settings"], "kd")
    t.new_game(header["game"], header["settings"])
    t.state = engine.new_match(header["game"], header["settings"], header["seed"])["state"]  # the file's seed
    t.journal.start(dict(t.header, seed=header["seed"], start=canon.digest(t.state)))
    t.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    presses = [(0, "select"), (0, "select"), (0, "long_select"),    # Theodore: pass, become Moderator
               (1, "up"), (1, "back"),                             # Julius: AYE 1 (held up: vote)
               (2, "down"), (2, "long_down"),                      # Armin: NAY 1
               (3, "up"), (3, "back"),                             # Diana: AYE 1
               (4, "down"), (4, "down"), (4, "down"), (4, "down"), (4, "long_down"),  # Frances: NAY 4
               (1, "up"), (1, "up"), (1, "up"), (1, "back"),       # Julius adds 3
               (2, "down"), (2, "long_down"),                      # Armin adds 1
               (3, "up"), (3, "back")]                             # Diana adds her last
    screens = [controls(t).key(pad, key)[0] for pad, key in presses]
    # Frances counts on the pad (her Power is not shown); below, what the House's keys do (firmware/keymap.py)
    keys = ["up: +1 AYE", "dn: +1 NAY", "hold up:vote AYE", "hold dn:vote NAY", "sel: PASS kind"]
    assert screens[1] == ["S0", "PASS: moderator", "hold to pass"] + keys
    assert screens[11] == ["S4", "NAY 3", "hold to vote"] + keys
    # a later turn: the side voted, added to; or the stay
    assert screens[15] == ["S1", "AYE 2", "hold to vote", "up: +1 AYE", "hold up: add AYE", "hold sel: stay"]
    assert t.state["step"] == "side" and canon.digest(t.state) == canon.digest(expected["state"])


def state_at_turn(choice, power=8):
    return {"step": "vote", "turn": 1, "choice": ["", choice, ""], "power": [8, power, 8]}


def test_keys_on_a_first_turn():
    s = state_at_turn("")
    screen, act, held = pads.pad(s, 1, "up", None)
    assert act is None and held == {"side": "aye", "power": 1} and screen[1] == "AYE 1"
    assert pads.pad(s, 1, "up", held)[2] == {"side": "aye", "power": 2}
    assert pads.pad(s, 1, "down", {"side": "aye", "power": 2})[2] == {"side": "nay", "power": 1}  # afresh
    assert pads.pad(s, 1, "back", {"side": "aye", "power": 2})[1] == {"type": "vote", "side": "aye", "power": 2}
    assert pads.pad(s, 1, "long_down", None)[1] == {"type": "vote", "side": "nay", "power": 1}
    # PASS selects on a tap, as AYE and NAY count, and a hold commits it (issue 16)
    screen, act, held = pads.pad(s, 1, "select", None)
    assert act is None and screen == ["S1", "PASS: gather", "hold to pass"]
    screen, act, held = pads.pad(s, 1, "select", held)
    assert act is None and screen == ["S1", "PASS: moderator", "hold to pass"]
    assert pads.pad(s, 1, "long_select", held)[1] == {"type": "pass", "kind": "moderate"}
    assert pads.pad(s, 1, "select", held)[1:] == (None, {"side": "gather", "power": 0})  # and back
    assert pads.pad(s, 1, "long_select", None)[1] == {"type": "pass", "kind": "gather"}  # held at once: gather
    assert pads.pad(s, 1, "long_select", {"side": "aye", "power": 2})[1] == {"type": "pass", "kind": "gather"}


def test_keys_on_a_later_turn_and_out_of_turn():
    s = state_at_turn("nay")
    assert pads.pad(s, 1, "back", None) == (["S1", "you voted NAY", "add to it only"], None, None)
    assert pads.pad(s, 1, "up", None)[1] is None  # the other side: nothing sent
    assert pads.pad(s, 1, "long_down", {"side": "nay", "power": 3})[1] == {"type": "add", "power": 3}
    assert pads.pad(s, 1, "select", None) == (["S1", "STAY", "hold to stay"], None, None)
    assert pads.pad(s, 1, "long_select", None)[1] == {"type": "stay"}
    assert pads.pad(s, 0, "up", None) is None  # not seat 0's turn: the menus
    assert pads.pad(dict(s, step="outcome"), 1, "up", None) is None


def test_which_hold_would_end_an_entry_for_the_board_to_compute_it_ahead():
    first, later = state_at_turn(""), state_at_turn("nay")
    # the seat whose hold would end an entry now: on a first turn only once it has counted
    assert pads.pad(first, None, None, {}) is None
    assert pads.pad(first, None, None, {0: {"side": "aye", "power": 2}}) is None  # not seat 0's turn
    assert pads.pad(first, None, None, {1: {"side": "aye", "power": 2}}) == 1
    assert pads.pad(later, None, None, {}) == 1  # a stay, with nothing counted
    assert pads.pad(dict(later, step="outcome"), None, None, {}) is None
    assert pads.pad(later, None, "select", {}) is None  # the table's keys: the menus
    # and that seat's hold, from where its pad stands
    assert pads.pad(first, 1, None, {"side": "aye", "power": 2}) == "back"
    assert pads.pad(first, 1, None, {"side": "nay", "power": 1}) == "long_down"
    assert pads.pad(first, 1, None, {"side": "moderate", "power": 0}) == "long_select"
    assert pads.pad(first, 1, None, None) is None
    assert pads.pad(later, 1, None, None) == "long_select"
    assert pads.pad(later, 1, "long_select", None)[1] == {"type": "stay"}


def sealed_table(folder, sent):
    settings = {"players": 3, "voting": "sealed"}
    t = Table(Journal(str(folder)), lambda n: b"\x01" * n,
              "kings_dilemma", settings, "kd").boot()
    linked(t, sent)[1].frame(0, "hello", {"proto": 1})
    t.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    return t


def sealed_run(folder, nay_presses):
    """House 0 AYE 3, House 1 NAY (nay_presses), then House 2 PASS AND BECOME MODERATOR,
    all on their pads; (what showed before House 2 cast, the table after)."""
    sent = []
    t = sealed_table(folder, sent)
    screens = [controls(t).key(0, k)[0] for k in ("up", "up", "up", "back")]
    screens += [controls(t).key(1, "down")[0] for _ in range(nay_presses)] + [controls(t).key(1, "long_down")[0]]
    with open(os.path.join(str(folder), "game.jsonl"), "rb") as f:
        # the screens as a set: a table sees how often a House presses, never what that counts
        before = (canon.encode(sent), sorted(set(tuple(x) for x in screens)), f.read(), canon.digest(t.state))
    controls(t).key(2, "long_select")
    return before, t


def test_a_sealed_vote_on_the_pads_shows_nothing_until_all_have_voted(tmp_path):
    five, t5 = sealed_run(tmp_path / "a", 5)
    four, t4 = sealed_run(tmp_path / "b", 4)
    assert five == four  # frames, screens, journal, digest: House 1's Power is nowhere before the reveal
    assert [x[:2] for x in five[1]] == [("S0 ballot", "counted"), ("S0 ballot", "voted"), ("S1 ballot", "counted"),
                                        ("S1 ballot", "voted")]
    # below "counted", what each key does (the same for every House: it says nothing of a count)
    assert five[1][0][2:] == five[1][2][2:] == ("up: +1 aye", "dn: +1 nay", "hold up: aye", "sel: gather",
                                                "hold sel:moderat", "hold dn: nay")
    assert t5.state["ballot"]["result"]["amounts"] == [3, 5, None]
    assert t4.state["ballot"]["result"]["amounts"] == [3, 4, None]
    s = t5.state  # NAY 5 beats AYE 3; House 1, strictly most Power, is the Leader (S3)
    assert (s["step"], s["side"], s["leader"], s["moderator"], s["middle"]) == ("outcome", "nay", 1, 2, 8)
    assert s["power"] == [8, 3, 8] and s["coins"] == [10, 10, 11]
    assert canon.digest(t5.state) != canon.digest(t4.state)


def test_a_houses_pad_shows_the_same_whatever_power_it_has():
    """The display is the whole table's: a House's pad never shows the Power behind its screen."""
    for choice in ("", "aye"):
        screens = []
        for power in (8, 3):
            s = state_at_turn(choice, power)
            screens.append([pads.pad(s, 1, k, None)[0] for k in ("up", "down", "back")])
        assert screens[0] == screens[1], screens


def test_a_refusal_on_a_pad_reaches_the_host_as_facts_to_say_in_words(tmp_path):
    """The display says it in the board's short words; a listening host hears the code and its
    facts (an error frame answering no frame: re null) and says it as the terminal game would
    (issue 16)."""
    from shared_rules import games
    from shared_rules.errors import RuleError

    sent = []
    t = Table(Journal(str(tmp_path)), lambda n: b"\x01" * n,
              "kings_dilemma", {"players": 3}, "kd").boot()
    linked(t, sent)[1].frame(0, "hello", {"proto": 1})
    t.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    seat = t.state["turn"]
    for _ in range(30):  # AYE 30: more Power than any House has
        controls(t).key(seat, "up")
    before = len(sent)
    screen, index = controls(t).key(seat, "back")  # held: the vote
    assert index is None and screen[0] == "Not allowed:"
    (kind, body), = sent[before:]
    assert kind == "error" and body["re"] is None and body["code"] == "not_enough_power" and body["detail"]
    assert " ".join(screen[1:]) == "House %d lacks 30 Power" % seat
    e = RuleError(body["code"], body["detail"])
    e.game = "kings_dilemma"
    words = games.message(e)
    assert words and body["code"] not in words  # a sentence, not the code
