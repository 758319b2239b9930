"""The logbook's plays (issue 17, parts 3-6): terminal games logged as they are played,
`chancery log stats`, `chancery log chart` and the plays CSV (host/chancery/logbook/plays.py,
stats.py, chart.py), and the mirror's end-of-game sparkline.

The finished games come from the repository's scenarios (tests/scenarios/), played through
the engine entry by entry, so what is logged is what a board would send.
"""

import csv
import io
import json
import re

import pytest
from logbook_games import (  # noqa: F401  (book_path: a fixture)
    CHANCELLORS_CATASTROPHE,
    COUNCIL,
    KD_ABDICATION,
    KD_DEATH,
    YYG_CHAOS,
    book_path,
    log_game,
    play,
    run,
    scenario_game,
)

from chancery.logbook import chart, plays, stats
from chancery.logbook.store import Logbook, LogbookError
from chancery.mirror import app as mirror

# --- part 3: the terminal game goes into the logbook --------------------------

def test_a_game_played_at_the_terminal_is_in_the_logbook_entry_by_entry_and_replays(
        monkeypatch, capsys, tmp_path, book_path):  # noqa: F811
    log = tmp_path / "g.json"
    script = ("roll 3 4 1 1 5 6 2 2\nreveal 9 Merchant, Crown of Knots, 7 Cave\npass\nundo\n"
              "part 1 Ace of Knots aside 0\n")
    code, out, err = play(monkeypatch, capsys, script, "--players", "3", "--seed", "4", "--log", str(log))
    assert code == 0, err
    assert "goes into the logbook" in out and "game 1 in the logbook" in out
    with Logbook(book_path) as book:
        (g,) = book.games()
        assert g["board_id"] == "terminal" and g["firmware"].startswith("chancery ")
        saved = json.loads(log.read_text())
        assert list(book.entries(g["id"])) == saved["entries"]  # the file and the logbook agree
        assert [e["action"]["type"] for _, e, _, _ in book.undone(g["id"])] == ["pass"]  # the undo, kept
    code, out, err = run(capsys, "log", "show", "1")
    assert code == 0 and "all 3 entries replay" in out and "taken back at" in out
    exported = tmp_path / "export.jsonl"
    assert run(capsys, "log", "export", "1", "--format", "jsonl", "-o", str(exported))[0] == 0
    code, out, err = run(capsys, "replay", str(exported))
    assert code == 0 and "3 entries replayed, every event and digest verified" in out

    # resumed: the same logbook game goes on, an undo there moves the entry to the taken-back ones
    code, out, err = play(monkeypatch, capsys, "pass\npass\nundo\nquit\n", "--resume", str(log))
    assert code == 0, err
    with Logbook(book_path) as book:
        assert [g["id"] for g in book.games()] == [1]
        assert list(book.entries(1)) == json.loads(log.read_text())["entries"]
        assert book.count(1) == 4
        assert [e["action"]["type"] for _, e, _, _ in book.undone(1)] == ["pass", "pass"]
    # the file imported again adds nothing: the logbook has it from the terminal
    code, out, _ = run(capsys, "log", "import", str(log))
    assert code == 0 and "game 1 in the logbook, 4 entries (0 new)" in out

    # a new game with the same seed is a game of its own; --no-logbook keeps one out
    play(monkeypatch, capsys, "roll 3 4 1 1 5 6 2 2\n", "--players", "3", "--seed", "4",
         "--log", str(tmp_path / "h.json"))
    play(monkeypatch, capsys, "roll 3 4 1 1 5 6 2 2\n", "--players", "3", "--seed", "4", "--no-logbook",
         "--log", str(tmp_path / "i.json"))
    with Logbook(book_path) as book:
        assert [(g["id"], g["entries"]) for g in book.games()] == [(1, 4), (2, 1)]


