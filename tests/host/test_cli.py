"""The `chancery` command line: replay, rules and the terminal game (host/chancery/cli.py, host/chancery/play/)."""

import io
import json
import os
import pathlib
import subprocess
import sys

import paths
import pytest

from chancery import cli
from chancery.logbook import logfile
from chancery.words import commands, describe
from shared_rules import canon, decktet, engine, games, matches
from shared_rules.errors import RuleError

ROOT = pathlib.Path(paths.ROOT)

# Seed L37: Selia (seat 0) 9 Leaves/Knots, Shar (seat 1) Crown of Knots, Henri (seat 2) 7 Waves/Wyrms.
L37 = ["Merchant", "Windfall", "Cave"]
SETUP = [3, 4, 1, 1, 5, 6, 2, 2]


def played_match():
    """A 3-seat match played through the engine into turn 2."""
    m = engine.new_match("chancellors", {"players": 3}, 7)
    for act in [
        {"type": "roll", "values": SETUP, "source": "manual"},
        {"type": "reveal", "cards": L37},
        {"type": "solve_part", "problem": 1, "card": "Ace of Knots", "aside": 0},  # seat 1, Army
        {"type": "solve", "problem": 3, "cards": ["Mill"]},  # seat 0, Navy: 8 >= 4
        {"type": "pass"},  # seat 2, step C
        {"type": "roll"},  # the partial problem's die, from the board
        {"type": "roll", "values": [6, 5], "source": "manual"},  # the solved problem's dice
    ]:
        engine.apply(m, act)
    return m


@pytest.fixture
def saved(tmp_path):
    m = played_match()
    path = tmp_path / "game.json"
    logfile.save(m, path)
    return m, path


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --- replay ----------------------------------------------------------------

def test_replay_verifies_and_shows_public_state(saved, capsys):
    m, path = saved
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "7 entries replayed" in out
    assert "Army: seat 1" in out and "Navy: seat 0" in out and "Diplomatic corps: nobody" in out
    assert "Turn 2" in out
    assert "rng" not in out


def test_replay_json_is_canonical(saved, capsys):
    m, path = saved
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 0, err
    view = json.loads(out)
    assert out.strip() == canon.encode(view) == canon.encode(matches.view(m, None))
    assert "rng" not in view and view["turn"] == 2
    # byte-stable: a second run prints the very same text
    assert run(capsys, "replay", "--json", str(path))[1] == out


def test_replay_reads_json_lines(saved, tmp_path, capsys):
    m, _ = saved
    log = matches.log_of(m)
    head = dict((k, v) for k, v in log.items() if k not in ("entries", "format"))  # as playout.py streams it
    path = tmp_path / "game.jsonl"
    lines = [json.dumps(head)] + [json.dumps(e) for e in log["entries"]]
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert code == 0, err
    assert json.loads(out) == matches.view(m, None)
    lines[3] = lines[3][:20]  # a torn line: named by entry and line
    path.write_text("\n".join(lines) + "\n")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and err.startswith("error: entry #3: line 4 ")


def _tampered(path, tmp_path, change):
    doc = json.loads(path.read_text())
    change(doc)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    return bad


def test_tampered_event_is_named(saved, tmp_path, capsys):
    _, path = saved

    def change(doc):
        doc["entries"][2]["events"][0]["points"] = 9

    code, out, err = run(capsys, "replay", str(_tampered(path, tmp_path, change)))
    assert code == 2
    assert err.startswith("error: entry #3: ") and "events differ" in err
    assert "event 0 is {" in err and '"points":9' in err and "where the rules give {" in err  # which, and how


def test_a_csv_export_is_recognised_and_the_jsonl_one_pointed_to(tmp_path, capsys):
    path = tmp_path / "game.csv"
    path.write_text("idx,action,summary,digest\n0,roll,Seat 0 rolls,1a2b3c4d\n")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and "CSV export" in err and "--format jsonl" in err and "bad JSON" not in err


