"""Players (issue 17, part 1): a name for each seat, on the board, in the logbook and in words.

The one rule for a name is shared_rules/seat_names.py, on the board and the host alike.
The board keeps a game's names in its journal (a names line, firmware/names.py) and says
them in its welcome; the host offers it the names it knows for the table's menu (a file of
their own on the board's flash). The logbook keeps them in its players table; the mirror,
the narration, `log show`, `log stats --player` and the exports call a named seat by its
name. Seat numbers stay the key of the game log: a named log replays as any other.
"""

import csv
import io
import json
import os
import re
import sqlite3

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import pytest
from clients import controls, linked, welcome
from logbook_games import (  # noqa: F401  (book_path: a fixture)
    CHANCELLORS_CATASTROPHE,
    KD_ABDICATION,
    book_path,
    log_game,
    play,
    run,
    scenario_game,
)
from test_new_game import TABLE, board, cursor, pick
from test_simboard import HEAP, connect, start

from chancery.board.link import Mirror
from chancery.logbook import chart, plays, stats
from chancery.logbook import store as logbook
from chancery.logbook.store import Logbook, LogbookError
from chancery.mirror import app
from chancery.words import commands, narrate, new_game
from chancery.words import names as seat_words
from firmware.journal import Journal
from firmware.journal.files import FileStore
from firmware.table import Table
from shared_rules import canon, engine, games, matches, seat_names, wire
from shared_rules.errors import RuleError

# Each bad input, its code, and words its answer must hold: (names, seats, code, words)
BAD = [
    ([""], 4, "name_empty", "seat 0's name is empty: a name has 1 to 12 characters"),
    (["Ann", "Bob", "Cy", "Dee", "Eve"], 4, "names_too_many", "5 names for 4 seats: at most one name per seat"),
    (["Ann", "Bartholomew Jr"], 4, "name_too_long", "seat 1's name 'Bartholomew Jr' has 14 characters: at most 12"),
    (["Ann", "Bob", "ann"], 4, "name_duplicate", "'ann' is the name of seat 0 and of seat 2"),
    (["Zo\u00eb"], 4, "name_bad", "is not printable ASCII"),
    (["Ann, Bob"], 4, "name_bad", "has a comma"),
    ([" Ann"], 4, "name_bad", "begins or ends with a space"),
    (["seat 3"], 4, "name_bad", "is a seat's own name"),
    (["2"], 4, "name_bad", "is a seat's own name"),
    ([7], 4, "bad_names", "names are a list of texts"),
    ("Ann", 4, "bad_names", "names are a list of texts"),
]


def refusal(names, seats):
    with pytest.raises(RuleError) as e:
        seat_names.check(names, seats)
    return e.value.code, games.message(e.value)


@pytest.mark.parametrize("names,seats,code,words", BAD)
def test_a_bad_name_is_refused_in_words(names, seats, code, words):
    got, sentence = refusal(names, seats)
    assert got == code and words in sentence


def test_a_good_list_names_each_seat_and_leaves_the_rest_without_one():
    assert seat_names.check(["Ann", None, "Mary Ann"], 4) == ["Ann", None, "Mary Ann", None]
    assert seat_names.check([], 2) == [None, None]
    assert seat_names.check_known(["Ann", "Bob"]) == ["Ann", "Bob"]
    with pytest.raises(RuleError) as e:
        seat_names.check_known(["N%d" % k for k in range(seat_names.MAX_KNOWN + 1)])
    assert "13 names: a board keeps at most 12 for its menu" in games.message(e.value)
    with pytest.raises(RuleError) as e:
        seat_names.check_known(["Ann", "ANN"])
    assert games.message(e.value) == "'ANN' is in the list twice (case ignored)"


# --- the board ------------------------------------------------------------------

def journal_bytes(folder):
    with open(os.path.join(str(folder), "game.jsonl"), "rb") as f:
        return f.read()


def reboot(folder):
    return Table(Journal(str(folder)), lambda n: b"\x07" * n).boot()



