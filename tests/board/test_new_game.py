"""A new game, chosen at the table (the table's menu) or by the host (an act frame):
another game, or the same one with other settings; the old game stays in done1.jsonl."""

import os

from clients import controls, linked

from firmware.journal import Journal
from firmware.table import Table
from shared_rules import canon, wire

TABLE = 5


def board(folder):
    return Table(Journal(str(folder)), lambda n: b"\x05" * n, "chancellors", {"players": 4}, "t").boot()


def cursor(screen):
    for line in screen[1:-1]:
        if line.startswith(">"):
            return line[2:].strip()
    return None


def pick(t, wanted, limit=60):
    """Press down on the table's pad until the cursor is on `wanted`, then select."""
    screen = controls(t).key(TABLE, "down")[0]
    for _ in range(limit):
        if cursor(screen) == wanted:
            return controls(t).key(TABLE, "select")[0]
        screen = controls(t).key(TABLE, "down")[0]
    raise AssertionError("%r not on the menu: %r" % (wanted, screen))


def test_the_tables_menu_starts_another_game_with_its_settings(tmp_path):
    t = board(tmp_path)
    t.act({"type": "roll"})
    before = t.journal.entries(0)
    pick(t, "new_game")                    # the table's last action
    screen = pick(t, "kings_dilemma")      # its one parameter: the game
    assert screen[0] == "table new_game?" and controls(t).setup is None
    screen = controls(t).key(TABLE, "select")[0]     # sent: now the game's settings, as one action
    assert controls(t).setup == "kings_dilemma" and t.game == "chancellors" and cursor(screen) == "new_game"
    screen = controls(t).key(TABLE, "select")[0]  # every setting optional: their defaults at once, to confirm
    assert screen[0] == "table new_game?" and screen[-2:] == ["push: send", "back: change"]
    screen = controls(t).key(TABLE, "back")[0]  # to the first setting
    assert screen[0] == "table new_game" and screen[1].startswith("players")
    # the King's Dilemma's settings, "(default)" first: players 3, voting sealed. The rest, all
    # optional, are left at their defaults: the confirm; its back opens the next one left
    screen = pick(t, "3")
    for _ in range(80):
        if screen[1].startswith("voting"):
            break
        if screen[0].endswith("?"):  # the confirm: back to the first setting it left
            screen = controls(t).key(TABLE, "back")[0]
        else:
            screen = controls(t).key(TABLE, "select")[0]  # (default)
    screen = pick(t, "sealed")
    for _ in range(40):
        if screen[0].endswith("?"):  # the confirm screen
            break
        screen = controls(t).key(TABLE, "select")[0]
    screen = controls(t).key(TABLE, "select")[0]
    assert screen == ["new_game", "kings_dilemma"], screen
    assert t.game == "kings_dilemma" and t.count == 0 and controls(t).setup is None
    assert t.header["settings"]["players"] == 3 and t.header["settings"]["voting"] == "sealed"
    assert os.path.exists(tmp_path / "done1.jsonl")  # the old game, whole
    resumed = Table(Journal(str(tmp_path)), lambda n: b"\x05" * n).boot()
    assert resumed.game == "kings_dilemma" and resumed.header == t.header
    assert [canon.encode(e) for e in Journal(str(tmp_path)).entries(0)] == []
    assert before


def test_back_leaves_the_settings_and_keeps_the_game(tmp_path):
    t = board(tmp_path)
    pick(t, "new_game")
    pick(t, "kings_dilemma")
    controls(t).key(TABLE, "select")
    controls(t).key(TABLE, "back")
    assert controls(t).setup is None and t.game == "chancellors" and not os.path.exists(tmp_path / "done1.jsonl")


