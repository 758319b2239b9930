"""Power cuts on the chip: the deployed firmware on the virtual Pico, its real littlefs on a
NOR flash that tears the page or sector being written when the power goes.

Each game runs in one emulator session: the host plays it over the link (and casts some of
The King's Dilemma's sealed votes on the voters' pads, by GPIO); now and then it takes back
the last entry (an undo line), names the seats (a names line), abandons the game for a new
one (the board keeps the old one for the host, as it keeps a finished one), or pulls the
oldest kept game whole, stores it in its logbook and acknowledges it (the board lets it go);
and now and then it cuts the power at a random instant. A good share of the cuts is aimed at
flash writes: the journal's append of an entry, of an undo line or of a names line, the
snapshot the board takes after every 16th entry, the ballot box's write of a sealed vote,
the journal of a new game, the removal of a kept game the host acknowledged, the boot's own
repair of a torn tail. Half of those tear the operation as real NOR may, every bit it was
changing left at its old or its new value at random, the other half as a clean prefix.
After each cut the chip is powered again on the same flash, and the host checks:

- the board answers at all: main.py and the firmware are still on its filesystem, so it
  mounted (the stock _boot.py formats a flash it cannot mount, which would wipe them);
- it plays the same game, with at least every entry the host has had an ENTRY frame for
  (its acknowledgement), each the same entry (action, events, chained digest), and its
  whole state's digest is the host's replay of them;
- a sealed ballot's casts carry no choice, and its reveal holds each cast choice as made;
- an undo or a naming acknowledged (its state frame, its welcome) holds, one cut short is
  there or not;
- the games the board keeps: each one it acknowledged letting go is gone, the others are
  kept, oldest first, as they were played (a game whose ack a cut left unanswered is kept,
  perhaps shorter, or gone and in the host's logbook).

Then play goes on from where the board stands, to the next cut. At the end of every game
the host fetches the whole journal and replays it; at the end of a session it pulls every
kept game whole, and reads a file written with the image, which a format would have removed.

The cuts are drawn from a seeded generator whose seed is drawn afresh for each run (the run's
header and its end say it; CHANCERY_POWER_SEED replays it); a failure prints the seed and every
cut so far. The chip runs busy code several times slower than a Pico, and each cut costs a
boot, so the suite makes 8 cuts (the suite's time), shared between the two games, which run side
by side in two emulators; a nightly run makes 100 (`--cuts 100`, or CHANCERY_POWER_CUTS=100).
"""

import concurrent.futures
import copy
import os
import random
import resource
import subprocess
import sys
import time

import pytest
from chip_link import ChipLink, PowerCut
from conftest import ROOT, needs_uf2

from chancery.vpico import VirtualPico, image
from shared_rules import canon, engine, matches, wire
from shared_rules.errors import RuleError

pytestmark = pytest.mark.slow(order=3)  # takes minutes: started first (tests/conftest.py)

sys.path.insert(0, str(ROOT / "tests" / "mp"))
import random_game  # noqa: E402  (tests/mp: the random legal actions the gate plays too)

CUTS = int(os.environ.get("CHANCERY_POWER_CUTS", "8"))
SEED = int(os.environ["CHANCERY_POWER_SEED"])  # drawn for each run by tests/conftest.py, or given
MARKER = "power-cut-marker.txt"  # written with the image: gone if the filesystem is ever formatted
MARKER_TEXT = b"written with the deployed image"
WAIT = 180  # s of wall time for anything the board does (the chip is slow, the machine may be busy)
SNAPSHOT_EVERY = 16  # firmware/journal/'s Journal(every=16): the board's snapshots
BOOT_NS = 1_100_000_000  # a boot that resumes a game, to its welcome: about 1 s of board time
LONG_MS = 700  # a held pad key (the firmware's long press is 600 ms)
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ivy", "Jo")  # seat names (shared_rules/seat_names.py)
MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


class SessionFailure(AssertionError):
    """A check failed: the message says which, with the seed, the cuts and the last steps."""


