"""The host's side of the link: one board, over pyserial, mirrored and logged.

The host speaks first (hello), learns the board's game from the welcome,
fetches the entries it lacks by index, and from then on takes entries as they
come. Every entry is re-played through the same rules core before it is
believed (its events and digest must come out the same), then written to the
logbook. A pulled cable or a dead port is not an error: the link reconnects
with back-off (0.5 s doubling to 10 s) and catches up; nothing the board
journalled is lost. See docs/protocol.md.

Undo: the board's log can become shorter (an undo at the table or from here). A
state frame with a length below the mirror's takes the mirror back to it; on
reconnect, catch-up first finds the last entry both sides share (the board may have
taken entries back and played others meanwhile). The entries taken back leave the
mirror and go to the logbook's taken-back entries, never lost.

Names: the board's welcome carries the seats' names once they are named (the board
sends it again after each naming); the link stores them in the logbook's players
table. After each hello it offers the board the names the logbook knows (an act
known_names), which the board's table menu picks from.

Finished games: a board keeps every game it finished on its flash until a host has stored
it (firmware/kept.py). After each hello (and catch-up), a link with a logbook pulls them,
the oldest first, stores each whole in one commit, and only then acknowledges it (ack), so
that the board removes it: a read that fails or a cable pulled half-way acknowledges
nothing, and the game is pulled again at the next connect (the logbook finds what it has).
Progress goes to on_event ("kept": {"id", "left", "len", "game", "got"}).

An entry that does not replay here (its events or digest are not the host's replay of its
action) is refused: Mirror.add raises Diverged before the mirror or the logbook takes it, the
link says so (on_event "diverged": {"i", "why"}; `diverged` holds it until an entry is taken
again) and the error ends the poll or the hello, so that a reconnect fetches it and checks it again.
"""

import time

import serial

from shared_rules import canon, engine, matches, seat_names, wire
from shared_rules.errors import RuleError

FETCH = 50  # entries per get: a long log comes in pieces
# error codes that are the board's own faults (its memory, a bug), not the rules' answers: the
# The three kinds of error frame, each said its own way by the mirror: a board fault (the board's
# memory, flash or code: not the table's doing), a frame the board could not take (the host's link
# or a wrong input), and, any other code, a rules refusal (the rules said no; nothing changed)
FAULTS = ("no_memory", "internal", "io")
WRONG_INPUT = ("bad_crc", "bad_fields", "bad_seq", "no_kind", "not_json", "not_object", "too_long", "unknown_kind",
               "bad_press", "bad_range", "wrong_side", "board_reveals")
# what a table can do about a board fault
FAULT_ADVICE = ("The board let that input go and reloaded its game from flash: nothing entered before is lost. "
                "Enter it again; if the fault comes back, restart the board (unplug it and plug it in)")


def error_kind(code):
    """"fault", "input" or "refusal": which of the three an error frame's code is."""
    return "fault" if code in FAULTS else "input" if code in WRONG_INPUT else "refusal"
# the kept games' frames (docs/protocol.md); shared_rules.wire has no constants for them (they
# would be identifiers on the board's boot path)
PULL, ACK, KEPT, OLD = "pull", "ack", "kept", "old"
BACKOFF_FIRST_MS = 500  # reconnect delay (docs/protocol.md): doubles after each failure
BACKOFF_MAX_MS = 10000
# A game switch's answer comes after the board's restart into the new game (firmware/board/reboot.py):
# a boot, which on an emulated chip on a busy machine takes many times a Pico's second
SWITCH_WAIT_S = 60.0
PICO_VID = 0x2E8A  # Raspberry Pi (RP2040/RP2350 boards running MicroPython)


class LinkError(Exception):
    pass


class Diverged(LinkError):
    """An entry of the board's that the host's replay does not give: refused, neither mirrored
    nor stored (the logbook holds only what both sides agree on). `index`: the entry's (from 0)."""

    def __init__(self, index, why):
        super().__init__("entry %d %s" % (index, why))
        self.index = index
        self.why = why  # what is wrong, in words that follow "entry N"


def board_port(port=None):
    """The serial port to a board: `port` if it exists, else the first Raspberry Pi Pico on
    USB (by its vendor id). Raises LinkError saying what to do when there is none."""
    import os

    if port is not None:
        if not os.path.exists(port) and not port.upper().startswith("COM"):
            raise LinkError("there is no serial port %s" % port)
        return port
    from serial.tools import list_ports

    ports = list(list_ports.comports())
    for p in ports:
        if p.vid == PICO_VID:
            return p.device
    found = ", ".join(["%s (%s)" % (p.device, p.description) for p in ports]) or "none"
    raise LinkError("no Raspberry Pi Pico (USB %04x:*) found; serial ports here: %s. Give one with --port, or "
                    "play on the simulated board with `chancery sim` (`python3 run.py`)" % (PICO_VID, found))