def test_a_logbook_that_fails_never_stops_the_terminal_game(monkeypatch, capsys, tmp_path, book_path):  # noqa: F811
    """A write the logbook refuses (locked, disk full) is said once; the next action catches it up."""
    real = Logbook.add_entry
    calls = []

    def fail_the_second(self, game_id, idx, entry):
        calls.append(idx)
        if len(calls) == 2:
            raise LogbookError("busy", "the logbook is locked by another program")
        return real(self, game_id, idx, entry)

    monkeypatch.setattr(Logbook, "add_entry", fail_the_second)
    log = tmp_path / "g.json"
    script = "roll 3 4 1 1 5 6 2 2\nreveal 9 Merchant, Crown of Knots, 7 Cave\npass\n"
    code, out, err = play(monkeypatch, capsys, script, "--players", "3", "--seed", "4", "--log", str(log))
    assert code == 0, err
    assert out.count("WARNING: the logbook did not take this action: the logbook is locked") == 1
    assert "The logbook has caught up: game 1, 3 entries." in out
    with Logbook(book_path) as book:
        assert list(book.entries(1)) == json.loads(log.read_text())["entries"]
    code, out, _ = run(capsys, "log", "stats")
    assert code == 0 and "chancellors: no finished play yet (1 unfinished)" in out

    # no logbook to be had at all: the game is still played and saved
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(tmp_path))  # a folder, not a database
    code, out, err = play(monkeypatch, capsys, "roll 3 4 1 1 5 6 2 2\n", "--players", "3", "--log",
                          str(tmp_path / "h.json"))
    assert code == 0 and "WARNING: this game is not logged" in out
    assert len(json.loads((tmp_path / "h.json").read_text())["entries"]) == 1


# --- part 4: stats -----------------------------------------------------------

@pytest.fixture
def filled(book_path):  # noqa: F811
    """A logbook of finished plays of every game, and one game still open."""
    with Logbook(book_path) as book:
        for name in (KD_ABDICATION, KD_DEATH, CHANCELLORS_CATASTROPHE, COUNCIL, YYG_CHAOS):
            log_game(book, name)
        log_game(book, KD_DEATH, upto=3)  # still open
    return book_path


def test_each_game_says_its_own_facts_from_its_events():
    def facts_of(name):
        header, entries = scenario_game(name)
        said = plays.hooks(header["game"])[0]([ev for e in entries for ev in e["events"]])
        return dict((fact, said.count(fact)) for fact in said)

    kd = facts_of(KD_ABDICATION)
    assert kd["ended: the King abdicated (Stability at the top end)"] == 1
    assert kd["abdication (Stability at the top end)"] == 1
    assert facts_of(KD_DEATH)["ended: the King is dead"] == 1
    assert "abdication (Stability at the top end)" not in facts_of(KD_DEATH)
    assert facts_of(CHANCELLORS_CATASTROPHE) == {"catastrophe (a 6-6 problem escalated)": 1}
    council = facts_of(COUNCIL)
    assert council["collapse of the empire"] == 1 and council["collapse: Moons fell"] == 1
    yyg = facts_of(YYG_CHAOS)
    assert yyg["Annals: Notable Violence"] == 2 and yyg["ended: the Annals were written"] == 1


def test_stats_count_plays_wins_scores_and_facts_per_game_and_player(filled):
    with Logbook(filled) as book:
        chosen = plays.plays(book)
        kd = [p for p in chosen if p["game"] == "kings_dilemma"]
        assert [p["over"] for p in kd] == [True, True, False]
        assert kd[0]["scores"] == [1, 2, 2] and kd[0]["winners"] == [1, 2]  # the end event's AP totals
        council = [p for p in chosen if p["game"] == "the_council"][0]
        assert council["over"] and council["winners"] == [1]
        assert book.game(council["id"])["ended"] is not None  # its "over" event ends it in the logbook too
        s = stats.summary(chosen)
    assert s["kings_dilemma"]["plays"] == 2 and s["kings_dilemma"]["unfinished"] == 1
    assert s["kings_dilemma"]["players"]["seat 1"] == {"plays": 2, "wins": 2, "scores": [2, 2]}
    assert s["kings_dilemma"]["players"]["seat 0"] == {"plays": 2, "wins": 0, "scores": [1, 1]}
    assert s["kings_dilemma"]["facts"]["abdication (Stability at the top end)"] == [1, 1]
    assert s["yes_your_grace"]["players"]["seat 0"]["scores"] == []  # the game keeps no score
    assert s[None]["players"]["seat 1"]["plays"] == 5  # over all games: seat 1 sat at each of the five plays