def test_the_links_answers_hello_get_and_a_bad_press(tmp_path):
    """The hello (welcome and state), a GET in and out of range and a press of no key."""
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    assert [k for k, _ in sent] == [wire.WELCOME, wire.STATE] and sent[0][1]["len"] == 0
    assert sent[1][1]["len"] == 0 and sent[1][1]["digest"] == sent[0][1]["digest"]
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "roll"}})
    assert sent[-1] == [wire.OK, {"re": 1, "i": 0}]
    del sent[:]
    host.frame(2, wire.GET, {"i": 0, "j": 1})
    assert [k for k, _ in sent] == [wire.ENTRY] and sent[0][1]["i"] == 0 and sent[0][1]["move"]["type"] == "roll"
    host.frame(3, wire.GET, {"i": 0, "j": 5})
    assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == "bad_range"
    host.frame(4, wire.PRESS, {"pad": 9, "key": 0, "hold": "short"})
    assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == "bad_press"


def test_the_host_names_the_boards_seats_in_its_journal_and_its_welcome(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    assert "names" not in sent[0][1]  # a game never named says none
    t.act({"type": "roll"})
    del sent[:]
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "names", "names": ["Ann", None, "Cy"]}})
    (kind, body), (ok, answer) = sent
    assert (kind, ok, answer) == (wire.WELCOME, wire.OK, {"re": 1, "i": None})  # the names before the ok
    assert body["names"] == ["Ann", None, "Cy", None] and body["len"] == 1
    assert journal_bytes(tmp_path).splitlines()[-1].startswith(b'n {"names":["Ann",null,"Cy",null]} ')
    same = journal_bytes(tmp_path)
    host.frame(2, wire.ACT, {"seat": None, "move": {"type": "names", "names": ["Ann", None, "Cy"]}})
    assert journal_bytes(tmp_path) == same  # the same names again: nothing written
    # the names line is no entry: the log goes on from #2, and a reboot has both
    t.act({"type": "assign", "army": 0, "diplomatic": 1, "navy": 2})
    assert [e["action"]["type"] for e in t.journal.entries(0)] == ["roll", "assign"]
    again = reboot(tmp_path)
    assert again.count == 2 and canon.digest(again.state) == canon.digest(t.state)
    assert welcome(again)["names"] == ["Ann", None, "Cy", None]
    # an undo leaves the names as they are
    again.undo()
    assert welcome(reboot(tmp_path))["names"] == ["Ann", None, "Cy", None]


@pytest.mark.parametrize("names,seats,code,words", BAD)
def test_bad_names_from_the_host_are_refused_and_change_nothing(tmp_path, names, seats, code, words):
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "names", "names": ["Ann"]}})
    before, was = journal_bytes(tmp_path), welcome(t)
    host.frame(2, wire.ACT, {"seat": None, "move": {"type": "names", "names": names}})
    assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == code
    e = RuleError(code, sent[-1][1]["detail"])
    assert words in games.message(e)  # the host says it in words from the board's facts
    assert journal_bytes(tmp_path) == before and welcome(t) == was
    # a new game with such names is refused before anything moves
    host.frame(3, wire.ACT, {"seat": None, "move": {"type": "new_game", "game": "chancellors",
                                                 "settings": {"players": 4}, "names": names}})
    assert sent[-1][1]["code"] == code and journal_bytes(tmp_path) == before and welcome(t) == was
    assert not os.path.exists(tmp_path / "done1.jsonl")


def test_a_new_game_comes_with_its_names_in_one_act(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "names", "names": ["Ann"]}})
    host.frame(2, wire.ACT, {"seat": None, "move": {"type": "new_game", "game": "kings_dilemma",
                                                 "settings": {"players": 3}, "names": ["Bob", "Cy", "Dee"]}})
    welcome = [b for k, b in sent if k == wire.WELCOME][-1]
    assert welcome["game"] == "kings_dilemma" and welcome["names"] == ["Bob", "Cy", "Dee"]
    lines = journal_bytes(tmp_path).splitlines()
    assert len(lines) == 2 and lines[0].startswith(b"h ") and lines[1].startswith(b'n {"names":["Bob","Cy","Dee"]}')
    with open(tmp_path / "done1.jsonl", "rb") as f:  # the game it ended keeps its own names
        assert b'"names":["Ann",null,null,null]' in f.read()
    host.frame(3, wire.ACT, {"seat": None, "move": {"type": "new_game", "game": "chancellors", "settings": {}}})
    assert "names" not in [b for k, b in sent if k == wire.WELCOME][-1]  # a new game without names has none


