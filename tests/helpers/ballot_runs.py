"""The sealed ballot's secrecy runner (tests/mp/ballot_secrecy.py) on CPython: its lines for a game
(lines), split into its two runs A and B (by_run), which differ only in the hidden choices; and what
each game's two runs reveal (REVEALED). Used by tests/board/test_ballot.py and, against the chip's
lines, tests/chip/test_vpico_ballot.py."""

import os
import sys

import ballot_secrecy  # tests/mp/ (on sys.path: tests/conftest.py)
import board_files  # the layouts as a board reads them


def lines(folder, game):
    os.makedirs(folder, exist_ok=True)
    out = []
    stdout = sys.stdout

    class Lines:
        def write(self, text):
            out.extend([line for line in text.splitlines() if line])

    sys.stdout = Lines()
    try:
        ballot_secrecy.main([str(folder), board_files.layout_file(game, os.path.join(str(folder), "layout")), game])
    finally:
        sys.stdout = stdout
    return out


def by_run(out):
    return {tag: [line[2:] for line in out if line.startswith(tag + " ")] for tag in "AB"}


REVEALED = {
    "chancellors": ('revealed ["Aye","Aye","Nay"] counts [2,1,0] amounts null',
                    'revealed ["Abstain","Aye","Nay"] counts [1,1,1] amounts null'),
    # House 0 AYE 2 or NAY 3, House 1 PASS AND BECOME MODERATOR, House 2 PASS AND GATHER POWER
    "kings_dilemma": ('revealed ["aye","moderate","gather"] counts [1,1,0,1] amounts [2,null,null]',
                      'revealed ["nay","moderate","gather"] counts [0,1,1,1] amounts [3,null,null]'),
    # seat 0 its first card (Ace of Moons) or its third, fourth and fifth, seat 1 none, seat 2 its fifth
    "the_council": ('revealed [["1"],[],["5"]] counts [1,0,0,0,1] amounts null',
                    'revealed [["3","4","5"],[],["5"]] counts [0,0,1,1,2] amounts null'),
    # the table's counted ballot: seat 0 Aye 2 or Nay 3, seat 1 Pass, seat 2 Nay 1
    "yes_your_grace": ('revealed ["Aye","Pass","Nay"] counts [1,0,1,1] amounts [2,null,1]',
                       'revealed ["Nay","Pass","Nay"] counts [0,0,2,1] amounts [3,null,1]'),
}
