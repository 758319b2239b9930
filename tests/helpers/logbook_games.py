"""Finished games for the logbook's tests, and `chancery` run as the terminal runs it: a scenario's
accepted actions as a board would log them (scenario_game), logged into a logbook (log_game); the
book_path fixture (a logbook of the test's own, CHANCERY_LOGBOOK); run and play (cli.main with the
given arguments, and with `play`'s input typed in). Used by tests/host/test_logbook_plays.py and
tests/board/test_players.py (which import book_path into the module, so pytest finds the fixture).
"""

import io
import json
import pathlib
import sys

import paths
import pytest

from chancery import cli
from shared_rules import engine, scenario

ROOT = pathlib.Path(paths.ROOT)
SCENARIOS = ROOT / "tests" / "scenarios"
KD_ABDICATION = "kings-dilemma/abdication-before-death.jsonl"  # 6 entries, Stability 1 -> 2, the King abdicates
KD_DEATH = "kings-dilemma/kings-death-fifth-card.jsonl"
CHANCELLORS_CATASTROPHE = "chancellors/catastrophe-tie-and-target.jsonl"
COUNCIL = "the-council/seed-l41-tie-lowest-revealed-card-wins.jsonl"
YYG_CHAOS = "yes-your-grace/victory-chaos-agent-two-violence.jsonl"


def scenario_game(name):
    """(header, entries) of a scenario's accepted actions, as a board would log them."""
    lines = [line for line in (SCENARIOS / name).read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    doc = json.loads(lines[0])
    doc["actions"] = [json.loads(line) for line in lines[1:]]
    m = engine.new_match(doc["game"], doc.get("settings", {}), doc.get("seed", 0))
    header = dict((k, m[k]) for k in ("format", "game", "settings", "seed", "start"))
    entries = []
    scenario.run(doc, on_entry=lambda i, a, ev, d: ev is not None and entries.append(
        {"action": a, "events": ev, "digest": d}))
    return header, entries


def log_game(book, name, upto=None):
    header, entries = scenario_game(name)
    gid = book.begin_game(header, "board-1", "fw", fresh=True)
    for i, e in enumerate(entries[:upto]):
        book.add_entry(gid, i, e)
    return gid


@pytest.fixture
def book_path(tmp_path, monkeypatch):
    path = tmp_path / "logbook.sqlite3"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(path))
    return path


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def play(monkeypatch, capsys, text, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    return run(capsys, "play", *argv)