def test_tampered_digest_is_named(saved, tmp_path, capsys):
    _, path = saved

    def change(doc):
        doc["entries"][4]["digest"] = "00000000"

    code, out, err = run(capsys, "replay", str(_tampered(path, tmp_path, change)))
    assert code == 2
    assert err.startswith("error: entry #5: ") and "digest" in err


def test_tampered_action_and_float_are_named(saved, tmp_path, capsys):
    _, path = saved

    def refused(doc):
        doc["entries"][3]["action"]["problem"] = 1  # already partly solved this turn

    code, _, err = run(capsys, "replay", str(_tampered(path, tmp_path, refused)))
    assert code == 2 and err.startswith("error: entry #4: ") and "refused" in err

    def floaty(doc):
        doc["entries"][5]["events"][0]["value"] = 2.5

    code, _, err = run(capsys, "replay", str(_tampered(path, tmp_path, floaty)))
    assert code == 2 and err.startswith("error: entry #6: ")


def test_missing_fields_are_named(saved, tmp_path, capsys):
    _, path = saved
    code, _, err = run(capsys, "replay", str(_tampered(path, tmp_path, lambda d: d["entries"][1].pop("digest"))))
    assert code == 2 and err.startswith("error: entry #2: ") and "digest" in err
    code, _, err = run(capsys, "replay", str(_tampered(path, tmp_path, lambda d: d.pop("entries"))))
    assert code == 2 and err.startswith("error: header: ") and "entries" in err
    code, _, err = run(capsys, "replay", str(_tampered(path, tmp_path, lambda d: d.update(seed=8))))
    assert code == 2 and err.startswith("error: header: ")


def test_truncated_log_names_the_entry(saved, tmp_path, capsys):
    m, path = saved
    text = path.read_text()
    lines = text.splitlines(True)
    cut = "".join(lines[:4]) + lines[4][: len(lines[4]) // 2]  # header line, entries 0-2, half of entry 3
    bad = tmp_path / "cut.json"
    bad.write_text(cut)
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 2
    assert err.startswith("error: entry #4: line 5 ") and "bad JSON" in err


def test_bad_json_gives_line_and_missing_file_is_clear(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1,\n  "game": chancellors}\n')
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 2 and "line 2" in err and "bad JSON" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in err and "nope.json" in err
    (tmp_path / "list.json").write_text("[1, 2]")
    code, _, err = run(capsys, "replay", str(tmp_path / "list.json"))
    assert code == 2 and "error:" in err


def _scenario(tmp_path, expect_navy):
    sc = {
        "name": "L37 control example", "source": "chancellors.txt L37",
        "game": "chancellors", "settings": {"players": 3}, "seed": 1,
        "actions": [
            {"type": "roll", "values": SETUP, "source": "manual"},
            {"action": {"type": "solve", "problem": 0, "cards": ["Castle"]}, "reject": "wrong_step"},
            {"action": {"type": "reveal", "cards": L37},
             "expect": {"control": {"diplomatic": None, "army": 1, "navy": expect_navy}}},
        ],
        "expect": {"step": "B"},
    }
    path = tmp_path / "l37.json"
    path.write_text(json.dumps(sc, indent=2))
    return path


def test_replay_scenario(tmp_path, capsys):
    code, out, err = run(capsys, "replay", str(_scenario(tmp_path, 0)))
    assert code == 0, err
    assert "every expectation holds" in out and "Army: seat 1" in out
    code, out, err = run(capsys, "replay", str(_scenario(tmp_path, 2)))
    assert code == 1
    assert "failure: action 2: control is" in err
    code, out, err = run(capsys, "replay", "--json", str(_scenario(tmp_path, 0)))
    assert code == 0 and json.loads(out)["control"]["navy"] == 0


def test_replay_scenario_json_lines(tmp_path, capsys):
    path = tmp_path / "l37.jsonl"
    path.write_text("\n".join([
        "# L37, as a JSON Lines scenario",
        json.dumps({"name": "L37", "game": "chancellors", "settings": {"players": 3}, "seed": 1,
                    "expect": {"control": {"diplomatic": None, "army": 1, "navy": 0}}}),
        json.dumps({"type": "roll", "values": SETUP, "source": "manual"}),
        "",
        json.dumps({"type": "reveal", "cards": L37}),
    ]) + "\n")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "Scenario L37: 2 actions, every expectation holds." in out


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "scenarios").glob("*/*.jsonl")), ids=lambda p: p.name)
def test_replay_the_repository_scenarios(path, capsys):
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err