def names_on_the_menu(t):
    """Press down on the table's pad through its whole first screen list; the items seen."""
    seen, screen = [], controls(t).key(TABLE, "down")[0]
    for _ in range(30):
        seen.append(cursor(screen))
        screen = controls(t).key(TABLE, "down")[0]
    return seen


def test_the_tables_menu_picks_names_among_those_the_host_offered(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    assert "names" not in names_on_the_menu(t)  # nothing offered yet: nothing to pick from
    host.frame(0, wire.HELLO, {"proto": 1})
    host.frame(1, wire.ACT, {"seat": None, "move": {"type": "known_names", "names": ["Zed", "Yan", "Xu"]}})
    assert sent[-1] == [wire.OK, {"re": 1, "i": None}]
    stamp = os.stat(tmp_path / "known.json").st_mtime_ns
    host.frame(2, wire.ACT, {"seat": None, "move": {"type": "known_names", "names": ["Zed", "Yan", "Xu"]}})
    assert os.stat(tmp_path / "known.json").st_mtime_ns == stamp  # the same list: not written again
    for bad in (["Zed", "zed"], ["N%d" % k for k in range(13)], ["x" * 13]):
        host.frame(3, wire.ACT, {"seat": None, "move": {"type": "known_names", "names": bad}})
        assert sent[-1][0] == wire.ERROR and os.stat(tmp_path / "known.json").st_mtime_ns == stamp
    t, host = linked(reboot(tmp_path), sent)  # the board remembers what it was offered
    host.listening = True
    assert pick(t, "names") == ["table names?", "push: send", "back: change"]
    controls(t).key(TABLE, "select")  # the names action, now with a name to pick for each seat
    screen = controls(t).key(TABLE, "select")[0]
    assert screen[1] == "names seat 0" and [line[2:] for line in screen[2:-2]] == ["Zed", "Yan", "Xu", "-"]
    for name in ("Yan", "Xu", "Yan", "-"):  # Yan twice: refused when sent
        pick(t, name)
    before = journal_bytes(tmp_path)
    assert controls(t).key(TABLE, "select")[0] == ["Not allowed:", "Yan is the name", "of two seats", "back: change",
                                         "push: send again"]  # in words, and how to correct it
    assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == "name_duplicate"  # the host hears why
    assert journal_bytes(tmp_path) == before and "names" not in welcome(t)
    controls(t).key(TABLE, "back")  # back corrects the picks, the last first
    assert controls(t).key(TABLE, "back")[0][1] == "names seat 2"
    for name in ("-", "Zed"):
        pick(t, name)
    assert controls(t).key(TABLE, "select")[0] == ["names set", "0 Yan", "1 Xu", "2 -", "3 Zed"]
    assert sent[-1][0] == wire.WELCOME and sent[-1][1]["names"] == ["Yan", "Xu", None, "Zed"]
    assert welcome(reboot(tmp_path))["names"] == ["Yan", "Xu", None, "Zed"]
    # back, before anything is picked, leaves naming for the table's own menu
    pick(t, "names")
    controls(t).key(TABLE, "select")
    assert controls(t).key(TABLE, "back")[0][0] == "table action?" and controls(t).setup is None


def test_names_on_the_raw_flash_log_of_a_pico(tmp_path):
    """On a Pico the journal's lines are programmed into erased flash (firmware/journal/flash.py):
    the names line goes there as an entry's does, and a boot reads it back."""
    def pico():
        return Table(Journal(str(tmp_path), 16, FileStore(str(tmp_path))),
                     lambda n: b"\x03" * n, "chancellors", {"players": 3}, "p").boot()

    t = pico()
    t.act({"type": "roll"})
    t.name({"type": "names", "names": ["Ann", "Bob"]})
    t.act({"type": "assign", "army": 0, "diplomatic": 1, "navy": 2})
    again = pico()
    assert again.count == 2 and welcome(again)["names"] == ["Ann", "Bob", None]
    assert not os.path.exists(tmp_path / "game.jsonl")


# --- the logbook ----------------------------------------------------------------

def test_the_players_table_keeps_who_sat_where(tmp_path):
    with Logbook(tmp_path / "book.sqlite3") as book:
        kd = log_game(book, KD_ABDICATION)
        ch = log_game(book, CHANCELLORS_CATASTROPHE)
        assert book.names(kd) == [None, None, None] and book.known_names() == []
        assert book.set_names(kd, ["Ann", "Bob", "Cy"]) is True
        assert book.set_names(kd, ["ann", "Bob", "Cy"]) is False  # the same players: nothing changes
        assert book.set_names(ch, ["Cy", None, "Dee"]) is True
        assert book.names(ch) == ["Cy", None, "Dee"] and book.names(kd) == ["Ann", "Bob", "Cy"]
        assert book.known_names() == ["Cy", "Dee", "Ann", "Bob"]  # the most recently seated first
        assert book.known_names(2) == ["Cy", "Dee"]
        assert book.all_names() == {kd: ["Ann", "Bob", "Cy"], ch: ["Cy", None, "Dee"]}
        rows = book._db.execute("SELECT p.name, s.game_id, s.seat FROM seat_players s JOIN players p ON "
                                "p.id=s.player_id ORDER BY s.game_id, s.seat").fetchall()
        assert rows == [("Ann", kd, 0), ("Bob", kd, 1), ("Cy", kd, 2), ("Cy", ch, 0), ("Dee", ch, 2)]
        assert book.set_names(ch, ["Cy", "Eve"]) is True  # named again: the game's names are these now
        assert book.names(ch) == ["Cy", "Eve", None] and book.known_names() == ["Cy", "Eve", "Ann", "Bob", "Dee"]
        for names, _, code, words in BAD:
            if code == "names_too_many":
                names = ["A", "B", "C", "D"]  # four for KD's three seats
                words = "4 names for 3 seats"
            with pytest.raises(LogbookError) as e:
                book.set_names(kd, names)
            assert e.value.code == "bad_names" and words in str(e.value) and "no name was changed" in str(e.value)
            assert book.names(kd) == ["Ann", "Bob", "Cy"]
        with pytest.raises(LogbookError) as e:
            book.set_names(99, ["Ann"])
        assert e.value.code == "no_game"


def test_a_logbook_of_schema_2_gains_the_players_table_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(str(path))
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (2)")
    for _, statements in logbook.MIGRATIONS:
        if _ <= 2:
            for sql in statements:
                db.execute(sql)
    db.commit()
    db.close()
    with Logbook(path) as book:
        gid = log_game(book, KD_ABDICATION)
    db = sqlite3.connect(str(path))
    db.execute("DELETE FROM seat_players")
    db.execute("DROP TABLE seat_players")
    db.execute("DROP TABLE players")
    db.execute("UPDATE schema_version SET version=2")  # a game logged by an older chancery
    db.commit()
    db.close()
    with Logbook(path) as book:
        assert book._db.execute("SELECT version FROM schema_version").fetchone()[0] == logbook.SCHEMA_VERSION
        assert book.count(gid) == 6 and book.names(gid) == [None, None, None]
        book.set_names(gid, ["Ann"])
    for statement in logbook.PLAYERS_STEP:  # the step is safe to run twice, whatever number it gets
        sqlite3.connect(str(path)).execute(statement)
    with Logbook(path) as book:
        assert book.names(gid) == ["Ann", None, None]


# --- words ----------------------------------------------------------------------

def test_the_narration_the_status_and_the_prompt_call_a_named_seat_by_its_name():
    m = engine.new_match("chancellors", {"players": 3}, 4)
    engine.apply(m, {"type": "roll", "values": [3, 4, 1, 1, 5, 6, 2, 2], "source": "manual"})
    engine.apply(m, {"type": "assign", "diplomatic": 1, "army": 0, "navy": None})
    names = ["Ann", "Bob", None]
    status = seat_words.called(matches.prompt(m), names)
    assert "Bob's chance with the Diplomatic corps" in status
    assert "Scores Ann: 0, Bob: 0, seat 2: 0" in app.panels(m, None, None, [], names=names)[1]
    assert app.panels(m, None, None, [], names=names)[1].startswith(
        "Players: seat 0 Ann, seat 1 Bob, seat 2 (no name)")
    told = [line for _, _, lines in narrate.history(m, 0, names) for line in lines]
    plain = [line for _, _, lines in narrate.history(m) for line in lines]
    assert told != plain and [seat_words.called(line, names) for line in plain] == told
    assert any("Ann" in line for line in told) and not any("seat 0" in line for line in told)
    # The King's Dilemma says "House 2": named too; an unnamed House stays as it was
    assert seat_words.called("House 1, House 2 take back the Coin", [None, "Bob", None]) == \
        "Bob, House 2 take back the Coin"
    layout = app.load_layout("chancellors")
    from shared_rules import render

    frame = render.render(matches.view(m), layout, bytearray(render.frame_size(layout)))
    strip = app.strip_text(frame, layout, matches.view(m), names).plain
    assert "Bob score" in strip and "1 Bob" in strip and "Seat 1 score" not in strip


def test_the_mirrors_end_of_game_chart_names_its_lines():
    header, entries = scenario_game(CHANCELLORS_CATASTROPHE)
    log = dict(header)
    log["entries"] = entries
    m = matches.replay(log)
    lines = app.game_over_chart(m, ["Ann", None, "Cy"]).splitlines()
    assert [line.split(" ")[0] for line in lines[2:]] == ["Ann", "seat", "Cy"] and lines[3].startswith("seat 1 ")


def test_typed_names_are_read_and_their_mistakes_said():
    assert seat_words.parse("Ann, Mary Ann, -, Dee", 4) == ["Ann", "Mary Ann", None, "Dee"]
    assert seat_words.parse("Ann Bob", 3) == ["Ann", "Bob", None]
    for text, words in (("", "seat 0's name is empty"), ("Ann,,Cy", "seat 1's name is empty"),
                        ("A B C D E", "5 names for 4 seats"), ("Ann, Abcdefghijklm", "has 13 characters"),
                        ("Ann Ann", "the name of seat 0 and of seat 1")):
        with pytest.raises(commands.ParseError) as e:
            seat_words.parse(text, 4)
        assert str(e.value).startswith("names: ") and words in str(e.value)
    act, names = new_game.with_names("chancellors 3 Ann Bob Cy".split())
    assert act == {"type": "new_game", "game": "chancellors", "settings": {"players": 3}} and names == \
        ["Ann", "Bob", "Cy"]
    assert new_game.with_names("kings_dilemma voting=sealed names=Mary Ann, Bob".split())[1] == \
        ["Mary Ann", "Bob", None, None]
    assert new_game.with_names(["the_council"]) == ({"type": "new_game", "game": "the_council", "settings": {}}, None)
    for words, said in (("chancellors players=2 Ann Bob Cy", "3 names for 2 seats"),
                        ("chancellors Ann ann", "the name of seat 0 and of seat 1"),
                        ("chancellors names=", "seat 0's name is empty"),
                        ("chancellors players=9 Ann", "players is out of range"),
                        ("chess Ann", "no game 'chess'")):
        with pytest.raises(commands.ParseError) as e:
            new_game.with_names(words.split())
        assert said in str(e.value)


# --- the terminal game and the logbook's commands -----------------------------------

ROLL = "roll 3 4 1 1 5 6 2 2\nassign diplomatic=1 army=0 navy=-\n"


def test_chancery_play_names_the_seats_and_refuses_bad_names_with_nothing_saved(monkeypatch, capsys, tmp_path,
                                                                                 book_path):  # noqa: F811
    for given, words in (("", "seat 0's name is empty"), ("A,B,C,D", "4 names for 3 seats"),
                         ("Ann,Bartholomew Jr", "has 14 characters: at most 12"), ("Ann,ANN", "of seat 0 and of seat 1")):
        code, out, err = play(monkeypatch, capsys, ROLL, "--players", "3", "--names", given,
                              "--log", str(tmp_path / "bad.json"))
        assert code == 2 and "--names: names: " in err and words in err
        assert not (tmp_path / "bad.json").exists() and not book_path.exists()
    log = tmp_path / "g.json"
    code, out, err = play(monkeypatch, capsys, ROLL, "--players", "3", "--seed", "4", "--names", "Ann, Bob",
                          "--log", str(log))
    assert code == 0, err
    assert "Players: seat 0 Ann, seat 1 Bob, seat 2 (no name)." in out
    assert "Bob (seat 1)> " in out and "Bob's chance with the Diplomatic corps" in out
    saved = json.loads(log.read_text())
    assert saved["names"] == ["Ann", "Bob", None]
    with Logbook(book_path) as book:
        assert book.names(1) == ["Ann", "Bob", None]
    # the saved game replays, and resumes with its names
    code, out, _ = run(capsys, "replay", str(log))
    assert code == 0 and "2 entries replayed, every event and digest verified" in out
    code, out, err = play(monkeypatch, capsys, "quit\n", "--resume", str(log))
    assert code == 0 and "Players: seat 0 Ann, seat 1 Bob, seat 2 (no name)." in out
    code, out, err = play(monkeypatch, capsys, "quit\n", "--resume", str(log), "--names", "Ann,Bob,Cy,Dee")
    assert code == 2 and "4 names for 3 seats" in err and json.loads(log.read_text())["names"] == ["Ann", "Bob", None]


def test_the_logbooks_commands_name_the_players(capsys, tmp_path, book_path, monkeypatch):  # noqa: F811
    with Logbook(book_path) as book:
        first = log_game(book, KD_ABDICATION)  # won by seats 1 and 2
        second = log_game(book, KD_ABDICATION)
        third = log_game(book, CHANCELLORS_CATASTROPHE)  # won by seats 1 and 2
        book.set_names(first, ["Ann", "Bob", "Cy"])
        book.set_names(second, ["Bob", "Ann", None])  # Ann and Bob swap seats; seat 2 has no name
        book.set_names(third, ["Ann"])
    code, out, _ = run(capsys, "log", "list")
    assert code == 0 and "won by Bob, Cy" in out and "won by Ann, seat 2" in out
    code, out, _ = run(capsys, "log", "show", str(first))
    assert "Players: seat 0 Ann, seat 1 Bob, seat 2 Cy" in out and "Winners: Bob, Cy (2 AP)" in out
    assert "House 1" not in out.split("Check:")[1]
    code, out, _ = run(capsys, "log", "show", str(first), "--json")
    assert json.loads(out)["log"]["names"] == ["Ann", "Bob", "Cy"]
    with Logbook(book_path) as book:  # the chart's lines (`log chart`) are the players'
        log = book.log(second)
        assert list(chart.series(log, log["entries"])["scores"]) == ["Bob", "Ann", "seat 2"]

    # stats: a player is a person, whatever seat; an unnamed seat stays a seat
    with Logbook(book_path) as book:
        s = stats.summary(plays.plays(book))
    assert s["kings_dilemma"]["players"]["Ann"] == {"plays": 2, "wins": 1, "scores": [1, 2]}
    assert s["kings_dilemma"]["players"]["Bob"] == {"plays": 2, "wins": 1, "scores": [2, 1]}
    assert s["kings_dilemma"]["players"]["seat 2"] == {"plays": 1, "wins": 1, "scores": [2]}
    assert s[None]["players"]["Ann"] == {"plays": 3, "wins": 1, "scores": []}  # the catastrophe: seats 1 and 2 won
    code, out, err = run(capsys, "log", "stats", "--player", "ann")
    assert code == 0, err
    assert re.search(r"Ann +2 +1 +50% +1\.5 +2", out) and "Bob " not in out
    code, out, err = run(capsys, "log", "stats", "--player", "Zed")
    assert code == 2 and "no player 'Zed' in the logbook: the players are Ann, Bob, Cy, seat 1, seat 2" in err

    # exports: the plays CSV's player column, the JSONL header (which still replays and imports)
    code, out, _ = run(capsys, "log", "export", "all", "--format", "plays")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["player"], r["seat"], r["winner"]) for r in rows if r["logbook_id"] == str(second)] == [
        ("Bob", "0", "0"), ("Ann", "1", "1"), ("seat 2", "2", "1")]
    exported = tmp_path / "first.jsonl"
    assert run(capsys, "log", "export", str(first), "--format", "jsonl", "-o", str(exported))[0] == 0
    assert json.loads(exported.read_text().splitlines()[0])["names"] == ["Ann", "Bob", "Cy"]
    code, out, _ = run(capsys, "replay", str(exported))
    assert code == 0 and "6 entries replayed, every event and digest verified" in out
    code, out, _ = run(capsys, "log", "export", str(first), "--format", "csv")
    assert "Bob, Cy (2 AP)" in out
    other = tmp_path / "other.sqlite3"
    monkeypatch.setenv("CHANCERY_LOGBOOK", str(other))
    code, out, _ = run(capsys, "log", "import", str(exported))
    assert code == 0 and "players: Ann, Bob, Cy" in out
    with Logbook(other) as book:
        assert book.names(1) == ["Ann", "Bob", "Cy"]
    bad = tmp_path / "bad.jsonl"
    lines = exported.read_text().splitlines()
    head = json.loads(lines[0])
    head["names"] = ["Ann", "ann", None]
    bad.write_text("\n".join([canon.encode(head)] + lines[1:]) + "\n")
    code, _, err = run(capsys, "log", "import", str(bad))
    assert code == 2 and "header: line 1: its names: 'ann' is the name of seat 0 and of seat 1" in err
    with Logbook(other) as book:
        assert len(book.games()) == 1