class Mirror:
    """What the host knows of the board's game: a match rebuilt from its entries."""

    def __init__(self, welcome):
        self.welcome = welcome
        self.match = engine.new_match(welcome["game"], welcome["settings"], welcome["seed"], recorded=True)
        self.before = self.match["state"]
        if self.match["start"] != welcome["start"]:
            raise LinkError("the board's start digest %s does not match its settings and seed (%s)" % (
                welcome["start"], self.match["start"]))

    def header(self):
        return matches.log_of(dict(self.match, entries=[]))

    @property
    def names(self):
        """The seats' names as the board last said (one per seat, None for a seat without one), or None."""
        return self.welcome.get("names")

    def take_back(self, count):
        """The board's log is `count` entries long now: the mirror drops its later entries
        (returned) and is replayed to the rest."""
        gone = self.match["entries"][count:]
        log = matches.log_of(self.match)
        log["entries"] = self.match["entries"][:count]
        self.match = matches.replay(log)
        self.before = self.match["state"]
        return gone

    def add(self, i, move, events, digest):
        """Apply entry i; returns True if new, False if already known. Raises LinkError on divergence."""
        have = len(self.match["entries"])
        if i < have:
            if self.match["entries"][i]["digest"] != digest:
                raise Diverged(i, "differs from the one mirrored before")
            return False
        if i > have:
            raise LinkError("entry %d arrived before entry %d" % (i, have))
        # step, compare, then append: the mirror's match holds only entries that replayed
        # to the board's own events and digest (nothing appended to be taken back)
        try:
            act, got, state, mine = engine.step(self.match["game"], self.match["state"], move,
                                                engine.last_digest(self.match))
        except RuleError as e:
            raise Diverged(i, "is refused by the rules here: %s" % e)
        differ = [what for what, same in (("events", canon.encode(got) == canon.encode(events)),
                                          ("digest", mine == digest)) if not same]
        if differ:
            raise Diverged(i, "does not replay to the board's events and digest (its %s differ%s from the host's "
                              "replay)" % (" and ".join(differ), "s" if len(differ) == 1 else ""))
        self.before = self.match["state"]  # for narrating this entry's events
        self.match["entries"].append({"action": act, "events": got, "digest": mine})
        self.match["state"] = state
        return True