def test_bad_scenario_is_an_error(tmp_path, capsys):
    path = tmp_path / "sc.json"
    path.write_text(json.dumps({"game": "chess", "actions": []}))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "chancellors" in err


# --- rules -----------------------------------------------------------------

def test_rules_lists_every_action_and_setting(capsys):
    code, out, err = run(capsys, "rules", "chancellors")
    assert code == 0
    d = describe.describe_game("chancellors")
    for s in d["settings"]:
        assert s["name"] in out and s["doc"] in out
    for a in d["actions"]:
        assert "  %s  (by " % a["type"] in out
        for p in a["params"]:
            assert "- %s" % p["name"] in out
    assert "an integer from 1 to 6" in out  # domains in words


def test_rules_gives_the_dealers_range_for_the_seats_shown(capsys):
    """The Council's dealer is a seat: its range follows the seat count, in `rules` and in the
    refusal of a dealer past the last seat (issue 16: it said 0 to 4 whatever the seats)."""
    code, out, _ = run(capsys, "rules", "the_council")
    assert code == 0 and "shown for the default 4 seats" in out
    assert "dealer (default 0): an integer from 0 to 3" in out
    with pytest.raises(RuleError) as e:
        engine.new_match("the_council", {"players": 3, "dealer": 5}, 1)
    e.value.game = "the_council"
    assert games.message(e.value) == "dealer is out of range (got 5); allowed: an integer from 0 to 2"


def test_the_terminal_games_usage_gives_the_problems_for_its_seats(monkeypatch, capsys, tmp_path):
    """Chancellors has a problem more than it has seats: with 3 seats, problems 0 to 3, in the
    usage line as in the parameter's words (issue 16: the usage said 0-4)."""
    code, out, _ = play(monkeypatch, capsys, "help solve\nquit\n", "--players", "3", "--log", str(tmp_path / "g.json"))
    assert code == 0 and "solve 0-3 CARD..." in out and "an integer from 0 to 3" in out and "0-4" not in out


def test_rules_json(capsys):
    code, out, _ = run(capsys, "rules", "chancellors", "--json")
    assert code == 0
    got = json.loads(out)
    assert [a["type"] for a in got["actions"]] == ["roll", "reveal", "assign", "solve", "solve_part", "pass", "excuse",
                                                    "score", "die", "service"]  # the last three: the effects
    assert out.strip() == canon.encode(got)


def test_rules_unknown_game(capsys):
    code, out, err = run(capsys, "rules", "chess")
    assert code == 2 and "chess" in err and "chancellors" in err


def test_usage_errors(capsys):
    assert run(capsys, "deploy")[0] == 2
    assert cli.main([]) == 2
    assert cli.main(["play", "--players", "x"]) == 2
    capsys.readouterr()


# --- command parsing -------------------------------------------------------

