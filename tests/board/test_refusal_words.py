"""A refusal in words on the board's own display (issue 16): firmware/refusals.txt holds a
short sentence per error code, in the host's words, read by firmware/words.py only when
a refusal happens; the display shows it in 16 columns, scrolled by the pad's up and down
when it is longer than the display."""

import glob
import json
import os

import paths
import pytest
from clients import controls

from firmware import words as refusal
from firmware.journal import Journal
from firmware.table import Table
from shared_rules import engine, games, scenario
from shared_rules import texts as core_texts
from shared_rules.errors import RuleError

ROOT = paths.ROOT
TABLE = 5


def board_lines():
    """{(game, key)}: the file's lines, GAME CODE[.WHY]."""
    out = set()
    with open(os.path.join(ROOT, "firmware", "refusals.txt"), encoding="ascii") as f:  # the display is ASCII
        for line in f:
            if line.startswith("#"):
                continue
            game, key, text = line.rstrip("\n").split(" ", 2)
            assert game == "*" or game in games.GAMES, line
            assert text.count("{") == text.count("}") and text == text.strip(), line
            out.add((game, key))
    return out


def test_every_code_the_host_words_has_a_line_on_the_board_and_no_line_is_stale():
    lines = board_lines()
    codes = {("*", c) for c in core_texts.TEXTS}
    for game in games.GAMES:
        codes |= {(game, c) for c in games.load(game).words().TEXTS}
    missing = [(g, c) for g, c in sorted(codes) if (g, c) not in lines and ("*", c) not in lines]
    assert not missing, "codes the board would show as a code: %s" % missing
    known = {c for g, c in codes}
    stale = [(g, k) for g, k in sorted(lines) if k.split(".")[0] not in known]
    assert not stale, stale


def scenario_refusals():
    """(game, RuleError) for every refusal the scenario files make the rules give."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*", "*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            items = [json.loads(x) for x in f if x.strip() and not x.startswith("#")]
        match = engine.new_match(items[0]["game"], items[0].get("settings"), items[0].get("seed", 0))
        state, last = match["state"], match["start"]
        for raw in items[1:]:
            act = scenario._item(raw)[0]
            try:
                act, _events, state, last = engine.step(match["game"], state, act, last)
            except RuleError as e:
                out.append((match["game"], e))
    return out


def test_every_refusal_of_the_scenarios_is_said_in_words_on_one_screen():
    seen = scenario_refusals()
    assert len({e.code for g, e in seen}) > 60  # the scenarios refuse with most codes
    for game, e in seen:
        screen = refusal.screen(game, e)
        words = " ".join(screen[1:])
        assert screen[0] == "Not allowed:" and screen[1] != e.code[:16], (game, e.code)  # words, not the code
        assert "?" not in words.split() and "{" not in words, (game, e.code, e.detail, words)  # every fact there
        assert len(screen) <= 8 and max(len(x) for x in screen) <= 16, (game, e.code, screen)  # one screen


@pytest.mark.parametrize("code, detail, host, board", [
    ("too_low", {"total": 7, "problem": 2, "dice": [5, 6], "need": 11, "help": "service"},
     "the cards add up to 7; problem 2 (5-6) needs at least 11", None),
    ("not_your_turn", {"seat": 1, "asked": 0}, "it is seat 1's chance, not seat 0's", None),
    ("wrong_step", {"what": "rolling", "now": {"step": "B", "seat": 1, "service": "army"}},
     "rolling is not possible now", "rolling is not possible now (step B)"),
    ("score_below_zero", {"seat": 0, "score": 0, "asked": 20},
     "seat 0 has 0 points: taking 20 would leave it below 0", None),
])
def test_the_board_says_it_in_the_terminal_games_words(code, detail, host, board):
    e = RuleError(code, detail)
    e.game = "chancellors"
    assert games.message(e).startswith(host)
    assert " ".join(refusal.screen("chancellors", e)[1:]) == (board or host)


def table(folder):
    return Table(Journal(str(folder)), lambda n: b"\x07" * n, "chancellors",
                 {"players": 3}, "t").boot()


def test_a_refusal_on_the_tables_menu_is_said_in_words(tmp_path):
    t = table(tmp_path)
    # score seat 0 -20: the amount starts at 0; the knob held right jumps a ten ahead, 0 -> 10 -> 20,
    # then round to -20; the reason is left at its default
    keys = ["long_select", "select", "down", "down", "select", "select", "long_down", "long_down", "long_down",
            "select"]
    for k in keys:
        controls(t).pressed(TABLE, k)
    screen, index = controls(t).pressed(TABLE, "select")
    assert index is None and screen == ["Not allowed:", "seat 0 has 0", "points: taking", "20 would leave",
                                        "it below 0", "back: change", "push: send again"]


def test_a_refusal_longer_than_the_display_scrolls_on_its_pads_up_and_down(tmp_path):
    t = table(tmp_path)
    e = RuleError("unknown_game", {"game": " ".join(["word%d" % i for i in range(20)])})
    whole = refusal.screen("chancellors", e)
    assert len(whole) == 12  # "Not allowed:" and 11 lines of words
    first = controls(t).why(e, 1)
    assert first == whole[:8]
    down = controls(t).pressed(1, "down")[0]
    assert down == whole[:1] + whole[2:9]
    for _ in range(5):
        last = controls(t).pressed(1, "down")[0]
    assert last == whole[:1] + whole[5:]  # at the end it stays
    assert controls(t).pressed(1, "up")[0] == whole[:1] + whole[4:11]
    controls(t).pressed(1, "select")  # any other key: the pad's menu, as ever
    assert -1 not in controls(t).held and controls(t).pressed(1, "down")[0][0] != "Not allowed:"
    controls(t).why(e, 1)
    assert controls(t).pressed(2, "down")[0][0] != "Not allowed:"  # another pad's keys are its own


def test_a_board_without_the_file_shows_the_code(tmp_path, monkeypatch):
    monkeypatch.setattr(refusal, "_open", lambda: None)
    e = RuleError("too_low", {})
    assert refusal.screen("chancellors", e) == ["Not allowed:", "too_low"]