def test_log_stats_prints_them_and_filters_by_game_and_player(filled, capsys):
    code, out, err = run(capsys, "log", "stats")
    assert code == 0, err
    assert "a player is a seat's name, or the seat where it has none" in out
    assert "kings_dilemma: 2 plays, 1 more unfinished (not counted)" in out
    assert re.search(r"seat 1 +2 +2 +100% +2\.0 +2", out)
    assert "collapse of the empire: 1 (in 1 of 1 play)" in out
    assert "Annals: Notable Violence: 2 (in 1 of 1 play)" in out
    assert "catastrophe (a 6-6 problem escalated): 1 (in 1 of 1 play)" in out
    assert "all games:" in out

    code, out, _ = run(capsys, "log", "stats", "--game", "kings_dilemma", "--player", "seat 0")
    assert code == 0 and "the_council" not in out and "all games" not in out
    assert re.search(r"seat 0 +2 +0 +0% +1\.0 +1", out) and "seat 1 " not in out
    code, out, err = run(capsys, "log", "stats", "--player", "7")
    assert code == 2 and "no player '7' in the logbook: the players are seat 0, seat 1, seat 2, seat 3" in err
    code, out, err = run(capsys, "log", "stats", "--game", "chess")
    assert code == 2 and "no game of 'chess'; it holds chancellors, kings_dilemma" in err


# --- part 5: charts --------------------------------------------------------

def test_the_chart_series_follow_the_game_entry_by_entry():
    header, entries = scenario_game(KD_ABDICATION)
    data = chart.series(header, entries)
    assert data["tracks"]["Stability"] == [1, 1, 1, 1, 1, 2, 2]  # one value per state: the start, then #1..#6
    assert data["tracks"]["Influence"] == [4, 4, 4, 4, 4, 6, 6]
    assert data["scores"]["seat 0"] == [2, 2, 1, 1, 1, 1, 1] and data["scores"]["seat 0"][-1] == 1
    assert data["rounds"] == [(1, "round 1")]
    header, entries = scenario_game(CHANCELLORS_CATASTROPHE)
    data = chart.series(header, entries)
    assert data["scores"]["seat 0"] == [0, 0, 0, 5, 5, 5] and data["tracks"] == {}


def _svg_points(svg, gid):
    """The vertices of the SVG path inside the group with id `gid`."""
    group = re.search(r'<g id="%s">(.*?)</g>' % re.escape(gid), svg, re.S)
    assert group, "no series %s in the chart" % gid
    d = re.search(r'd="([^"]*)"', group.group(1)).group(1)
    return [tuple(float(v) for v in pair) for pair in re.findall(r"(-?[\d.]+) (-?[\d.]+)", d)]


