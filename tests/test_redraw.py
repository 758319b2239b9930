"""The board draws again only the tracks whose view fields moved (firmware/board/leds.py's
Redraw): every frame it draws must equal a whole render of the same view.

tests/mp/redraw_cases.py plays random games of each game with the board's in-place fold (the
view's lists are the objects the rules change), and compares each redrawn frame, at two phases
and through the current limiter at budgets that sometimes scale it, with a whole render. It
runs under CPython (tests/fakes' framebuf) and under the MicroPython unix port on the board's
.mpy build (the real framebuf); both must print the same counts.
"""

import json
import os
import pathlib
import subprocess
import sys

import pytest

from chancery.board import micropython as mp

ROOT = pathlib.Path(__file__).resolve().parent.parent
MP_DIR = ROOT / "tests" / "mp"
FAKES = ROOT / "tests" / "fakes"
LAYOUTS = ROOT / "hardware" / "layouts"
GAMES = ("chancellors", "kings_dilemma", "the_council", "yes_your_grace")
ACTIONS = 150


def _cpython(game, seed, layout=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(FAKES), str(MP_DIR), str(ROOT)]))
    proc = subprocess.run([sys.executable, str(MP_DIR / "redraw_cases.py"), str(layout or LAYOUTS / (game + ".json")),
                           game, str(seed), str(ACTIONS)], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_redrawn_frame_equals_a_whole_render(game, seed):
    words = _cpython(game, seed).split()
    frames, partial = int(words[1]), int(words[3])
    assert frames >= 8 and 0 < partial < frames  # drawn in part most often, whole at times


@pytest.mark.parametrize("game", GAMES)
def test_the_same_under_micropython(game, micropython, firmware_build, tmp_path):
    expected = _cpython(game, 4)
    code = ("import sys\nimport redraw_cases\nfrom firmware.board import leds\n"
            "if not leds.__file__.endswith('.mpy'):\n    print('not from .mpy: ' + leds.__file__)\n    sys.exit(3)\n"
            "a = sys.argv[1:]\nredraw_cases.run(a[0], a[1], int(a[2]), int(a[3]))\n")
    proc = mp.run_micropython(code=code, args=[str(LAYOUTS / (game + ".json")), game, "4", str(ACTIONS)],
                              heap="2M", cwd=str(tmp_path), path=[str(MP_DIR), firmware_build], micropython=micropython)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert proc.stdout == expected


def test_tracks_that_share_an_led_are_always_drawn_whole(tmp_path):
    """Clearing one track of two that share an LED would dark the other's: such a layout is
    drawn whole every frame, and still right."""
    layout = json.loads((LAYOUTS / "kings_dilemma.json").read_text(encoding="utf-8"))
    layout["tracks"][1]["start"] = 4  # wealth over influence's last five LEDs
    path = tmp_path / "shared.json"
    path.write_text(json.dumps(layout), encoding="utf-8")
    words = _cpython("kings_dilemma", 1, path).split()
    assert int(words[1]) >= 8 and words[3] == "0"