def test_the_host_starts_a_new_game_and_hears_the_welcome(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    host.frame(0, wire.HELLO, {"proto": 1})
    del sent[:]
    host.frame(1, wire.ACT, {"move": {"type": "new_game", "game": "kings_dilemma",
                                   "settings": {"players": 5, "voting": "sealed"}}})
    kinds = [k for k, _ in sent]
    assert kinds == [wire.WELCOME, wire.STATE, wire.OK], sent
    assert sent[0][1]["game"] == "kings_dilemma" and sent[0][1]["settings"]["players"] == 5


def test_a_bad_new_game_is_refused_and_changes_nothing(tmp_path):
    sent = []
    t, host = linked(board(tmp_path), sent)
    t.act({"type": "roll"})
    host.frame(0, wire.HELLO, {"proto": 1})
    digest = canon.digest(t.state)
    for move, code in (({"type": "new_game", "game": "chess"}, "unknown_game"),
                       ({"type": "new_game", "game": "kings_dilemma", "settings": {"players": 9}}, "bad_setting"),
                       ({"type": "new_game", "game": "kings_dilemma", "settings": {"colour": 1}}, "bad_setting"),
                       ({"type": "new_game", "game": "kings_dilemma", "settings": [3]}, "bad_setting")):
        del sent[:]
        host.frame(1, wire.ACT, {"move": move})
        assert sent[-1][0] == wire.ERROR and sent[-1][1]["code"] == code, (move, sent)
        assert t.game == "chancellors" and canon.digest(t.state) == digest and t.count == 1
    assert not os.path.exists(tmp_path / "done1.jsonl")


def test_chancery_sim_asks_for_a_new_game_only_when_told():
    import argparse

    from chancery.mirror import app, cli
    from chancery.words import commands

    def args(game=None, players=None, sets=()):
        return argparse.Namespace(game=game, players=players, set=list(sets))

    assert cli.wanted_game(args()) is None  # plain `chancery sim`: the board's own game
    want = cli.wanted_game(args("kings_dilemma", 3, ["voting=sealed"]))
    assert want == {"type": "new_game", "game": "kings_dilemma", "settings": {"voting": "sealed", "players": 3}}
    assert cli.wanted_game(args(players=2))["game"] == "chancellors"
    welcome = {"game": "kings_dilemma", "settings": {"players": 3, "voting": "sealed", "time_counter": 8}}
    assert not app.differs(welcome, want)
    assert app.differs(dict(welcome, settings=dict(welcome["settings"], voting="open")), want)
    assert app.differs(dict(welcome, game="chancellors"), want)
    try:
        cli.wanted_game(args("kings_dilemma", sets=["speed=3"]))
    except commands.ParseError as e:
        assert "has no setting 'speed'" in str(e) and "voting" in str(e)
    else:
        raise AssertionError("an unknown setting passed")


# --- a board that restarts for a game switch (rp2, esp32: firmware/board/reboot.py) -----------

def restarting_board(folder, sent, restarts):
    """linked(board()), with the restart a Pico has: it notes whether the host listens and the switch, as
    reboot.py does; the test boots again. (table, link)"""
    from firmware.board import reboot

    t, host = linked(board(folder), sent)
    t.restart = lambda switch: (restarts.append([host.listening, switch]), reboot.note(str(folder), switch))
    return t, host


def boot_after_restart(folder, sent, listening=True):
    """What main.py does at a boot: the switch noted, its game started, then the game, then the answer
    (on a link that sends to `sent`)."""
    from firmware.board import reboot

    switch = reboot.switched(str(folder))
    t = Table(Journal(str(folder)), lambda n: b"\x06" * n,
              "chancellors", {"players": 4}, "t")
    if switch is not None:
        reboot.begin(t, switch)
    t.boot()
    host = linked(t, sent)[1]
    host.listening = listening
    if switch is not None:
        reboot.answer(host, switch)
    return t, switch


def listening_with_an_entry(folder):
    """A restarting board with one entry and a host: (table, its link, frames sent, restarts, the state's
    digest)."""
    sent, restarts = [], []
    t, host = restarting_board(folder, sent, restarts)
    t.act({"type": "roll"})
    host.frame(0, wire.HELLO, {"proto": 1})
    return t, host, sent, restarts, canon.digest(t.state)


def test_a_switch_on_a_board_that_restarts_waits_for_the_boot_and_answers_after_it(tmp_path):
    t, host, sent, restarts, digest = listening_with_an_entry(tmp_path)
    del sent[:]
    host.frame(7, wire.ACT, {"move": {"type": "new_game", "game": "kings_dilemma", "settings": {"players": 3},
                                   "names": ["Ann", "Bob"]}})
    # nothing moved and nothing answered yet: the old game is whole until the boot
    assert sent == [] and t.game == "chancellors" and canon.digest(t.state) == digest
    assert not os.path.exists(tmp_path / "done1.jsonl")
    t.idle()
    assert restarts == [[True, {"move": {"type": "new_game", "game": "kings_dilemma", "settings": {"players": 3},
                                         "names": ["Ann", "Bob"]}, "re": 7}]]
    after, switch = boot_after_restart(tmp_path, sent)
    assert switch is not None and not os.path.exists(tmp_path / "switch.json")  # taken once
    assert [k for k, _ in sent] == [wire.WELCOME, wire.STATE, wire.OK] and sent[-1][1]["re"] == 7, sent
    assert sent[0][1]["game"] == "kings_dilemma" and sent[0][1]["names"] == ["Ann", "Bob", None]
    assert after.game == "kings_dilemma" and after.header["settings"]["players"] == 3 and after.count == 0
    assert os.path.exists(tmp_path / "done1.jsonl")  # the old game, kept for the host
    del sent[:]
    again, switch = boot_after_restart(tmp_path, sent)  # the next boot: no switch, the new game resumes
    assert switch is None and sent == [] and again.game == "kings_dilemma" and again.header == after.header


def test_a_switch_refused_at_the_boot_resumes_the_old_game_and_says_why(tmp_path):
    t, host, sent, restarts, digest = listening_with_an_entry(tmp_path)
    host.frame(8, wire.ACT, {"move": {"type": "new_game", "game": "kings_dilemma", "settings": {"players": 9}}})
    t.idle()
    del sent[:]
    after, _ = boot_after_restart(tmp_path, sent)
    assert [k for k, _ in sent] == [wire.WELCOME, wire.STATE, wire.ERROR], sent
    assert sent[-1][1]["re"] == 8 and sent[-1][1]["code"] == "bad_setting"
    assert after.game == "chancellors" and canon.digest(after.state) == digest and after.count == 1
    assert not os.path.exists(tmp_path / "done1.jsonl")


def test_a_switch_from_the_tables_menu_restarts_into_the_game_chosen(tmp_path):
    sent, restarts = [], []
    t, _ = restarting_board(tmp_path, sent, restarts)
    pick(t, "new_game")
    pick(t, "the_council")
    controls(t).key(TABLE, "select")  # the game: its settings next
    screen = controls(t).key(TABLE, "select")[0]  # every setting optional: to the confirm screen
    for _ in range(40):
        if screen[0].endswith("?"):
            break
        screen = controls(t).key(TABLE, "select")[0]
    assert controls(t).key(TABLE, "select")[0][:2] == ["new_game", "the_council"]
    assert t.game == "chancellors" and controls(t).menu is None  # the menu went with the old game's code
    t.idle()
    assert restarts[0][0] is False and restarts[0][1]["re"] is None
    after, _ = boot_after_restart(tmp_path, sent, listening=False)
    assert after.game == "the_council" and sent == []


def test_an_unreadable_switch_note_is_dropped_and_the_game_resumes(tmp_path):
    from firmware.board import reboot

    t = board(tmp_path)
    t.act({"type": "roll"})
    for text in ("{not json", '{"move": 3}', '["kings_dilemma"]'):
        with open(tmp_path / "switch.json", "w") as f:
            f.write(text)
        assert reboot.switched(str(tmp_path)) is None and not os.path.exists(tmp_path / "switch.json")
    after, switch = boot_after_restart(tmp_path, [])
    assert switch is None and after.game == "chancellors" and after.count == 1


def test_a_fault_in_the_middle_of_a_switch_reloads_the_journalled_game_with_its_entries(tmp_path):
    """Table.fault (a board's answer to running out of memory in an input): a switch cut short with
    the new game's settings open on the menu is let go; the game the journal holds is reloaded with
    every entry; the next keys work."""
    t = board(tmp_path)
    t.act({"type": "roll"})
    digest = canon.digest(t.state)
    pick(t, "new_game")
    pick(t, "kings_dilemma")
    lines = t.fault()
    assert lines[0] == "Board fault:" and "nothing lost" in " ".join(lines)
    assert controls(t).menu is None and controls(t).setup is None and t.game == "chancellors"
    assert t.count == 1 and canon.digest(t.state) == digest
    assert controls(t).key(TABLE, "select")[0][0] == "table action?"
    assert t.act({"type": "score", "seat": 0, "amount": 2}) == 1


def test_a_fault_whose_reload_runs_short_restarts_a_board_that_can(tmp_path, monkeypatch):
    sent, restarts = [], []
    t, _ = restarting_board(tmp_path, sent, restarts)
    t.act({"type": "roll"})

    def short(*_args):
        raise MemoryError

    monkeypatch.setattr(t.journal, "resume", short)
    t.fault()
    assert t.state is None and len(restarts) == 1 and restarts[0][1] is None  # into the same game: no switch
    monkeypatch.undo()
    after, switch = boot_after_restart(tmp_path, sent, listening=False)
    assert switch is None and after.game == "chancellors" and after.count == 1