def test_log_chart_writes_an_svg_holding_each_series_and_a_png(filled, tmp_path, capsys):
    svg_path = tmp_path / "kd.svg"
    code, out, err = run(capsys, "log", "chart", "1", "-o", str(svg_path))
    assert code == 0 and "chart of scores and tracks written to" in err
    svg = svg_path.read_text()
    for name in ("seat-0", "seat-1", "seat-2", "Influence", "Wealth", "Morale", "Welfare", "Knowledge", "Stability"):
        assert 'id="series-%s"' % name in svg
    assert ">Stability<" in svg and ">seat 0<" in svg  # the legend, as text
    stability = _svg_points(svg, "series-Stability")
    influence = _svg_points(svg, "series-Influence")
    # drawn as steps: 7 values make 13 vertices; the rise at #5 is where both lines step up (SVG y grows down)
    assert len(stability) == 13 and len(influence) == 13
    rises = [k for k in range(1, 13) if stability[k][1] < stability[k - 1][1]]
    assert len(rises) == 1 and stability[rises[0]][0] == influence[[k for k in range(1, 13) if influence[k][1] <
                                                                   influence[k - 1][1]][0]][0]
    png = tmp_path / "kd.png"
    assert run(capsys, "log", "chart", "1", "-o", str(png))[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    code, _, err = run(capsys, "log", "chart", "1", "-o", str(tmp_path / "kd.jpg"))
    assert code == 2 and "written as .svg or .png, not '.jpg'" in err and not (tmp_path / "kd.jpg").exists()
    code, _, err = run(capsys, "log", "chart", "99", "-o", str(tmp_path / "x.svg"))
    assert code == 2 and "no game 99" in err


def _svg_texts(svg):
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def _stroke_width(svg, gid):
    group = re.search(r'<g id="%s">(.*?)</g>' % re.escape(gid), svg, re.S)
    return float(re.search(r"stroke-width: ([\d.]+)", group.group(1)).group(1))


def test_a_chart_names_the_game_marks_the_target_and_the_winners_and_shows_equal_lines(filled, tmp_path,
                                                                                      capsys):
    """Issue 45: a chart's title used the game's id (the_council); lines at the same values hid under
    each other; no target line and no winner mark; a flat chart had ticks at +-0.045."""
    path = tmp_path / "chancellors.svg"
    assert run(capsys, "log", "chart", "3", "-o", str(path))[0] == 0
    svg = path.read_text()
    # the catastrophe tied seats 1 and 2, seat 0 reached the target of 5 (the scenario's)
    assert "Game 3: Chancellors, 5 entries, won by seat 1 and seat 2" in _svg_texts(svg)
    assert 'id="target"' in svg and "target 5" in _svg_texts(svg)
    assert 'id="winner-seat-1"' in svg and 'id="winner-seat-2"' in svg and 'id="winner-seat-0"' not in svg
    assert "seat 1 (won)" in _svg_texts(svg) and "seat 0" in _svg_texts(svg)
    # seats 1 and 2 score 0 throughout: each line narrower than the one drawn before it
    assert _stroke_width(svg, "series-seat-0") > _stroke_width(svg, "series-seat-1") > \
        _stroke_width(svg, "series-seat-2")

    path = tmp_path / "council.svg"
    assert run(capsys, "log", "chart", "4", "-o", str(path))[0] == 0
    svg = path.read_text()
    assert [t for t in _svg_texts(svg) if t.startswith("Game 4: The Council, ")] and "the_council" not in svg
    assert 'id="target"' not in svg  # The Council has no target score

    header, entries = scenario_game(COUNCIL)
    data = chart.series(header, entries)
    data["scores"] = {name: [0] * len(values) for name, values in data["scores"].items()}  # flat
    chart.draw(data, "flat", str(tmp_path / "flat.svg"))
    ticks = [t for t in _svg_texts((tmp_path / "flat.svg").read_text()) if t.strip("\u2212-.0123456789") == ""]
    assert ticks and all(t.lstrip("\u2212-").isdigit() for t in ticks), ticks


def test_the_mirror_shows_a_sparkline_once_the_game_is_over():
    header, entries = scenario_game(CHANCELLORS_CATASTROPHE)
    m = matches_of(header, entries)
    assert mirror.game_over_chart(matches_of(header, entries[:-1])) == ""
    text = mirror.game_over_chart(m)
    assert text.splitlines()[1:] == ["Over the game:", "seat 0 \u2581\u2581\u2581\u2588\u2588\u2588 5",
                                     "seat 1 \u2581\u2581\u2581\u2581\u2581\u2581 0",
                                     "seat 2 \u2581\u2581\u2581\u2581\u2581\u2581 0"]
    assert mirror.panels(m, None, None, [])[1].endswith(text)
    assert chart.sparkline([0, 5, 10], low=0, high=10) == "\u2581\u2585\u2588"
    assert len(chart.sparkline(list(range(100)), width=24)) == 24


def matches_of(header, entries):
    from shared_rules import matches

    log = dict(header)
    log["entries"] = entries
    return matches.replay(log)


# --- part 6: the plays CSV -------------------------------------------------------

def test_export_plays_is_one_row_per_player_of_each_finished_play(filled, tmp_path, capsys):
    out_path = tmp_path / "plays.csv"
    code, out, err = run(capsys, "log", "export", "all", "--format", "plays", "-o", str(out_path))
    assert code == 0 and "written to" in err
    rows = list(csv.DictReader(out_path.open(newline="")))
    assert list(rows[0]) == list(plays.PLAYS_COLUMNS)
    assert len(rows) == 3 + 3 + 3 + 3 + 4  # the open game has no rows; the YYG play has 4 seats
    kd = [r for r in rows if r["logbook_id"] == "1"]
    assert [(r["player"], r["seat"], r["score"], r["winner"]) for r in kd] == [
        ("seat 0", "0", "1", "0"), ("seat 1", "1", "2", "1"), ("seat 2", "2", "2", "1")]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d", kd[0]["date"]) and kd[0]["game"] == "kings_dilemma"
    assert kd[0]["duration_min"] == "0"
    assert all(r["score"] == "" for r in rows if r["game"] == "yes_your_grace")

    code, out, _ = run(capsys, "log", "export", "all", "--format", "plays", "--game", "the_council")
    assert code == 0 and [r["game"] for r in csv.DictReader(io.StringIO(out))] == ["the_council"] * 3
    code, out, _ = run(capsys, "log", "export", "3", "--format", "plays")
    assert code == 0 and len(list(csv.DictReader(io.StringIO(out)))) == 3
    code, _, err = run(capsys, "log", "export", "6", "--format", "plays")
    assert code == 2 and "game 6 is not finished" in err
    code, _, err = run(capsys, "log", "export", "all", "--format", "jsonl")
    assert code == 2 and "'all' exports the plays" in err
    code, _, err = run(capsys, "log", "export", "one", "--format", "plays")
    assert code == 2 and "'one' is not a game's number" in err