@pytest.mark.parametrize("text, action", [
    ("reveal Merchant, Windfall, Cave", {"type": "reveal", "cards": L37}),
    ("reveal 9 Merchant, Crown of Knots, 7 Cave", {"type": "reveal", "cards": L37}),
    ("rev merch windf cave", {"type": "reveal", "cards": L37}),
    ("reveal 9 leaves/knots, crown of knots, 7 waves/wyrms", {"type": "reveal", "cards": L37}),
    ("assign diplomatic=2 army=- navy=0", {"type": "assign", "diplomatic": 2, "army": None, "navy": 0}),
    ("solve 2 Castle Mountain", {"type": "solve", "problem": 2, "cards": ["Castle", "Mountain"]}),
    ("part 1 Ace of Moons aside 0", {"type": "solve_part", "problem": 1, "card": "Ace of Moons", "aside": 0}),
    ("pass abdicate", {"type": "pass", "abdicate": True}),
    ("roll 3 4 1 1", {"type": "roll", "values": [3, 4, 1, 1], "source": "manual"}),
    ("roll", {"type": "roll"}),
    ("excuse 2", {"type": "excuse", "holder": 2}),
])
def test_commands_parse(text, action):
    from shared_rules.chancellors import SCHEMAS

    got = commands.parse(text, SCHEMAS, 3, decktet.names(True))
    assert got == action
    assert commands.parse(commands.command_text(got, SCHEMAS), SCHEMAS, 3, decktet.names(True)) == got


@pytest.mark.parametrize("text, words", [
    ("solve 2 Ca", "could be"), ("bogus", "unknown command"), ("solve Castle", "problem"),
    ("solve 2 Castle Mountian", "Mountian"),
])
def test_commands_refuse(text, words):
    from shared_rules.chancellors import SCHEMAS

    with pytest.raises(commands.ParseError, match=words):
        commands.parse(text, SCHEMAS, 3, decktet.names(False))


# --- play ------------------------------------------------------------------