# --- the board, the link and the logbook, end to end ------------------------------------


def test_names_reach_the_board_and_the_logbook_and_survive_a_killed_board(firmware_build, micropython, tmp_path,
                                                                          capsys, monkeypatch):
    """The real firmware under MicroPython within its heap guard: the host offers its known names,
    names the seats (refused in words when bad, nothing changed), a killed board boots with them."""
    book = Logbook(str(tmp_path / "book.sqlite3"))
    book.set_names(log_game(book, KD_ABDICATION), ["Zed", "Yan", "Xu"])  # names the logbook knows
    flash = tmp_path / "flash"
    sim = start(firmware_build, flash, micropython, players=3, heap=HEAP)
    try:
        link = connect(sim, book)  # the hello offers the known names
        assert link.offered == ["Zed", "Yan", "Xu"]
        with open(flash / "known.json") as f:
            assert '"names":["Zed","Yan","Xu"]' in f.read()
        link.act({"type": "roll"})
        kind, body = link.act({"type": "names", "names": ["Ann", "Mary Ann"]})
        assert kind == wire.OK, (body, sim.stderr_text()[-2000:])
        assert link.mirror.names == ["Ann", "Mary Ann", None] and book.names(link.game_id) == ["Ann", "Mary Ann", None]
        kind, body = link.act({"type": "names", "names": ["Ann", "ANN"]})
        assert kind == wire.ERROR and body["code"] == "name_duplicate"
        assert "'ANN' is the name of seat 0 and of seat 1" in app._error_text(link, body)
        assert book.names(link.game_id) == ["Ann", "Mary Ann", None]
        link.act({"type": "assign", "diplomatic": 1, "army": 0, "navy": None})
        sim.kill()  # a power cut
        link.close()
    finally:
        sim.stop()
    with start(firmware_build, flash, micropython, players=3, heap=HEAP) as again:
        other = Logbook(str(tmp_path / "other.sqlite3"))
        link = connect(again, other)
        assert link.mirror.welcome["len"] == 2 and link.mirror.names == ["Ann", "Mary Ann", None]
        assert other.names(link.game_id) == ["Ann", "Mary Ann", None]  # a host that was away learns them
        # `chancery sim --names` on a board that plays the game already: its seats named, nothing else
        shown = []
        monkeypatch.setattr(app.MirrorApp, "run", lambda self: shown.append(self.link.mirror.names))
        assert app.attach(link, None, names=["Bob", "Cy", "Dee", "Eve"]) == 2  # too many: nothing sent
        assert "error: names: 4 names for 3 seats" in capsys.readouterr().err and shown == []
        assert other.names(1) == ["Ann", "Mary Ann", None] and len(other.games()) == 1
        link = connect(again, other)  # `chancery sim --names Eve`: the board's own game, its seats named
        assert app.attach(link, None, names=["Eve"]) == 0
        assert shown == [["Eve", None, None]] and other.names(1) == ["Eve", None, None] and len(other.games()) == 1
        link = connect(again, other)  # `chancery sim --set target=60 --names Bob,Cy`: a new game, its seats named
        assert app.attach(link, new_game.parse(["chancellors", "players=3", "target=60"]), names=["Bob", "Cy"]) == 0
        assert shown[-1] == ["Bob", "Cy", None] and other.names(2) == ["Bob", "Cy", None]
        assert other.names(1) == ["Eve", None, None]
        assert other.known_names() == ["Bob", "Cy", "Eve", "Ann", "Mary Ann"]


