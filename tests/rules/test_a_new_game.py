"""A new game is a folder and one line: Nim (tests/game_nim/, registered here only) plays
through the engine, the scenario runner, the terminal game and the mirror's text, with
no other change anywhere (docs/adding-a-game.md)."""

import io
import sys

import game_nim
import pytest
from clients import controls

from chancery import cli
from chancery.mirror import app as mirror
from chancery.words import describe, narrate, show
from shared_rules import engine, games, matches, scenario


@pytest.fixture(autouse=True)
def nim():
    games.register("nim", game_nim)  # the one line
    yield
    games.GAMES.remove("nim")
    del games._MORE["nim"]


def test_the_engine_plays_it_and_renders_its_refusals():
    m = engine.new_match("nim", {"pile": 5}, 0)
    engine.apply(m, {"type": "take", "count": 3})
    with pytest.raises(Exception) as e:
        engine.apply(m, {"type": "take", "count": 3})
    assert e.value.code == "too_many" and games.message(e.value) == "only 2 counters are left (asked 3)"
    engine.apply(m, {"type": "take", "count": 2})
    assert matches.is_over(m) and m["state"]["winners"] == [1]
    assert matches.replay(matches.log_of(m))["state"] == m["state"]
    assert describe.describe_game("nim")["doc"].startswith("Take 1 to 3")


def test_the_scenario_runner_checks_it():
    doc = {"game": "nim", "settings": {"players": 3, "pile": 4}, "seed": 0, "actions": [
        {"type": "take", "count": 2},
        {"action": {"type": "take", "count": 3}, "reject": "too_many"},
        {"action": {"type": "take", "count": 1}, "expect": {"pile": 1, "turn": 2}},
        {"type": "take", "count": 1}],
        "expect": {"step": "over", "winners": [2]}}
    state, failures = scenario.run(doc)
    assert failures == [] and state["pile"] == 0


def test_the_terminal_game_plays_it(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("take 2\ntake 9\ntake 1\n"))
    code = cli.main(["play", "nim", "--set", "pile=3", "--log", str(tmp_path / "nim.json")])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err, err
    assert "Nim for 2 seats (seat 0 to seat 1)." in out
    assert "seat 0> " in out and "Pile 3 | turn: seat 0" in out
    assert "Seat 0 takes 2; 1 left." in out and "count is out of range" in out
    assert "Seat 1 took the last counter and wins." in out


def test_the_mirror_shows_and_narrates_it():
    m = engine.new_match("nim", {"players": 3, "pile": 6}, 0)
    before = m["state"]
    entry = engine.apply(m, {"type": "take", "count": 3})
    strip, table, board = mirror.panels(m, None, None, ["nim"])
    assert table == "Pile 3 | turn: seat 1\nseat 1 takes 1 to 3 counters from 3 (take)"
    assert narrate.lines("nim", before, entry["events"]) == ["Seat 0 takes 3; 3 left."]
    assert [s for _, _, s in narrate.history(m)] == [["Seat 0 takes 3; 3 left."]]
    assert show.full(matches.view(m, None), "now").startswith("Nim: 3 seats")


def test_the_logbook_keeps_its_plays_without_any_hook_of_its_own(monkeypatch, capsys, tmp_path):
    """Nim declares the logbook's hooks None (facts, progress): a game played at the terminal is
    logged, ended by its "over" event, and its plays and wins still count; it draws no chart."""
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(tmp_path / "book.sqlite3"))
    monkeypatch.setattr(sys, "stdin", io.StringIO("take 2\ntake 1\n"))
    assert cli.main(["play", "nim", "--set", "pile=3", "--log", str(tmp_path / "nim.json")]) == 0
    capsys.readouterr()
    assert cli.main(["log", "list"]) == 0
    assert "over, won by seat 1" in capsys.readouterr().out
    assert cli.main(["log", "stats"]) == 0
    out = capsys.readouterr().out
    assert "nim: 1 play" in out and "seat 1      1     1      100%              -           -" in out
    assert cli.main(["log", "chart", "1", "-o", str(tmp_path / "nim.svg")]) == 2
    assert "nim draws no chart: its show module has no progress(state) hook" in capsys.readouterr().err
    assert not (tmp_path / "nim.svg").exists()


def test_the_boards_table_plays_it_on_the_seats_pads_and_resumes_it(tmp_path):
    """The board's side: the firmware's Table (its menus on each seat's pad, its journal) plays
    Nim to its end by key presses alone, and a board switched off and on resumes it."""
    from menu_player import MenuPlayer

    from firmware.journal import Journal
    from firmware.table import Table
    from shared_rules import canon

    def table():
        return Table(Journal(str(tmp_path)), lambda n: b"\x07" * n, "nim",
                     {"players": 2, "pile": 5}, "t").boot()

    class Pad(MenuPlayer):
        def __init__(self, t, seat):
            self.t, self.seat = t, seat
            MenuPlayer.__init__(self, None)
            self.key("down")  # the first press opens the seat's menu

        def press(self, k):
            return controls(self.t).key(self.seat, k)

    t = table()
    schema = game_nim.SCHEMAS[0]
    for count in (2, 1):  # seat 0 takes 2, seat 1 takes 1
        Pad(t, t.state["turn"]).enter(schema, {"type": "take", "count": count})
    assert (t.count, t.state["pile"], t.state["turn"]) == (2, 2, 0)
    digest = canon.digest(t.state)
    t = table()  # off and on: the journal resumes the game
    assert (t.game, t.count, canon.digest(t.state)) == ("nim", 2, digest)
    Pad(t, 0).enter(schema, {"type": "take", "count": 2})
    assert t.state["step"] == "over" and t.state["winners"] == [0]
