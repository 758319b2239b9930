"""An offered action is never refused: in random games of every game (and The King's Dilemma with
its sealed vote), each action type legal() offers has a filling the rules accept, on CPython and
under MicroPython alike (tests/mp/random_game.py with "offered"). The King's Dilemma's sealed vote
refused every Event or Trigger card drawn for the round (`drawn`, ballot_open) until the round's
ballot was set aside for it; The King's Dilemma offered `stability` after the King's abdication."""

import json
import os
import subprocess
import sys

import paths
import pytest

from chancery.board import micropython as mp

ROOT = paths.ROOT
SCRIPT = os.path.join(ROOT, "tests", "mp", "random_game.py")
CASES = [("chancellors", {}), ("kings_dilemma", {}), ("kings_dilemma", {"voting": "sealed"}), ("the_council", {}),
         ("yes_your_grace", {})]
FIRST, SEEDS = "1", "6"


def _args(game, settings):
    return [game, FIRST, SEEDS, json.dumps(settings), "offered"]


@pytest.mark.parametrize("game,settings", CASES, ids=["%s%s" % (g, "-sealed" if s else "") for g, s in CASES])
def test_every_offered_action_type_is_accepted_on_both_interpreters(game, settings, firmware_build, micropython):
    proc = subprocess.run([sys.executable, SCRIPT] + _args(game, settings), capture_output=True, text=True,
                          timeout=300, env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    on_mp = mp.run_micropython(SCRIPT, args=_args(game, settings), path=[firmware_build], micropython=micropython)
    assert on_mp.returncode == 0 and on_mp.stdout == proc.stdout, on_mp.stdout + on_mp.stderr