def test_chancery_sim_refuses_bad_names_before_starting_anything(capsys):
    for given, words in (("", "seat 0's name is empty"), ("Ann,ann", "of seat 0 and of seat 1"),
                         ("Ann,Abcdefghijklm", "has 13 characters")):
        code, out, err = run(capsys, "sim", "--names", given)
        assert code == 2 and "error: names: " in err and words in err


def test_the_mirror_names_the_seats_and_starts_a_named_game(firmware_build, micropython, tmp_path):
    import asyncio

    book = Logbook(str(tmp_path / "book.sqlite3"))
    with start(firmware_build, tmp_path / "flash", micropython, players=3, heap=heaps.BOARD) as sim:
        link = connect(sim, book)

        async def session():
            mirror = app.MirrorApp(link, connect=False)
            async with mirror.run_test(size=(140, 45)) as pilot:
                async def command(text):
                    await pilot.press("colon")
                    await pilot.press(*text)
                    await pilot.press("enter")
                    await pilot.pause(0.3)

                await command("names Ann, Bo b")
                told = "\n".join(str(line) for line in mirror.query_one("#events").lines)
                assert "has a character" not in told  # a space inside a name is a name's own
                await command("names Ann, ann")
                told = "\n".join(str(line) for line in mirror.query_one("#events").lines)
                assert "names: 'ann' is the name of seat 0 and of seat 1" in told
                assert link.mirror.names == ["Ann", "Bo b", None]
                await command("roll")
                assert "Players: seat 0 Ann, seat 1 Bo b" in str(mirror.query_one("#state").render())
                await command("new kings_dilemma players=3 Cy Dee Eve")
                assert link.mirror.match["game"] == "kings_dilemma" and link.mirror.names == ["Cy", "Dee", "Eve"]
                await command("names")
                told = "\n".join(str(line) for line in mirror.query_one("#events").lines)
                assert "Players: seat 0 Cy, seat 1 Dee, seat 2 Eve" in told

        asyncio.run(session())
        assert book.names(1) == ["Ann", "Bo b", None] and book.names(2) == ["Cy", "Dee", "Eve"]
        assert link.offered == ["Cy", "Dee", "Eve", "Ann", "Bo b"]  # the new names, offered to its menu


def test_a_mirror_without_names_reads_as_before():
    m = engine.new_match("chancellors", {"players": 2}, 1)
    assert Mirror({"game": "chancellors", "settings": {"players": 2}, "seed": 1, "start": m["start"]}).names is None
    assert seat_words.called("seat 0 and seat 1", None) == "seat 0 and seat 1"
    assert seat_words.called("seat 0 and seat 1", [None, None]) == "seat 0 and seat 1"