class Link:
    """A session with one board. `on_event(kind, data)` hears what happens (for the UI)."""

    def __init__(self, port, logbook=None, on_event=None, baudrate=115200, timeout=0.05):
        self.port_name = port
        self.logbook = logbook
        self.on_event = on_event or (lambda kind, data: None)
        self.baudrate = baudrate
        self.timeout = timeout
        self.ser = None
        self.reader = wire.Reader()
        self.seq = 0
        self.mirror = None
        self.game_id = None
        self.answers = {}
        self.probe = None  # {index: digest} while catch-up asks the board for entries to compare
        # An entry frame past the mirror's end: the ones before it were lost (a cable pulled while
        # the board sent them). It is fetched with them, from the board (_fill_gap), not refused.
        self.gap_to = None
        self._fetching = False  # a fetch is under way: a gap it meets is its own to fill
        self.offered = None  # the known names the board was last offered in this session
        self.display = None  # the board's display lines, as its last display frame gave them
        self.kept_head = None  # the last kept frame: a finished game the board keeps (pull_kept)
        self.diverged = None  # the Diverged of the board's entry the host refused last, until one is taken
        self.kept_entries = {}  # its entries as their old frames came: {index: entry}
        self.state = "closed"
        self.backoff_ms = BACKOFF_FIRST_MS

    # --- the port --------------------------------------------------------------

    def open(self):
        try:  # exclusive: one board, one host (a second chancery on the port is told so)
            self.ser = serial.Serial(self.port_name, self.baudrate, timeout=self.timeout, exclusive=True)
        except serial.SerialException as e:
            if "exclusively lock" in str(e):
                raise LinkError("the port %s is in use by another program, most likely another chancery mirror or "
                                "sim: one board has one host; close that one first" % self.port_name)
            raise
        self.reader = wire.Reader()
        self._state("open")

    def close(self):
        if self.ser is not None:
            try:
                self.ser.close()
            except (OSError, serial.SerialException):
                pass
        self.ser = None
        self._state("closed")

    def _state(self, state):
        self.state = state
        self.on_event("link", state)

    def send(self, kind, body=None):
        seq = self.seq
        self.seq = wire.next_seq(seq)
        self.ser.write(wire.encode(seq, kind, body).encode())
        return seq

    # --- reading ---------------------------------------------------------------

    def poll(self, wait=0.0):
        """Read what has arrived (waiting up to `wait` s for the first byte); handle every frame.

        Reads only what the port says is waiting: a blocking read on a pty can be told
        "ready" and then get nothing, which pyserial reports as a disconnected device."""
        deadline = time.monotonic() + wait
        while True:
            waiting = self.ser.in_waiting
            if waiting:
                for item in self.reader.feed(self.ser.read(waiting)):
                    self._handle(item)
                if self.gap_to is not None and not self._fetching and self.state == "live":
                    self._fill_gap()
                if self.reader.idle() and not self.ser.in_waiting:
                    return  # a whole frame or more came: let the caller look
                continue
            if time.monotonic() >= deadline:
                return
            time.sleep(0.002)

    def _handle(self, item):
        if isinstance(item, wire.FrameError):
            self.on_event("noise", item)  # a traceback on the board's stdout, line noise
            return
        seq, kind, body = item
        if kind == wire.WELCOME:
            self._welcome(body)
        elif kind == wire.ENTRY:
            self._entry(body)
        elif kind == wire.STATE:
            self._state_frame(body)
            self.on_event(kind, body)
        elif kind == KEPT:
            self.kept_head = body
        elif kind == OLD:
            if self.kept_head is not None and body.get("id") == self.kept_head.get("id"):
                self.kept_entries[body.get("i")] = {"action": body["move"], "events": body["events"],
                                                    "digest": body["digest"]}
        elif kind in (wire.OK, wire.ERROR, wire.PONG):
            self.answers[body.get("re")] = (kind, body)
            self.on_event(kind, body)
        else:
            if kind == wire.DISPLAY:  # kept: a mirror that starts after the hello shows it at once
                self.display = body.get("lines")
            self.on_event(kind, body)

    def _welcome(self, body):
        before = self.mirror.names if self.mirror is not None else None
        if self.mirror is None or self.mirror.welcome.get("start") != body.get("start") or \
                self.mirror.welcome.get("seed") != body.get("seed"):
            if self.mirror is not None and self.mirror.welcome.get("id") == body.get("id"):
                if self.logbook is not None and self.game_id is not None:
                    self.logbook.close_game(self.game_id, "new_game")  # the same board has started another game
                self.on_event("new_game", body)  # the mirror's line between the games, logbook or not
            self.mirror = Mirror(body)  # a new game (or the first sight of this one)
            self.diverged = None
            if self.logbook is not None:
                self.game_id = self.logbook.begin_game(self.mirror.header(), body.get("id"), body.get("fw"),
                                                       body.get("proto"))
        self.mirror.welcome = body
        names = body.get("names")
        if names is not None and self.logbook is not None and self.game_id is not None:
            from chancery.logbook.store import LogbookError

            try:
                self.logbook.set_names(self.game_id, names)
            except LogbookError as e:  # the board's names, refused here: said, the game goes on
                self.on_event("noise", "the board's names are not stored: %s" % e)
        self.on_event("welcome", body)
        if names is not None and names != before:
            self.on_event("names", names)

    def _state_frame(self, body):
        """A snapshot of the board's log: shorter than the mirror's after an undo."""
        count = body.get("len")
        if self.mirror is None or not isinstance(count, int) or count < 0 \
                or count >= len(self.mirror.match["entries"]):
            return
        self._take_back(count)
        if body.get("digest") != canon.digest(self.mirror.match["state"]):
            # the board took back more than the mirror knew and played on: catch-up finds where
            self.on_event("noise", "the board's state after %d entries is not the mirror's" % count)

    def _take_back(self, count):
        self.diverged = None
        gone = self.mirror.take_back(count)
        if self.logbook is not None and self.game_id is not None:
            self.logbook.take_back(self.game_id, count)
        self.on_event("undo", {"len": count, "entries": gone})

    def _entry(self, body):
        if self.mirror is None:
            return
        if self.probe is not None and body.get("i") in self.probe:
            self.probe[body["i"]] = body.get("digest")
            return
        if body.get("i", 0) > len(self.mirror.match["entries"]):
            self.gap_to = max(self.gap_to or 0, body["i"] + 1)
            return
        try:
            new = self.mirror.add(body["i"], body["move"], body["events"], body["digest"])
        except Diverged as e:  # neither mirrored nor stored: said, and the poll or hello ends
            self.diverged = e
            self.on_event("diverged", {"i": e.index, "why": e.why})
            raise
        self.diverged = None
        if new:
            entry = self.mirror.match["entries"][body["i"]]
            if self.logbook is not None:
                self.logbook.add_entry(self.game_id, body["i"], entry)
            self.on_event("entry", body)

    # --- the session -------------------------------------------------------------

    def hello(self, wait=2.0):
        """Open the session and catch up: hello, welcome, get what is missing."""
        self.answers.clear()
        self.ser.write(b"\n")  # ends whatever half line the board has read before (noise, an echo): a blank line it skips
        self.send(wire.HELLO, {"proto": wire.PROTO})
        deadline = time.monotonic() + wait
        before = self.mirror.welcome if self.mirror else None
        while time.monotonic() < deadline:
            self.poll(0.05)
            if self.mirror is not None and self.mirror.welcome is not before:
                break
        else:
            raise LinkError("nothing on %s answered the hello within %.1f s: is the Chancery firmware on it? "
                            "(`chancery deploy` puts it on a Pico; `chancery sim` starts a simulated board)"
                            % (self.port_name, wait))
        step = max(wait, 5.0)  # each request after the welcome: a caller that waits longer (a slow board) waits so
        self.catch_up(step)
        self.offer_names(step)
        self.pull_kept(step)
        self.backoff_ms = BACKOFF_FIRST_MS
        self._state("live")

    def offer_names(self, wait=5.0):
        """Offer the board the logbook's known names (the most recently seated first, as many as
        a board keeps) for its table menu, when they are not what it was offered last. A board
        that does not take them (older firmware) is left as it is."""
        if self.logbook is None:
            return
        known = self.logbook.known_names(seat_names.MAX_KNOWN)
        if not known or known == self.offered:
            return
        kind, body = self.request(wire.ACT, {"seat": None, "move": {"type": "known_names", "names": known}}, wait)
        if kind == wire.OK:
            self.offered = known
        else:
            self.on_event("noise", "the board did not take the known names: %s" % body.get("code"))

    def _pull(self, kept_id, i, j, wait):
        """Ask for kept game `kept_id` (None: the oldest) and its entries i..j-1: the kept frame
        (its head), or None when the board does not know pull (an older firmware)."""
        self.kept_head = None
        seq = self.send(PULL, {"id": kept_id, "i": i, "j": j})
        deadline = time.monotonic() + wait
        while self.kept_head is None or (self.kept_head.get("id") is not None and
                                         len([k for k in range(i, min(j, self.kept_head.get("len", 0)))
                                              if k not in self.kept_entries]) > 0):
            if seq in self.answers:
                kind, body = self.answers.pop(seq)
                if body.get("code") == "unknown_kind":
                    return None
                raise LinkError("the board could not give its finished game %s: %s %s" % (
                    kept_id, body.get("code"), body.get("message")))
            if time.monotonic() > deadline:
                raise LinkError("the board's finished game %s (entries %d..) did not arrive" % (kept_id, i))
            self.poll(0.05)
        return self.kept_head

    def pull_kept(self, wait=5.0):
        """Store the finished games the board keeps, the oldest first, each acknowledged once it
        is committed to the logbook (the board then frees its room). Returns how many were
        stored. A failure raises LinkError with nothing acknowledged that is not stored."""
        if self.logbook is None or self.mirror is None:
            return 0
        welcome, stored, acked = self.mirror.welcome, 0, set()
        while True:
            self.kept_entries = {}
            head = self._pull(None, 0, FETCH, wait)  # the oldest's head and its first entries: one request
            if head is None or head.get("id") is None:
                return stored
            kept_id, total = head["id"], head.get("len")
            if kept_id in acked:  # pulled again and again, for ever, had the host not stopped here
                raise LinkError("the board still keeps its finished game %s after answering its ack: it is stored; "
                                "the board's flash may be failing" % kept_id)
            if not isinstance(total, int) or not isinstance(head.get("head"), dict):
                raise LinkError("the board's kept frame lacks its game's head or length: %s" % head)
            progress = {"id": kept_id, "left": head.get("left"), "len": total, "game": head["head"].get("game"),
                        "got": 0}
            self.on_event(KEPT, dict(progress))
            while len(self.kept_entries) < total:
                have = len(self.kept_entries)
                self._pull(kept_id, have, min(total, have + FETCH), wait)
                progress["got"] = len(self.kept_entries)
                self.on_event(KEPT, dict(progress))
            entries = [self.kept_entries[k] for k in range(total)]
            try:
                check = Mirror(dict(head["head"], len=total))
                for k in range(total):
                    check.add(k, entries[k]["action"], entries[k]["events"], entries[k]["digest"])
            except (LinkError, RuleError) as e:  # stored as the table entered it all the same: `log show` says
                self.on_event("noise", "the board's finished game %s does not replay here: %s" % (kept_id, e))
            self.logbook.store_kept(head["head"], welcome.get("id"), welcome.get("fw"), welcome.get("proto"),
                                    entries, head.get("names"))
            kind, body = self.request(ACK, {"id": kept_id}, wait)  # committed: the board may let it go
            if kind != wire.OK:
                raise LinkError("the board did not let its stored game %s go: %s" % (kept_id, body.get("code")))
            stored += 1
            acked.add(kept_id)
            progress["left"] = head.get("left", 1) - 1
            self.on_event(KEPT, dict(progress, stored=True))
            self.kept_head, self.kept_entries = None, {}

    def _board_digest(self, i, wait):
        """The digest of the board's entry i (fetched, not applied)."""
        self.probe = {i: None}
        try:
            self.send(wire.GET, {"i": i, "j": i + 1})
            deadline = time.monotonic() + wait
            while self.probe[i] is None:
                if time.monotonic() > deadline:
                    raise LinkError("entry %d did not arrive" % i)
                self.poll(0.05)
            return self.probe[i]
        finally:
            self.probe = None

    def catch_up(self, wait=5.0):
        # Where the two logs part: the mirror keeps its entries up to the last one the board
        # has too (digests chain, so one equal digest vouches for every entry before it).
        entries = self.mirror.match["entries"]
        k = min(len(entries), self.mirror.welcome["len"])
        while k > 0 and self._board_digest(k - 1, wait) != entries[k - 1]["digest"]:
            k -= 1
        if k < len(entries):
            self._take_back(k)
        self._fetch(self.mirror.welcome["len"], wait)
        self.gap_to = None  # the welcome's length covers every entry sent before it

    def _fetch(self, total, wait=5.0):
        """Get the board's entries from the mirror's end up to `total`, FETCH at a time."""
        self._fetching = True
        try:
            while len(self.mirror.match["entries"]) < total:
                have = len(self.mirror.match["entries"])
                self.send(wire.GET, {"i": have, "j": min(total, have + FETCH)})
                deadline = time.monotonic() + wait
                while len(self.mirror.match["entries"]) < min(total, have + FETCH):
                    if time.monotonic() > deadline:
                        raise LinkError("entries %d.. did not arrive" % have)
                    self.poll(0.05)
        finally:
            self._fetching = False

    def _fill_gap(self):
        """Live, an entry came past the mirror's end: get the ones missed, then it."""
        total, self.gap_to = self.gap_to, None
        self._fetch(total)

    def request(self, kind, body, wait=5.0):
        """Send an act or press and wait for its answer: ("ok"|"error", body)."""
        seq = self.send(kind, body)
        deadline = time.monotonic() + wait
        while seq not in self.answers:
            if time.monotonic() > deadline:
                raise LinkError("no answer to %s %d" % (kind, seq))
            self.poll(0.05)
        answer = self.answers.pop(seq)
        if answer[0] == wire.OK and answer[1].get("i") is not None:
            want = answer[1]["i"] + 1
            while len(self.mirror.match["entries"]) < want:  # the entry follows its ok
                if time.monotonic() > deadline:
                    raise LinkError("entry %d did not follow its ok" % answer[1]["i"])
                self.poll(0.05)
        return answer

    def act(self, move, seat=None, wait=5.0):
        if isinstance(move, dict) and move.get("type") == "new_game":
            wait = max(wait, SWITCH_WAIT_S)  # a board may restart into the new game before it answers
        return self.request(wire.ACT, {"seat": seat, "move": move}, wait)

    def press(self, pad, key, hold="short", wait=5.0):
        return self.request(wire.PRESS, {"pad": pad, "key": key, "hold": hold}, wait)

    def connect(self, attempts=None, sleep=time.sleep):
        """Open and hello, retrying with back-off (0.5 s doubling to 10 s) until it works."""
        n = 0
        while True:
            try:
                self.open()
                self.hello()
                return
            except (OSError, serial.SerialException, LinkError) as e:
                self.close()
                n += 1
                if attempts is not None and n >= attempts:
                    raise LinkError("no board after %d %s: %s" % (n, "try" if n == 1 else "tries", e))
                self.on_event("retry", self.backoff_ms)
                sleep(self.backoff_ms / 1000.0)
                self.backoff_ms = min(self.backoff_ms * 2, BACKOFF_MAX_MS)