def play(monkeypatch, capsys, text, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = cli.main(["play"] + list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def entries(path):
    return json.loads(pathlib.Path(path).read_text())["entries"]


def test_play_l37_error_undo_eof_resume(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    script = "\n".join([
        "roll 3 4 1 1 5 6 2 2",
        "reveal 9 Merchant, Crown of Knots, 7 Cave",
        "roll",                       # illegal now: step B
        "solve 2 Castle",             # illegal: 7 < 11
        "pass",                       # seat 1 passes with the Army
        "undo",                       # ... taken back
        "part 1 Ace of Knots aside 0",
    ]) + "\n"
    code, out, err = play(monkeypatch, capsys, script, "--players", "3", "--seed", "4", "--log", str(log))
    assert code == 0, err
    assert "Dice (dice read from the table): problem 0 is 3-4; problem 1 is 1-1" in out
    assert "Seat 1 takes the Army (highest card)" in out
    assert "Seat 0 takes the Navy (highest card)" in out
    assert "Diplomatic corps: it stays uncontrolled" in out
    assert "Not allowed: rolling is not possible now" in out
    assert "Not allowed: the cards add up to 7; problem 2 (5-6) needs at least 11" in out
    assert "Took back: pass" in out
    assert "Seat 1 solves part of problem 1 (1-1) for 1 point with the Army" in out
    assert "Game saved to %s" % log in out  # EOF: saved, and says where
    got = entries(log)
    assert [e["action"]["type"] for e in got] == ["roll", "reveal", "solve_part"]  # errors and undo left no trace
    code, rout, rerr = run(capsys, "replay", "--json", str(log))
    assert code == 0, rerr
    view = json.loads(rout)
    assert view["control"] == {"diplomatic": None, "army": 1, "navy": 0}
    assert view["scores"] == [0, 1, 0]

    # resume: the same file goes on
    code, out, err = play(monkeypatch, capsys, "pass\nlog 1\nquit\n", "--resume", str(log))
    assert code == 0, err
    assert "Resumed %s: 3 actions replayed and verified" % log in out
    assert "Seat 0 passes." in out and "#4 pass" in out
    assert [e["action"]["type"] for e in entries(log)][-1] == "pass"
    assert run(capsys, "replay", str(log))[0] == 0


def test_play_numbered_choice_and_state_unchanged_on_error(monkeypatch, capsys, tmp_path):
    log = tmp_path / "g.json"
    code, out, err = play(monkeypatch, capsys, "1\nreveal Castle, Castle\nassign army=0 navy=1 diplomatic=-\n",
                          "--players", "2", "--seed", "3", "--log", str(log))
    assert code == 0, err
    assert "Dice (the board rolls)" in out
    assert "Not allowed: 7 Castle (Suns/Knots) is played by two seats" in out
    assert "Seat 0 controls the Army." in out
    assert [e["action"]["type"] for e in entries(log)] == ["roll", "assign"]


def test_play_resume_refuses_bad_logs_and_settings(monkeypatch, capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, _, err = play(monkeypatch, capsys, "", "--resume", str(bad))
    assert code == 2 and "cannot resume" in err
    code, _, err = play(monkeypatch, capsys, "", "--resume", str(bad), "--players", "3")
    assert code == 2 and "--players" in err
    code, _, err = play(monkeypatch, capsys, "", "--players", "9", "--log", str(tmp_path / "x.json"))
    assert code == 2 and "players" in err


def test_play_default_log_in_data_dir(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(logfile, "games_dir", lambda: tmp_path / "games")
    code, out, err = play(monkeypatch, capsys, "", "--players", "2")
    assert code == 0, err
    files = list((tmp_path / "games").glob("chancellors-*.json"))
    assert len(files) == 1 and str(files[0]) in out
    assert run(capsys, "replay", str(files[0]))[0] == 0


def test_save_is_atomic(tmp_path):
    m = played_match()
    path = tmp_path / "sub" / "g.json"
    logfile.save(m, path)
    logfile.save(m, path)
    assert os.listdir(path.parent) == ["g.json"]  # no temp files left behind
    assert json.loads(path.read_text()) == matches.log_of(m)


# --- the entry point ---------------------------------------------------------

def test_python_dash_m_chancery(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "host"), env.get("PYTHONPATH", "")])
    got = subprocess.run([sys.executable, "-m", "chancery", "rules", "chancellors", "--json"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert got.returncode == 0, got.stderr
    assert json.loads(got.stdout)["game"] == "chancellors"
    got = subprocess.run([sys.executable, "-m", "chancery", "rules", "nogame"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert got.returncode == 2 and "known games: chancellors" in got.stderr


def test_sim_and_mirror_refuse_without_a_terminal(capsys):
    code, out, err = run(capsys, "sim")
    assert code == 2 and "terminal" in err
    code, out, err = run(capsys, "mirror", "--port", "/dev/nonexistent")
    assert code == 2 and "terminal" in err


def test_play_the_other_games_with_their_settings(monkeypatch, capsys, tmp_path):
    """`chancery play GAME --set NAME=VALUE`: Yes, Your Grace's event calculator from the host,
    its working shown; The King's Dilemma's sealed variant; a bad setting named."""
    log = str(tmp_path / "yyg.json")
    code, out, err = play(monkeypatch, capsys, "next\nnext\nevent crisis Soldier 3 c1, Soldier 2 c0, Coin 1 oppose=Spy 2 c0\n"
                     "quit\n", "yes_your_grace", "--players", "3", "--set", "annals=6", "--log", log)
    assert code == 0 and "Yes, Your Grace for 3 seats" in out
    assert "3x2 + 2x2 = 10" in out and "a Notable Triumph is written (Record 1 of 6" in out, out[-3000:]
    assert "chancery play yes_your_grace --resume " + log in out
    code, out, err = play(monkeypatch, capsys, "quit\n", "yes_your_grace", "--resume", log)
    assert code == 0 and "Resumed" in out and "1 of 6 written" in out
    code, out, err = play(monkeypatch, capsys, "quit\n", "kings_dilemma", "--set", "voting=sealed", "--log",
                     str(tmp_path / "kd.json"))
    assert code == 0 and "The King's Dilemma for 4 seats" in out
    code, out, err = play(monkeypatch, capsys, "", "kings_dilemma", "--set", "voting=secret")
    assert code == 2 and "voting should be one of open, sealed" in err
    code, out, err = play(monkeypatch, capsys, "", "the_council", "--target", "50")
    assert code == 2 and "has no setting 'target'" in err


def test_play_help_shows_each_games_own_examples(monkeypatch, capsys, tmp_path):
    """The terminal game's help takes its examples and card forms from the game's show module
    (host-only words live in the game's folder): Chancellors has both, The King's Dilemma none."""
    code, out, _ = play(monkeypatch, capsys, "help\nhelp roll\nquit\n", "--log", str(tmp_path / "c.json"))
    assert code == 0 and "e.g. roll 3 4 1 1 5 6" in out and "Crown of Knots" in out
    code, out, _ = play(monkeypatch, capsys, "help\nquit\n", "kings_dilemma", "--log", str(tmp_path / "k.json"))
    assert code == 0 and "roll 3 4 1 1 5 6" not in out and "Cards:" not in out and "pool" in out


@pytest.mark.parametrize("text, action", [
    ('pool seat=0 coins amount=2 reason="Story card 12"',
     {"type": "pool", "seat": 0, "pool": "coins", "amount": 2, "reason": "Story card 12"}),
    ("pool 1 power -3 Trigger card, house rule",
     {"type": "pool", "seat": 1, "pool": "power", "amount": -3, "reason": "Trigger card, house rule"}),
    ("drawn event", {"type": "drawn", "card": "event"}),
])
def test_a_text_value_takes_the_rest_of_its_words(text, action):
    """A printed effect's reason (a text parameter) is typed as words, quoted or not, and the
    command the log shows for it reads back as the same action."""
    from shared_rules.kings_dilemma import SCHEMAS

    got = commands.parse(text, SCHEMAS, 3, ())
    assert got == action
    assert commands.parse(commands.command_text(got, SCHEMAS), SCHEMAS, 3, ()) == got


def test_a_choice_typed_in_another_form_of_its_word_is_understood():
    """Issue 45: `pass moderator` in The King's Dilemma was "did not understand" (the word is moderate)."""
    from shared_rules import engine

    g = engine.game_module("kings_dilemma")
    schemas = list(g.SCHEMAS)
    for text in ("pass moderator", "pass moderate", "pass mod"):
        got = commands.parse(text, schemas, 4, [])
        assert got == {"type": "pass", "kind": "moderate"}, (text, got)
    assert commands.parse("pass gathering", schemas, 4, [])["kind"] == "gather"


def test_the_resume_hint_names_a_command_the_user_can_run(monkeypatch, capsys, tmp_path):
    """Issue 45: the hint at the end of a terminal game named `chancery play ...`, which is not on the
    PATH of a user who ran `python3 run.py play`: run.py says how it was run (CHANCERY_COMMAND),
    and the hint names that; a path with a space is quoted."""
    import importlib.util
    import shlex

    folder = tmp_path / "my games"
    folder.mkdir()
    log = folder / "g.json"
    monkeypatch.delenv("CHANCERY_COMMAND", raising=False)
    code, out, err = play(monkeypatch, capsys, "quit\n", "kings_dilemma", "--players", "3", "--log", str(log))
    assert code == 0, err
    assert "Continue it with: chancery play kings_dilemma --resume %s\n" % shlex.quote(str(log)) in out
    monkeypatch.setenv("CHANCERY_COMMAND", "python3 run.py")
    code, out, err = play(monkeypatch, capsys, "quit\n", "--resume", str(log))
    assert code == 0, err
    assert "Continue it with: python3 run.py play kings_dilemma --resume %s\n" % shlex.quote(str(log)) in out
    assert "goes into the logbook (`python3 run.py log list`)" in out

    spec = importlib.util.spec_from_file_location("run_py", str(ROOT / "run.py"))
    run_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run_py)
    python = os.path.basename(sys.executable)
    monkeypatch.chdir(ROOT)
    assert run_py.child_env(hints=True)["CHANCERY_COMMAND"] == python + " run.py"
    assert "CHANCERY_COMMAND" not in run_py.child_env()  # `run.py test`: the tests read the plain words
    monkeypatch.chdir(ROOT / "docs")  # from outside the checkout's root: the whole path
    assert run_py.invoked_as() == python + " " + str(ROOT / "run.py")
