"""The host's link when entry frames were lost on the way (a cable pulled while the board sent
them): an entry past the mirror's end is not an error, the link fetches what it missed.

The board here is the firmware's own Table on CPython, behind a fake serial port that can drop
frames the way a pulled cable does."""

import sys

import paths

from chancery.board.link import Link
from firmware.journal import Journal
from firmware.link import Link as BoardLink
from firmware.table import Table
from shared_rules import wire

sys.path.insert(0, paths.MP)
import playout  # noqa: E402  (tests/mp: the random player's fallback action)


class Port:
    """A serial port wired to a Table: what the host writes is answered at once; `drop(test)`
    loses the board's frames for which test(kind, body) is true."""

    def __init__(self, table):
        self.table = table
        self.out = b""
        self.reader = wire.Reader()
        self.seq = 0
        self.lose = lambda kind, body: False
        self.board = BoardLink(table, self._from_board)  # the board's side of the link

    def _from_board(self, kind, body):
        seq, self.seq = self.seq, wire.next_seq(self.seq)
        if not self.lose(kind, body):
            self.out += wire.encode(seq, kind, body).encode()

    @property
    def in_waiting(self):
        return len(self.out)

    def read(self, n):
        data, self.out = self.out[:n], self.out[n:]
        return data

    def write(self, data):
        for seq, kind, body in self.reader.feed(data):
            self.board.frame(seq, kind, body)
        return len(data)

    def close(self):
        pass


def linked(tmp_path):
    table = Table(Journal(str(tmp_path)), lambda n: b"\x03" * n, "chancellors", {"players": 3}, "t").boot()
    port = Port(table)
    link = Link("fake")
    link.ser = port
    link._state("open")
    return table, port, link


def entries(link):
    return [e["digest"] for e in link.mirror.match["entries"]]


def journal(table):
    return [e["digest"] for e in table.journal.entries(0)]


def test_entries_lost_live_are_fetched_when_a_later_one_arrives(tmp_path):
    table, port, link = linked(tmp_path)
    link.hello()
    assert link.state == "live"
    link.act({"type": "roll"})
    port.lose = lambda kind, body: kind == wire.ENTRY  # the next entry's frame never reaches the host
    table.act(playout._fallback(table.state))  # made at the table, on its own pads
    assert len(journal(table)) == 2 and len(entries(link)) == 1
    port.lose = lambda kind, body: False
    table.act(playout._fallback(table.state))  # its frame arrives, one past the mirror's end
    link.poll(0.1)  # it used to raise "entry 2 arrived before entry 1"
    assert entries(link) == journal(table) and len(entries(link)) == 3


def test_an_entry_left_over_before_the_welcome_is_no_error(tmp_path):
    """Reconnecting, an entry frame from before (sent into the pulled cable's last moment)
    reaches the host before the welcome: the hello fetches it with the rest."""
    table, port, link = linked(tmp_path)
    link.hello()
    link.act({"type": "roll"})
    port.lose = lambda kind, body: True  # the cable is out
    table.act(playout._fallback(table.state))
    table.act(playout._fallback(table.state))
    port.lose = lambda kind, body: False
    port._from_board(wire.ENTRY, _entry_frame(table, 2))  # the last one's frame, left over in the cable
    link.hello()  # it used to raise "entry 2 arrived before entry 1"
    assert entries(link) == journal(table) and len(entries(link)) == 3


def _entry_frame(table, i):
    e = list(table.journal.entries(i))[0]
    return {"i": i, "move": e["action"], "events": e["events"], "digest": e["digest"]}