class Session:
    """One game on one virtual Pico, played through `cuts` power cuts."""

    def __init__(self, game, settings, seed, cuts, folder):
        self.game, self.settings, self.seed, self.wanted = game, settings, seed, cuts
        self.folder = folder
        self.rng = random.Random(seed)
        self.draw = random_game.Draw(seed)
        self.cuts = []  # one record per cut made
        self.log = []  # what happened, for a failure's message
        self.games = 0  # games begun on the board in this session
        self.entries_acked = 0  # over the whole session, every game
        self.gpio_casts = 0
        self.reveals_checked = 0
        self.full_checks = 0
        self.state_refused = 0  # hellos answered with an error instead of the state frame
        self.undos = self.namings = self.abandoned = self.pulled = self.acks = self.kept_checks = 0
        self.unchecked_acks = 0  # games let go since the board's kept games were last checked
        self.kept = []  # the games the board keeps for the host, oldest first: each as the host had it at its end
        self.logbook = {}  # the host's store of kept games pulled: start digest -> their entries' digests
        self.pending = None  # a table's act or an ack sent and not yet answered: what a cut may leave either way
        self.pull_got = None  # the answer to the last pull: its kept frame and its old frames
        self.step = None  # the last act sent
        self.names = None  # the seats' names the board acknowledged for the game under way
        self.started = time.monotonic()
        self.board_ns = 0  # the board's time the session took

    # --- the run ------------------------------------------------------------------------

    def run(self):
        flash = os.path.join(self.folder, "flash.img")
        image.deployed_image(flash, first={"game": self.game, "settings": self.settings},
                             extra={MARKER: MARKER_TEXT})
        with VirtualPico(flash=flash, pace="free", timeout=WAIT) as vp:
            self.vp = vp
            self.link = ChipLink(vp, self._frame)
            try:
                self.welcome = self.state_body = None
                self.match = None
                self.answers = {}
                self.sent = {}  # (ballot n, seat): [choice, count] last cast for that seat
                self.pending_game = False  # a new_game sent and not yet answered
                self.phase = "boot"
                self.armed = None  # the cut armed and not yet made
                self._hello()
                self._adopt(self.welcome)
                more = 300  # turns without cuts, after the last, until a sealed vote is revealed
                while len(self.cuts) < self.wanted or (self.settings.get("voting") == "sealed" and
                                                       not (self.reveals_checked and self.gpio_casts) and more):
                    more -= len(self.cuts) >= self.wanted
                    try:
                        self._turn()
                    except PowerCut as cut:
                        self._after_cut(cut.event)
                self.vp.uncut()
                self._full_check()
                self._pull_all()
                self.board_ns = vp.now_ns()
            except SessionFailure:
                raise
            except AssertionError as e:
                raise self.failure(str(e)) from None
            except Exception as e:  # the seed in every failure's message, the test's own errors too
                raise self.failure("%s: %s" % (type(e).__name__, e)) from e
            finally:
                self.link.close()
            self._check_filesystem(vp)

    def _note(self, what):
        self.log.append("%6.1f s  %s" % (time.monotonic() - self.started, what))

    def report(self):
        kinds = {}
        for c in self.cuts:
            kinds[c["where"]] = kinds.get(c["where"], 0) + 1
        return kinds

    def failure(self, why):
        cuts = "\n".join(repr(c) for c in self.cuts)
        return SessionFailure("%s (%s, CHANCERY_POWER_SEED=%d: seed %d, after %d cuts)\ncuts so far:\n%s\n"
                              "last steps:\n%s" % (why, self.game, SEED, self.seed, len(self.cuts), cuts,
                                                    "\n".join(self.log[-40:])))

    def check(self, ok, why):
        if not ok:
            raise self.failure(why)

    # --- frames from the board --------------------------------------------------------------

    def _frame(self, seq, kind, body):
        if kind == wire.ENTRY:
            self._entry(body)
        elif kind == wire.WELCOME:
            self.welcome = body
            if self.pending and "names" in self.pending and body.get("names") == self.pending["names"]:
                self.pending["acked"] = True  # the names' welcome: they are on flash
        elif kind == wire.STATE:
            self.state_body = body
            if self.pending and "undo" in self.pending and body["len"] == self.pending["undo"] - 1:
                self.pending["acked"] = True  # the shorter log: the undo line is on flash
        elif kind == "kept":  # a pull's answer (no constant in wire: firmware/kept.py)
            self.pull_got = {"head": body, "old": []}
        elif kind == "old":
            self.check(self.pull_got is not None and body["id"] == self.pull_got["head"]["id"],
                       "an old frame of another kept game than the one pulled: %r" % body)
            self.pull_got["old"].append(body)
        elif kind in (wire.OK, wire.ERROR, wire.PONG):
            self.answers[body.get("re")] = (kind, body)
        elif kind == wire.DISPLAY:
            self._note("  display %r" % (body["lines"],))

    def _entry(self, body):
        """An ENTRY frame: acknowledged. The host replays it (its events and digest must
        come out the same), or, if it has it already, it must be the same entry."""
        i, have = body["i"], len(self.match["entries"])
        if i < have:
            mine = self.match["entries"][i]
            self.check(mine["digest"] == body["digest"] and canon.encode(mine["action"]) == canon.encode(body["move"]),
                       "entry %d on the board differs from the one acknowledged: %r, host had %r" % (i, body, mine))
            return
        self.check(i == have, "entry %d arrived, the host has %d" % (i, have))
        move = body["move"]
        if move.get("type") == "ballot_cast":
            self.check("choice" not in move and "count" not in move, "a cast's entry shows its choice: %r" % move)
        before = self.match["state"]
        if move.get("type") == "ballot_reveal":
            self._check_reveal(before["ballot"], move)
        try:
            got = engine.apply(self.match, move)
        except RuleError as e:
            raise self.failure("entry %d does not replay on the host: %s" % (i, e))
        self.check(got["digest"] == body["digest"] and canon.encode(got["events"]) == canon.encode(body["events"]),
                   "entry %d's events or digest differ from the host's replay" % i)
        self.entries_acked += 1

    def _check_reveal(self, b, move):
        """Each voter who cast has the choice (and count) cast last for that seat; the others none."""
        for k, seat in enumerate(b["voters"]):
            want = self.sent.get((b["n"], seat)) if seat in b["voted"] else None
            got = [move["choices"][k], (move.get("amounts") or [None] * len(b["voters"]))[k]]
            self.check(got == (want or [None, None]), "ballot %d: seat %d's vote is revealed as %r, it cast %r" % (
                b["n"], seat, got, want))
        self.reveals_checked += 1

    # --- one turn of play, and what may cut it ----------------------------------------------

    def _turn(self):
        g = engine.game_module(self.match["game"])
        state = self.match["state"]
        if g.is_over(state):
            if self.checked != len(self.match["entries"]):
                self._full_check()
            return self._new_game()
        path = self._path()
        if path is not None:
            return path()
        b = state.get("ballot")
        if b is not None and b["open"]:
            return self._cast(b)
        move = self._legal_move(g, state)
        plan = None
        if (len(self.match["entries"]) + 1) % SNAPSHOT_EVERY:  # else let the entry be, for its snapshot's cut
            plan = self._maybe(0.45, ["journal"] * 4 + ["timed"] * 2 + ["idle"])
        self._act(move, None, plan)

    def _path(self):
        """Now and then, instead of a game's action, while the session has cuts to make: pull and
        acknowledge the oldest game the board keeps, take back the last entry (not twice in a row:
        an undo replays the game on the chip, seconds of its time), name the seats, or abandon the
        game for a new one (not a sealed vote's before it is revealed: run() waits for that)."""
        rng, entries = self.rng, self.match["entries"]
        if len(self.cuts) >= self.wanted:
            return None
        if self.kept and rng.random() < 0.3:
            return self._pull_one
        r, last = rng.random(), self.step
        if r < 0.05 and entries and entries[-1]["action"].get("type") != "ballot_reveal" and (
                last is None or last["sent"]["type"] != "undo"):  # a reveal stays
            return self._undo
        if r < 0.1:
            return self._name
        if r < 0.15 and (self.settings.get("voting") != "sealed" or self.reveals_checked and self.gpio_casts):
            return self._abandon
        return None

    def _maybe(self, p, plans):
        """One of plans with probability p, unless a cut is armed already or the session has
        made its cuts (it plays on without any until its sealed vote is revealed: run)."""
        if self.armed is None and len(self.cuts) < self.wanted and self.rng.random() < p:
            return self.rng.choice(plans)
        return None

    def _legal_move(self, g, state):
        """A random action the rules take now (tried on a copy first: refusals cost the chip's
        time and test nothing here). A roll leaves its dice to the board."""
        players = self.match["settings"]["players"]
        for _ in range(200):
            move = random_game.action(self.draw, self.draw.pick(g.legal(state, None)), players, g.card_names(state))
            trial = dict(move)
            if move["type"] == "roll":
                move = {"type": "roll"}
                trial = {"type": "roll", "values": [1] * g.dice_wanted(state), "source": "board"}
                if g.dice_wanted(state) == 0:
                    continue
            if matches.try_apply(copy.deepcopy(self.match), trial)[1] is None:
                return move
        raise self.failure("no legal action found for the host to send")

    def _arm(self, plan):
        """Arm the plan's cut; returns the plan as recorded."""
        vp, rng = self.vp, self.rng
        if plan in ("journal", "ballot", "snapshot", "upkeep", "new_game", "undo", "names", "ack"):
            # a journal append (an entry, an undo line, a names line) programs a page or a few; the
            # rest (littlefs files written, a kept game's reservations removed) may erase a sector too
            during = "erase" if plan not in ("journal", "undo", "names") and rng.random() < 0.35 else "program"
            skip = rng.randrange(2 if during == "erase" else {"journal": 3, "ballot": 5, "snapshot": 4, "upkeep": 4,
                                                               "new_game": 6, "undo": 2, "names": 2, "ack": 3}[plan])
            # half the tears leave the operation's changing bits half done (real NOR), half a clean prefix
            bits = rng.randrange(1, 1 << 31) if rng.random() < 0.5 else None
            vp.arm_cut(after_ns=0, during=during, skip=skip, frac=rng.uniform(0.02, 0.98), bits=bits)
            return {"plan": plan, "during": during, "skip": skip, "bits": bits}
        if plan == "timed":  # anywhere in the act: its frame read, the rules, the write, the redraw
            after = rng.randrange(250_000_000)
            vp.arm_cut(after_ns=after)
            return {"plan": plan, "after_ms": after // 1_000_000}
        if plan == "idle":
            after = rng.randrange(30_000_000)
            vp.arm_cut(after_ns=after)
            return {"plan": plan, "after_ms": after // 1_000_000}
        raise ValueError(plan)

    def _act(self, move, seat, plan):
        """Send one action (a game's, or the table's own: new_game, undo, names); wait for its
        answer, then for the board to be idle again (a PING's PONG: it answers frames in order,
        after the snapshot an entry may have made due)."""
        armed = None
        if plan in ("journal", "ballot", "new_game", "undo", "names"):
            armed = self._arm(plan)
        what, n = move["type"], len(self.match["entries"])
        self.phase = {"ballot_cast": "ballot", "new_game": "new_game", "undo": "undo", "names": "names"}.get(
            what, "journal")
        self.pending_game = what == "new_game"
        # what the board says before its ok, once the act is on flash (its acknowledgement), or a cut may leave
        self.pending = {"undo": {"undo": n}, "names": {"names": move.get("names")},
                        "new_game": {"new_game": move.get("names")}}.get(what)
        self.state_body = None
        seq = self.link.send(wire.ACT, {"seat": seat, "move": move})
        self.step = {"sent": move, "seat": seat}
        self._note("act %s seat %r, entries %d%s" % (canon.encode(move), seat, n, ", cut %r" % armed if armed else ""))
        if plan == "timed":
            armed = self._arm(plan)
            self._note("  cut %r" % armed)
        if armed:
            self.armed = armed
        self.link.wait(lambda: seq in self.answers, WAIT, "an answer to %s" % what)
        kind, body = self.answers.pop(seq)
        if kind == wire.ERROR:
            if what == "new_game" and body.get("code") == "flash_full" and self.kept:
                self.pending_game, self.pending = False, None
                self._note("  the flash is full: the host pulls the games it keeps first")
                self._settle(None)
                self._pull_all()
                return self._act(move, seat, None)
            raise self.failure("the board refused %r: %r" % (move, body))
        if what == "new_game":
            self.check(self.welcome["len"] == 0 and self.welcome.get("names") == move.get("names"),
                       "the new game's welcome: %r" % self.welcome)
            self._adopt(self.welcome)
        elif what == "undo":
            self.check(self.pending.get("acked"), "the undo's ok came before its state frame (%d entries): %r" % (
                n - 1, self.state_body))
            self._taken_back()
            self.check(canon.digest(self.match["state"]) == self.state_body["digest"],
                       "the board's state after the undo is not the host's replay of %d entries" % (n - 1))
        elif what == "names":
            self.check(self.pending.get("acked"), "the names' ok came before a welcome with them: %r" % self.welcome)
            self.names = move["names"]
            self.namings += 1
        else:
            self.check(body["i"] is not None and body["i"] < len(self.match["entries"]),
                       "ok %r came before its entry" % body)
        self.pending = None
        self._settle(plan)

    def _taken_back(self):
        """The board took back the last entry: so does the host."""
        self.match = matches.undo(self.match, 1)
        self.undos += 1
        self._note("  entry %d taken back" % len(self.match["entries"]))

    def _undo(self):
        n = len(self.match["entries"])
        self._act({"type": "undo", "entry": n - 1}, None, self._maybe(0.5, ["undo", "undo", "timed"]))

    def _name(self):
        """Name the seats (a names line on the journal): distinct names, some seats left without."""
        players = self.match["settings"]["players"]
        names = [n if self.rng.random() < 0.8 else None for n in self.rng.sample(NAMES, players)]
        self._act({"type": "names", "names": names}, None, self._maybe(0.5, ["names", "names", "timed"]))

    def _abandon(self):
        """A new game before this one is over: the board keeps this one for the host, as a finished one."""
        self.abandoned += 1
        self._new_game()

    def _settle(self, plan):
        """After an entry: the snapshot window (a cut aimed at it, when one is due), then idle."""
        self.phase = "after"
        if len(self.match["entries"]) % SNAPSHOT_EVERY == 0:
            plan = self._maybe(0.9, ["snapshot"]) or plan
        else:  # the journal's upkeep in Table.idle(), when it writes (else the cut is called off)
            plan = self._maybe(0.3, ["upkeep"]) or plan
        if plan in ("snapshot", "upkeep"):
            self.armed = self._arm(plan)
            self._note("  cut %r" % self.armed)
        self._quiet()
        if plan == "idle":
            self.armed = self._arm("idle")
            self._note("  cut %r" % self.armed)
            self.link.wait(lambda: False, WAIT, "the idle cut")

    def _quiet(self):
        """The board idle again (a PING's PONG); a cut aimed at a flash write that has not come
        is called off."""
        seq = self.link.send(wire.PING)
        self.link.wait(lambda: seq in self.answers, WAIT, "a pong")
        self.answers.pop(seq)
        self.phase = "idle"
        if self.armed and self.armed.get("during"):
            if not self.vp.uncut():  # called off unless it is being made this very moment
                self.link.drain(0.1)
                cut = self.link.new_cut()
                if cut is not None:
                    raise PowerCut(cut)
            self._note("  (no such flash write: the cut was called off)")
            self.armed = None

    def _cast(self, b):
        """A sealed vote for the next voter: over the link, or on the voter's pad (GPIO)."""
        seat = [s for s in b["voters"] if s not in b["voted"]][0]
        rng = self.rng
        choice = rng.choice(b["options"])
        count = rng.randint(1, 3) if choice in (b.get("counted") or []) else None
        self.sent[(b["n"], seat)] = [choice, count]
        plan = self._maybe(0.6, ["ballot"])
        if rng.random() < 0.4 and self._pad_keys(b, choice) is not None:
            return self._cast_on_pad(b, seat, choice, count, plan)  # no timed cut: a press left would come after it
        move = {"type": "ballot_cast", "choice": choice}
        if count is not None:
            move["count"] = count
        self._act(move, seat, plan or self._maybe(0.3, ["timed"]))

    def _pad_keys(self, b, choice):
        """(button, counted) of the pad key that casts `choice` (firmware/ballot_box.key: up,
        select, down are the first three options; holding select casts the fourth)."""
        i = b["options"].index(choice)
        if i < 3:
            return i, choice in (b.get("counted") or [])
        if i == 3 and b["options"][1] not in (b.get("counted") or []):
            return 1, None  # held select, its option taking no count: the fourth option
        return None

    def _cast_on_pad(self, b, seat, choice, count, plan):
        """Press the voter's pad keys on their GPIOs: a counted option is tapped count times
        and then held (held alone: a count of 1), any other tapped once (held, for the
        fourth). The cast is acknowledged by its ENTRY frame."""
        key, counted = self._pad_keys(b, choice)
        button = seat * 3 + key
        presses = [80] * (count if counted and count > 1 else 0) + [LONG_MS if counted or key == 1 and
                                                                     b["options"].index(choice) == 3 else 80]
        armed = self._arm(plan) if plan else None
        self.phase = "ballot"
        want = len(self.match["entries"]) + 1
        at = self.vp.now_ns() + 20_000_000
        for hold in presses:
            at = self.vp.press_button(button, hold_ms=hold, at=at)[1] + 150_000_000
        self.gpio_casts += 1
        self.step = {"sent": {"type": "ballot_cast", "pad": presses}, "seat": seat}
        self._note("pad cast seat %d %r %r by %r, entries %d%s" % (seat, choice, count, presses,
                                                                       want - 1, ", cut %r" % armed if armed else ""))
        if armed:
            self.armed = armed
        self.link.wait(lambda: len(self.match["entries"]) >= want, WAIT, "the pad's cast")
        self._settle(None)

    def _new_game(self):
        plan = self._maybe(0.5, ["new_game"])
        move = {"type": "new_game", "game": self.game, "settings": self.settings}
        if self.rng.random() < 0.3:  # the new game's seats named in the same act
            move["names"] = list(self.rng.sample(NAMES, self.match["settings"]["players"]))
        self._act(move, None, plan)

    # --- the games the board keeps for the host ----------------------------------------------

    def _pull(self, i, j):
        """Pull the oldest kept game: its kept frame, and its old frames from i up to j."""
        self.pull_got = None
        self.link.send("pull", {"id": None, "i": i, "j": j})

        def done():
            got = self.pull_got
            return got is not None and (got["head"]["id"] is None or
                                        len(got["old"]) >= max(0, min(j, got["head"]["len"]) - i))
        self.link.wait(done, WAIT, "a pull's answer")
        return self.pull_got

    def _kept_check(self, whole=False):
        """The board's oldest kept game against the host's: every game the board acknowledged
        letting go is gone, the others are kept, oldest first. A game whose ack a cut left
        unanswered is either gone (the host's logbook has it) or kept, perhaps with fewer entries
        (its reservations go the last first). Its head is checked, and with `whole` each entry.
        Returns the kept frame."""
        self.phase = "pull"
        got = self._pull(0, 0x3FFFFFFF if whole else 0)
        head = got["head"]
        self.kept_checks += 1
        self.unchecked_acks = 0
        if self.pending and "ack" in self.pending:  # a cut came before the ack's answer
            if head["id"] is None or head["head"]["start"] != self.kept[0]["start"]:
                gone = self.kept.pop(0)
                self.check(self.logbook.get(gone["start"]) == [e["digest"] for e in gone["entries"]],
                           "kept game %s is gone, and not in the host's logbook" % gone["start"])
                self.acks += 1
                self._note("  the ack's game is gone")
            else:
                self.kept[0]["cut"] = True
                self._note("  the ack's game is still kept (%d entries)" % head["len"])
            self.pending = None
        if not self.kept:
            self.check(head["id"] is None and head["left"] == 0,
                       "the board keeps a game the host does not know: %r" % head)
            return head
        want = self.kept[0]
        self.check(head["id"] is not None and (head["head"]["start"], head["head"]["seed"]) == (
            want["start"], want["seed"]), "the board's oldest kept game is not the host's (start %s, seed %d): %r" % (
            want["start"], want["seed"], head))
        self.check(head["left"] == len(self.kept), "the board keeps %d games, the host knows of %d" % (
            head["left"], len(self.kept)))
        length = len(want["entries"])
        if want.get("cut"):  # its ack cut short: a prefix of it, its names line perhaps gone
            self.check(head["len"] <= length, "the kept game has %d entries, it had %d" % (head["len"], length))
        else:
            self.check(head["len"] == length and head.get("names") == want["names"],
                       "the oldest kept game has %d entries and names %r, the host's %d and %r" % (
                           head["len"], head.get("names"), length, want["names"]))
        if whole:
            old = got["old"]
            self.check([o["i"] for o in old] == list(range(head["len"])), "pull brought entries %r" % [
                o["i"] for o in old])
            for o, mine in zip(old, want["entries"]):
                self.check(o["digest"] == mine["digest"] and canon.encode(o["move"]) == canon.encode(mine["action"])
                           and canon.encode(o["events"]) == canon.encode(mine["events"]),
                           "kept game %s's entry %d is not as played: %r, the host's %r" % (
                               want["start"], o["i"], o, mine))
        return head

    def _pull_one(self):
        """The host stores the oldest kept game, as pulled whole, then acknowledges it: the board
        lets it go (a cut may be aimed at that)."""
        head = self._kept_check(whole=True)
        if head["id"] is None:
            return
        want = self.kept[0]
        self.logbook[want["start"]] = [e["digest"] for e in want["entries"]]  # as played: checked whole or a prefix
        self.pulled += 1
        plan = self._maybe(0.5, ["ack", "ack", "timed"])
        armed = self._arm(plan) if plan else None
        self.phase = "ack"
        self.pending = {"ack": head["id"]}
        seq = self.link.send("ack", {"id": head["id"]})
        self._note("ack kept game %d (start %s, %d entries)%s" % (head["id"], want["start"], head["len"],
                                                                   ", cut %r" % armed if armed else ""))
        if armed:
            self.armed = armed
        self.link.wait(lambda: seq in self.answers, WAIT, "an answer to the ack")
        kind, body = self.answers.pop(seq)
        self.check(kind == wire.OK, "the board did not let kept game %d go: %r" % (head["id"], body))
        self.kept.pop(0)
        self.acks += 1
        self.unchecked_acks += 1  # the next cut is followed by a check that it is gone
        self.pending = None
        self._quiet()

    def _pull_all(self):
        """Every kept game pulled and acknowledged (no cuts any more), and then none kept."""
        while self.kept:
            self._pull_one()
        if self.unchecked_acks:
            self._kept_check()

    # --- after a cut ----------------------------------------------------------------------

    def _after_cut(self, event):
        self.link.drain()  # what the board sent before the power went is acknowledged too
        while True:
            self._record(event)
            self.vp.uncut()  # one cut at a time: none left over from before this one
            try:
                self._boot()
                return
            except PowerCut as cut:
                event = cut.event

    def _record(self, event):
        torn = event.get("torn")
        where = {"journal": "journal append", "ballot": "ballot cast", "new_game": "new game", "boot": "boot",
                 "idle": "idle", "after": "", "undo": "undo", "names": "names", "pull": "pull",
                 "ack": "kept game's ack"}[self.phase]
        if self.phase == "after":  # Table.idle(): the snapshot when one is due, the journal's upkeep
            where = "snapshot" if len(self.match["entries"]) % SNAPSHOT_EVERY == 0 else "upkeep after an entry"
        record = {"where": "%s, %s" % (where, "torn %s" % torn["kind"] if torn else "no write"),
                  "armed": getattr(self, "armed", None), "entries": len(self.match["entries"]), "t": event["t"]}
        if torn:
            record["torn"] = ("%s 0x%x %d of %d" % (torn["kind"], torn["addr"], torn["done"], torn["of"])
                              if torn.get("bits") is None else "%s 0x%x, bits half done in %d of the %d bytes "
                              "changing of %d" % (torn["kind"], torn["addr"], torn["halfBytes"], torn["changing"],
                                                  torn["of"]))
        self.cuts.append(record)
        self._note("CUT %r" % record)
        self.armed = None

    def _boot(self):
        """Power on again; maybe cut the boot itself; then hello and the checks."""
        self.phase = "boot"
        t = self.vp.boot(wait_usb=False, timeout=WAIT)
        if len(self.cuts) < self.wanted and self.rng.random() < 0.12:
            self.armed = {"plan": "boot", "at_ms": self.rng.randrange(BOOT_NS) // 1_000_000}
            self.vp.arm_cut(at=t + self.armed["at_ms"] * 1_000_000)
        elif len(self.cuts) < self.wanted and self.cuts[-1]["where"].startswith(("journal append, torn", "undo, torn", "names, torn")) and \
                self.rng.random() < 0.5:
            self.armed = {"plan": "boot", "during": "program"}  # the boot's repair of the torn tail, if it writes
            bits = self.rng.randrange(1, 1 << 31) if self.rng.random() < 0.5 else None
            self.vp.arm_cut(at=t, during="program", frac=self.rng.uniform(0.02, 0.98), bits=bits)
        self.vp.wait_usb(WAIT)
        self._hello()
        self._note("booted at %d ms, welcome at %d ms of board time" % (t // 1_000_000, self.vp.now_ns() // 1_000_000))
        self._resumed()
        if self.armed and self.armed.get("during"):
            self.vp.uncut()  # the boot wrote nothing (or the cut is being made: the next wait sees it)
            self.armed = None

    def _hello(self):
        """Hello, and the board's welcome (its game, length and state digest). The state frame
        that follows may be refused by the board's own encoder (test_a_hello_after_a_sealed_
        vote_sends_the_state below): its error answers the hello instead."""
        self.link.fresh()
        self.welcome = self.state_body = None
        seq = self.link.send(wire.HELLO, {"proto": wire.PROTO})
        try:
            self.link.wait(lambda: self.welcome is not None and (self.state_body is not None or seq in self.answers),
                           WAIT, "a welcome")
        except AssertionError as e:
            raise self.failure("the board does not answer after the boot (%s); its filesystem: %s" % (
                e, self._listing()))
        if self.answers.pop(seq, None) is not None:
            self.state_refused += 1

    def _adopt(self, welcome):
        """A new game: the host's match from the welcome (its start must follow from it). The
        board keeps the game it ends for the host, as the host had it."""
        if self.match is not None:
            self.kept.append({"start": self.match["start"], "seed": self.match["seed"],
                              "entries": list(self.match["entries"]), "names": self.names})
        self.names = welcome.get("names")
        self.match = engine.new_match(welcome["game"], welcome["settings"], welcome["seed"])
        self.check(self.match["start"] == welcome["start"], "the welcome's start digest: %r" % welcome)
        self.pending_game = False
        self.sent = {}
        self.checked = None  # the entries the last whole check of this game saw
        self.games += 1
        self._note("game %d: %s seed %d" % (self.games, welcome["game"], welcome["seed"]))

    def _resumed(self):
        """The board after a cut: the same game (or the new one, if it was being begun), every
        acknowledged entry the same, then those it journalled without the host hearing."""
        w = self.welcome
        mine = self.match
        pending = self.pending if self.pending and "ack" not in self.pending else None
        was_new = self.pending_game  # a cut in a new game's start: the board keeps the old game, or not yet
        if (w["start"], w["seed"]) != (mine["start"], mine["seed"]):
            self.check(self.pending_game, "the board plays another game after the cut: %r; the host's: seed %d, "
                                          "%d entries" % (w, mine["seed"], len(mine["entries"])))
            # its names may be torn, a line after its header: the act was not acknowledged
            self.check(w.get("names") in (None, pending["new_game"]), "the new game's names: %r" % w)
            self._adopt(w)
        elif pending and "undo" in pending:
            n = pending["undo"]
            self.check(w["len"] == n - 1 or not pending.get("acked"),
                       "the undo acknowledged (a state frame of %d entries) is lost: the board has %d" % (n - 1, w["len"]))
            if w["len"] == n - 1:
                self._taken_back()
        elif pending and "names" in pending:
            self.check(w.get("names") == pending["names"] or not pending.get("acked") and w.get("names") == self.names,
                       "the seats' names after the cut: %r; acknowledged %r, sent %r" % (
                           w.get("names"), self.names, pending["names"]))
            if w.get("names") != self.names:
                self.names = w.get("names")
                self.namings += 1
        self.pending_game = False
        self.pending = None if pending else self.pending
        self.check(w.get("names") == self.names, "the seats' names after the cut: %r, the host's %r" % (
            w.get("names"), self.names))
        have = len(self.match["entries"])
        self.check(w["len"] >= have, "%d acknowledged entries, the board has %d after the cut" % (have, w["len"]))
        self._get(max(0, have - 1), w["len"])  # the last acknowledged entry as kept, and any the host missed
        self.check(canon.digest(self.match["state"]) == w["digest"] == (self.state_body or w)["digest"],
                   "the board's state after %d entries is not the host's replay of them" % w["len"])
        self.phase = "idle"
        self._note("resumed: %d entries (%d acknowledged before the cut)" % (w["len"], have))
        if self.kept or self.pending or self.unchecked_acks or was_new:  # the games the board keeps for the host
            self._kept_check()

    def _get(self, i, j):
        """Fetch entries i..j-1; each is compared with the host's, or replayed if new."""
        if i >= j:
            return
        self.link.send(wire.GET, {"i": i, "j": j})
        got = []
        handle = self.link.handle

        def take(seq, kind, body):
            if kind == wire.ENTRY:
                got.append(body["i"])
            handle(seq, kind, body)
        self.link.handle = take
        try:
            self.link.wait(lambda: got and got[-1] == j - 1, WAIT, "entries %d..%d" % (i, j - 1))
        finally:
            self.link.handle = handle
        self.check(got == list(range(i, j)), "get %d..%d brought entries %r" % (i, j - 1, got))

    def _full_check(self):
        """The board's whole journal of this game: each entry as acknowledged, and the log
        replays from its header (the chain of digests holds)."""
        self.phase = "idle"
        n = len(self.match["entries"])
        self._get(0, n)
        log = dict(matches.log_of(self.match), entries=[dict(e) for e in self.match["entries"]])
        try:
            matches.replay(log)
        except matches.LogError as e:
            raise self.failure("the journal does not replay: %s" % e)
        self.full_checks += 1
        self.checked = n

    # --- the filesystem -------------------------------------------------------------------

    def _listing(self):
        try:
            return _board_exec(self.vp.port, "import os; print(sorted(os.listdir('/')), os.listdir('/chancery'))")
        except Exception as e:  # the board may be gone altogether
            return "(not readable: %s)" % e

    def _check_filesystem(self, vp):
        out = _board_exec(vp.port, "print(open('/%s').read()); import os; print('main.py' in os.listdir('/'))"
                          % MARKER)
        self.check(out.split() [-1:] == ["True"] and MARKER_TEXT.decode() in out,
                   "the filesystem lost the files written with the image (formatted?): %r" % out)


def _board_exec(port, code):
    run = subprocess.run([MPREMOTE, "connect", port, "exec", code], capture_output=True, text=True, timeout=WAIT)
    return run.stdout + run.stderr


@needs_uf2
@pytest.mark.timeout(max(900, 60 * CUTS))  # the suite's 8 cuts take about 2 minutes; a nightly 100 far longer
def test_power_cuts_during_games_lose_no_acknowledged_entry(tmp_path):
    """CUTS power cuts, half in a Chancellors session and half in The King's Dilemma's with
    its sealed vote (some cast on the pads), the two emulators side by side."""
    plans = [("chancellors", {"players": 4}), ("kings_dilemma", {"players": 4, "voting": "sealed"})]
    sessions = []
    for k, (game, settings) in enumerate(plans):
        folder = tmp_path / game
        folder.mkdir()
        share = CUTS // len(plans) + (1 if k < CUTS % len(plans) else 0)
        sessions.append(Session(game, settings, SEED * 10 + k, share, str(folder)))
    started, cpu = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    with concurrent.futures.ThreadPoolExecutor(len(sessions)) as pool:
        results = [pool.submit(s.run) for s in sessions]
        errors = [r.exception() for r in results]
    for s in sessions:
        print("%s: %d cuts %r; %d games (%d abandoned), %d entries acknowledged, %d taken back, %d namings, "
              "%d pad casts, %d reveals checked, %d whole journals checked, %d kept games pulled whole, %d let go, "
              "%d checks of the kept games, %d hellos without a state frame; %.0f s of board time" % (
                  s.game, len(s.cuts), s.report(), s.games, s.abandoned, s.entries_acked, s.undos, s.namings,
                  s.gpio_casts, s.reveals_checked, s.full_checks, s.pulled, s.acks, s.kept_checks, s.state_refused,
                  s.board_ns / 1e9))
    kinds = {}
    for s in sessions:
        for where, n in s.report().items():
            kinds[where] = kinds.get(where, 0) + n
    print("all cuts: %s" % ", ".join("%s %d" % (k, kinds[k]) for k in sorted(kinds)))
    print("wall %.0f s; the emulators' CPU %.0f s" % (time.monotonic() - started,
                                                     resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu))
    for e in errors:
        if e is not None:
            raise e
    assert sum(len(s.cuts) for s in sessions) == CUTS, "CHANCERY_POWER_SEED=%d" % SEED
    kd = sessions[1]
    assert kd.reveals_checked and kd.gpio_casts, (
        "the sealed vote was never cast on the pads and revealed (CHANCERY_POWER_SEED=%d)" % SEED)


def test_a_hello_after_a_sealed_vote_sends_the_state(tmp_path):
    """Found by the power cuts: after The King's Dilemma's first sealed vote is revealed
    (4 seats), the hello that follows a boot cannot send its state frame: the public view
    makes it longer than a frame may be (wire.MAX_FRAME), and the board answers the hello
    with an internal error instead. Here on CPython, with the board's own table."""
    from firmware.journal import Journal
    from firmware.link import Link
    from firmware.table import Table

    sent = []
    table = Table(Journal(str(tmp_path)),
                  lambda n: b"\x01" * n, "kings_dilemma", {"players": 4, "voting": "sealed"}, "kd").boot()
    host = Link(table, lambda kind, body: sent.append(wire.encode(0, kind, body)))
    host.frame(0, wire.HELLO, {"proto": wire.PROTO})
    table.act({"type": "roll", "values": [1, 2, 1, 2, 1], "source": "manual"})
    for seat, choice, count in ((0, "aye", 3), (1, "nay", 2), (2, "gather", None), (3, "aye", 1)):
        table.act(dict({"type": "ballot_cast", "choice": choice}, **({"count": count} if count else {})), seat)
    assert table.state["ballot"]["result"] is not None  # revealed
    del sent[:]
    host.frame(1, wire.HELLO, {"proto": wire.PROTO})
    kinds = [wire.decode(line)[1] for line in sent]
    assert kinds == [wire.WELCOME, wire.STATE]
