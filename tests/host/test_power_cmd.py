"""chancery hardware power: the figures of shared_rules/power.py, the model the board's limiter uses."""

import json
import os

import paths
import pytest

from chancery import cli
from chancery.hardware import files as hardware_files
from chancery.hardware import power as power_cmd
from shared_rules import power

ROOT = paths.ROOT
LAYOUT = hardware_files.layout("chancellors")  # placed on the arrangement: 116 of the panel's 256 LEDs


def test_worst_case_is_every_led_white_at_the_cap(capsys):
    assert cli.main(["hardware", "power", "--layout", "chancellors", "--brightness", "100"]) == 0
    out = capsys.readouterr().out
    leds, lit = LAYOUT["leds"], 116
    assert (leds, power_cmd.lit_leds(LAYOUT)) == (256, lit)
    # 20 mA a channel at 255 for the tracks' LEDs, rounded up, and 1 mA for every chip of the panel
    worst = -(-lit * 3 * 100 * 20 // 255) + leds
    assert "worst case (every LED of a track white at the cap): %d mA" % worst in out
    assert "idle (every LED dark, the chips alone): %d mA" % leds in out
    assert "116 of the arrangement's 256 LEDs" in out
    assert "budget %d mA" % LAYOUT["budget_ma"] in out  # the layout's budget, as the board's


@pytest.mark.parametrize("budget", [300, 500, 2000, 8000])
def test_the_highest_cap_is_the_last_that_fits(budget):
    cap = power_cmd.highest_level(LAYOUT, budget)
    assert power_cmd.worst_case_ma(LAYOUT, cap) <= budget
    if cap < 255:
        assert power_cmd.worst_case_ma(LAYOUT, cap + 1) > budget


def test_no_cap_fits_a_budget_below_the_idle_current(capsys):
    assert power_cmd.highest_level(LAYOUT, LAYOUT["leds"] - 1) is None
    assert cli.main(["hardware", "power", "--layout", "chancellors", "--budget", "50"]) == 0
    assert "no cap fits" in capsys.readouterr().out


def test_typical_lies_between_idle_and_worst():
    for level in (0, 40, 160, 255):
        typical = power_cmd.typical_ma(LAYOUT, level)
        assert LAYOUT["leds"] <= typical <= power_cmd.worst_case_ma(LAYOUT, level)
    assert power_cmd.typical_ma(LAYOUT, 200) > power_cmd.typical_ma(LAYOUT, 100)


def test_the_limiter_brings_a_typical_frame_under_the_budget():
    frame = bytearray(LAYOUT["leds"] * 3)
    colour = power_cmd.mean_colour(LAYOUT)
    for i in range(power_cmd.lit_leds(LAYOUT) // 2):
        frame[i * 3:i * 3 + 3] = bytes(c * 160 // 255 for c in colour)
    assert power.estimate_ma(frame) == power_cmd.typical_ma(LAYOUT, 160) > 500
    power.limit(frame, 500)
    assert power.estimate_ma(frame) <= 500


@pytest.mark.parametrize("argv, words", [
    (["--layout", "chess"], "unknown layout 'chess'; the layouts are: chancellors"),
    (["--layout", "chancellors", "--brightness", "300"], "0-255"),
    (["--layout", "chancellors", "--budget", "0"], "positive"),
])
def test_bad_input_is_refused_with_the_reason(argv, words, capsys):
    assert cli.main(["hardware", "power"] + argv) == 2
    assert words in capsys.readouterr().err


def _rules_board(name):
    with open(os.path.join(ROOT, "hardware", "rules.json")) as f:
        return json.load(f)["boards"][name]


def _board_budget(name):
    with open(os.path.join(ROOT, "hardware", "boards", name + ".json")) as f:
        return json.load(f)["budget_ma"]


@pytest.mark.parametrize("board", ["rpi-pico", "esp32-s3-devkitc", "adafruit-kb2040"])
def test_the_boards_own_draw_is_counted_against_its_supply(board, capsys):
    assert cli.main(["hardware", "power", "--layout", "chancellors", "--board", board]) == 0
    out = capsys.readouterr().out
    own = _rules_board(board)["board_ma"]["value"]
    budget = _board_budget(board)
    assert "budget %d mA" % budget in out  # the board's budget, the one its limiter uses
    assert "level shifter draw about %d mA" % own in out
    assert "strip budget %d mA + board %d mA = %d mA, within the 500 mA" % (budget, own, budget + own) in out


def test_the_default_board_is_the_pico_and_a_budget_too_big_for_usb_says_so(capsys):
    own = _rules_board("rpi-pico")["board_ma"]["value"]
    assert cli.main(["hardware", "power", "--layout", "chancellors"]) == 0
    out = capsys.readouterr().out
    # issue 45: it said "supply usb (VBUS (pin 40))" where the builder's guide builds option B
    assert "board rpi-pico: the board" in out and "supply usb (VBUS" not in out
    assert "the guide builds option B (hardware/README.md): the strip on its own 5 V supply, which also feeds " \
           "the board at VSYS (pin 39) through a 1N5817" in out
    assert "so that option A fits too: the strip on VBUS (pin 40), for the bench only" in out
    assert cli.main(["hardware", "power", "--layout", "chancellors", "--budget", "600"]) == 0
    out = capsys.readouterr().out
    assert "over the 500 mA the supply path allows: a budget of %d mA at most" % (500 - own) in out


def test_the_layouts_brightness_leaves_a_typical_frame_alone(capsys):
    assert cli.main(["hardware", "power", "--layout", "chancellors"]) == 0
    assert "within the budget: the limiter leaves a typical frame alone" in capsys.readouterr().out
    assert cli.main(["hardware", "power", "--layout", "chancellors", "--brightness", "160"]) == 0
    assert "over the budget: the limiter dims a typical frame" in capsys.readouterr().out


def test_an_unknown_board_is_refused(capsys):
    assert cli.main(["hardware", "power", "--layout", "chancellors", "--board", "uno"]) == 2
    assert "unknown board 'uno'" in capsys.readouterr().err
