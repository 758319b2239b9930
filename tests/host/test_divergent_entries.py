"""The host refuses a board entry whose replay differs: the link replays each entry the board
sends through the same rules (Mirror.add) and compares its events and digest with the board's.
An entry that does not replay to them is neither mirrored nor stored in the logbook (the host's
own version of it least of all), the link says so in words, the mirror's events pane and status
line too, and a reconnect fetches it and checks it again.

The board is the firmware's own Table on CPython behind a fake serial port (tests/host/test_link_gaps.py)
that alters the entry frames it is told to: as a board whose rules or journal give another entry."""

import asyncio

import pytest
from test_link_gaps import Port, journal, linked, playout

from chancery.board.link import Diverged, LinkError
from chancery.logbook.store import Logbook
from chancery.mirror.app import MirrorApp
from shared_rules import canon, engine, wire


class Altering(Port):
    """A Port whose board sends entry frames through `alter(body)` (the frame as it leaves it)."""

    alter = None

    def _from_board(self, kind, body):
        if kind == wire.ENTRY and self.alter is not None:
            body = self.alter(canon.copy(body))
        Port._from_board(self, kind, body)


def alteration(how, table):
    """How the board's frames of entry 1 differ from what the host's replay gives: "events" (its
    rules gave other events, and its digest chains on them: a board of another version), "events
    only" (the digest as the host's), "digest" (the events as the host's)."""

    def alter(body):
        if body["i"] != 1:
            return body
        if how != "digest":
            body["events"][0]["forged"] = 1
        if how == "events":
            prev = list(table.journal.entries(0))[0]["digest"]
            body["digest"] = engine.entry_digest(prev, body["move"], body["events"])
        elif how == "digest":
            body["digest"] = "%08x" % (int(body["digest"], 16) ^ 1)
        return body

    return alter


@pytest.fixture()
def linked_book(tmp_path):
    """A Table behind an Altering port, linked, hello'd and logged, with entry 0 (a roll) stored."""
    (tmp_path / "flash").mkdir()
    table, _, link = linked(tmp_path / "flash")
    port = Altering(table)  # in place of linked()'s own port, on the same table
    link.ser = port
    link.logbook = Logbook(str(tmp_path / "logbook.sqlite3"))
    link.hello()
    link.act({"type": "roll"})  # entry 0: the same on both sides, stored
    assert len(stored(link)) == 1
    yield table, port, link
    link.logbook.close()


def stored(link):
    return [e["digest"] for e in link.logbook.entries(link.game_id)]


@pytest.mark.parametrize("how", ["events", "events only", "digest"])
def test_an_entry_whose_replay_differs_is_refused_and_never_stored(linked_book, how):
    table, port, link = linked_book
    port.alter = alteration(how, table)
    told = []
    link.on_event = lambda kind, data: told.append((kind, data))
    table.act(playout._fallback(table.state))  # entry 1, made at the table; its frame reaches the host altered
    try:
        link.poll(0.1)
        refused = None
    except Diverged as e:
        refused = e
    assert stored(link) == journal(table)[:1]  # the logbook has entry 0 alone: not the host's own entry 1
    assert len(link.mirror.match["entries"]) == 1  # nor the mirror
    assert isinstance(refused, LinkError) and refused.index == 1, "the poll took entry 1"
    differ = {"events": "its events and digest differ", "events only": "its events differ",
              "digest": "its digest differs"}[how]
    assert str(refused).startswith("entry 1 does not replay to the board's events and digest (%s" % differ)
    assert told[-1] == ("diverged", {"i": 1, "why": refused.why}) and link.diverged is refused
    # a reconnect fetches it again: still refused, still not stored
    with pytest.raises(Diverged):
        link.hello()
    assert stored(link) == journal(table)[:1] and len(link.mirror.match["entries"]) == 1
    # the frames come through whole again: the board's entry is taken, as the board has it
    port.alter = None
    link.hello()
    assert link.diverged is None
    assert stored(link) == journal(table) == [e["digest"] for e in link.mirror.match["entries"]]
    assert list(link.logbook.entries(link.game_id))[1] == list(table.journal.entries(1))[0]


def test_the_mirror_says_in_words_that_an_entry_does_not_replay(linked_book):
    table, port, link = linked_book
    port.alter = alteration("digest", table)

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            table.act(playout._fallback(table.state))  # made at the table; the mirror's poll meets it
            for _ in range(40):
                await pilot.pause(0.05)
                log = " ".join(" ".join(line.text.split()) for line in app.query_one("#events").lines)
                if "#2" in log:
                    break
            assert "The board's entry #2 does not replay to the board's events and digest (its digest differs " \
                   "from the host's replay): it is neither mirrored nor stored in the logbook" in log, log
            assert "Link lost" not in log
            status = str(app.query_one("#status").render())
            assert "entries 1" in status and "#2 DOES NOT REPLAY HERE" in status, status

    asyncio.run(run())
    assert stored(link) == journal(table)[:1] and len(link.mirror.match["entries"]) == 1
