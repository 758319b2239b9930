"""One board, one host (issue 16): a simulated board's folder is locked by the process
running it, and a serial port is opened exclusively, so a second chancery is told, in
words, who has the board, instead of starting a new game under the first."""

import json
import os
import pty
import subprocess
import sys

import pytest

from chancery import cli
from chancery.board.link import Link, LinkError
from chancery.board.simboard import LOCK, BoardBusy, SimBoard


@pytest.fixture
def other_process():
    """A live process that is not this one (its PID stands for another chancery)."""
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield proc.pid
    proc.kill()
    proc.wait()


def test_a_second_host_is_refused_naming_the_first(tmp_path, other_process):
    (tmp_path / LOCK).write_text(json.dumps({"pid": other_process, "since": "2026-11-24 08:00:00"}))
    board = SimBoard(data_dir=str(tmp_path))
    with pytest.raises(BoardBusy) as e:
        board.start()
    assert "process %d" % other_process in str(e.value) and "--data" in str(e.value)
    assert board.proc is None and json.loads((tmp_path / LOCK).read_text())["pid"] == other_process


def test_a_lock_whose_process_is_gone_is_taken_over_and_released(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    (tmp_path / LOCK).write_text(json.dumps({"pid": int(gone)}))
    board = SimBoard(data_dir=str(tmp_path))
    board.lock()
    assert json.loads((tmp_path / LOCK).read_text())["pid"] == os.getpid()
    board.stop()
    assert not (tmp_path / LOCK).exists()
    (tmp_path / LOCK).write_text("{half writ")  # a lock cut short: stale too
    board.lock()
    board.stop()


def test_chancery_sim_refuses_a_busy_board_before_touching_its_files(tmp_path, other_process, monkeypatch, capsys):
    from chancery.mirror import cli as mirror_cli

    monkeypatch.setattr(mirror_cli, "_terminal", lambda: True)
    (tmp_path / LOCK).write_text(json.dumps({"pid": other_process}))
    (tmp_path / "game.jsonl").write_text("the first host's game\n")
    code = cli.main(["sim", "--data", str(tmp_path), "--new"])
    err = capsys.readouterr().err
    assert code == 2 and "in use by another chancery (process %d" % other_process in err
    assert (tmp_path / "game.jsonl").read_text() == "the first host's game\n"  # --new left it alone


def test_a_port_held_by_another_host_is_reported_as_such():
    master, slave = pty.openpty()
    try:
        first = Link(os.ttyname(slave))
        first.open()
        second = Link(os.ttyname(slave))
        with pytest.raises(LinkError) as e:
            second.open()
        assert "in use by another program" in str(e.value) and "one board has one host" in str(e.value)
        first.close()
        second.open()  # free again
        second.close()
    finally:
        os.close(master)
        os.close(slave)


def test_a_port_where_nothing_answers_is_said_once_in_words():
    """Issue 16: a board that never answers was 'cannot reach the board on P: no welcome from P
    within 2.0 s (frame 2)'. Now it says what was tried and what to do, the port named once."""
    master, slave = pty.openpty()
    try:
        link = Link(os.ttyname(slave))
        with pytest.raises(LinkError) as e:
            link.connect(attempts=1, sleep=lambda s: None)
        text = str(e.value)
        assert text.startswith("no board after 1 try: nothing on %s answered the hello within" % os.ttyname(slave))
        assert "chancery sim" in text and "chancery deploy" in text and "frame" not in text
        assert text.count(os.ttyname(slave)) == 1
    finally:
        os.close(master)
        os.close(slave)
