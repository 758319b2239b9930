"""Every kind of completing input on the emulated chip, per game: press to frame, boot and game switch.

    python tools/chip/input_kinds.py [--samples N] [--seed S] [--games G ...] [--write]
    (or tools/bench_chip.py --only kinds [--write])

The deployed firmware runs standalone from main.py on the virtual Pico (vpico.image.deployed_image:
the code in ROMFS where the firmware has the partition), each game at its most seats. Its buttons are
pressed on their GPIO pins, contact bounce and all (tools/chip/press_play.py's Board and GpioPlayer,
a host listening on the USB serial only to read the screens and the game: with it the board also
builds the frames it sends that host, after the strip's frame, an undo's state frame too:
firmware/undo.py lights the LEDs first). Random legal play brings the board to each kind's situation: a menu's action is the one
of the fewest presses of a few drawn, and The Council's reveal ballot, some 40 entries in, is reached
by actions over the link (Chip.advance), as The King's Dilemma's sealed one. Each input is timed from
the edge that completes it (a tap's release; a hold's long instant, long_ms after its first edge) to
the last bit of the first strip frame that shows the state after it (render() of the mirror's view
through the current limiter), in the chip's own simulated ns. The kinds (KINDS):

- the table's push held while the game wants the board's dice: the board's roll, computed ahead
  once the board has idled (firmware/ahead.py computes a roll, a menu's confirm, a vote pad's hold
  and a ballot's close while their press is awaited); a roll as the first input after a boot or a
  game switch is the one with nothing ahead;
- a menu's confirm (select on its confirm screen) once the board has idled, its entry computed
  ahead; and "at once": the select completing 20 ms after a down on the same confirm screen, while
  the board is still busy with that key and the look ahead it takes again after it;
- The King's Dilemma's vote pad hold: after taps (AYE/NAY counted, PASS selected) or a stay, when
  the board knows the hold's entry ahead; and the hold alone (a Power of 1, a pass to gather) on a
  House's first turn, which it cannot know;
- a sealed ballot's cast on the voter's pad: the hold after taps that counted or marked, when the
  board knows the cast ahead (its choice kept for the private box until the press); and a cast
  alone (a tap that casts, or a hold with no tap before it), which it cannot know; and its close by the table's push held (with the board's reveal after it, to the reveal's
  frame): after idle (computed ahead), and as the first input after a boot (nothing ahead: no scan
  or link frame has run the board's idle()), each from the same flash saved with the ballot open.
  The King's Dilemma's are timed with voting=sealed, The Council's at its reveal;
- an undo: the table menu's confirm of undo, to the frame of the state before the entry;
- the first input after a boot: the board powered on with its game resumed from the flash and no
  host frame before the input (the table's roll where dice are due, the close where a ballot is
  open; else the host's hello, then a menu entry, whose confirm is timed);
- the first input after a game switch, as the next random action is entered in the new game.

Boot is power-on (the virtual Pico's start) to the last bit of the resumed game's first frame;
a switch, the table menu's confirm of new_game (its settings' select) to the last bit of the new
game's first frame, across the rp2 board's restart. The goal (issue 42, part 4): a median of 10 ms
or less and a max of 20 ms or less for every kind of input. A report, never asserted.
"""

import argparse
import json
import os
import pathlib
import shutil
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
for p in (str(ROOT / "host"), str(ROOT), str(ROOT / "tools" / "chip"), str(ROOT / "tests" / "helpers"),
          str(ROOT / "tests" / "mp")):
    if p not in sys.path:
        sys.path.insert(0, p)

import make_log  # noqa: E402
import press_play  # noqa: E402
import stamps  # noqa: E402
from chip_player import ballot_keys  # noqa: E402
from menu_player import TABLE_PAD, MenuPlayer  # noqa: E402
from random_game import Draw  # noqa: E402

from chancery.vpico import VirtualPico, image  # noqa: E402
from shared_rules import engine  # noqa: E402
from shared_rules import games as game_list  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402
from shared_rules.schema import action, param  # noqa: E402

GAMES = tuple(game_list.GAMES)
GOAL_MEDIAN_MS, GOAL_MAX_MS = 10, 20
# (key, the row's words): the table's rows, in order
KINDS = (("boot", "boot: power-on to the resumed game's first frame"),
         ("first boot", "first input after boot"),
         ("roll", "roll: the table's push held, computed ahead"),
         ("confirm", "a menu's confirm, computed ahead"),
         ("confirm at once", "a menu's confirm at once (before the board settles)"),
         ("vote", "vote pad hold, computed ahead"),
         ("vote alone", "vote pad hold alone (nothing ahead)"),
         ("cast", "sealed ballot: a voter's hold after its taps, computed ahead"),
         ("cast alone", "sealed ballot: a cast alone (a tap, or a hold with no tap before it)"),
         ("close", "sealed ballot: close, computed ahead"),
         ("close boot", "sealed ballot: close as the first input after boot"),
         ("undo", "undo: the table menu's confirm"),
         ("switch", "game switch: confirm to the new game's first frame"),
         ("first switch", "first input after a game switch"))
WHY_NA = {  # a kind a game has none of, and why (the line under the table)
    "roll": "roll: The Council and Yes, Your Grace have no dice (dice_wanted() is 0 throughout).",
    "vote": "vote pad holds: only The King's Dilemma's Houses vote on their own pads (its `pad` hook).",
    "cast": "sealed ballots: only The King's Dilemma (voting=sealed) and The Council's reveal hold one; "
            "Chancellors' and Yes, Your Grace's tables offer no ballot_open.",
}
DRAWS = 8  # a menu's action: the one of the fewest presses of this many drawn (press_play.enter)
AFTER_BOOT_NS = 200000000  # a first input after boot is pressed this long after the boot's first frame
WAIT = 120.0  # wall seconds for the chip to do anything


def ms(ns):
    return ns / 1e6


def most(game):
    return make_log.most_players(game)


class Bench:
    """The samples, {game: {kind: [ns, ...]}}, and what each first input was ({game: {kind: set}})."""

    def __init__(self, samples, seed, say=print, only=None, stamped=False):
        self.n = samples
        self.only = only  # the kinds to time (--kinds), or None: every kind
        self.extra = stamps.build() if stamped else None  # a profiling build (--stamps)
        self.chip, self.seen = None, (None, 0)  # the chip playing, and its board's noise read so far
        self.seed = seed
        self.say = say
        self.got = {}
        self.what = {}
        with open(ROOT / "hardware" / "boards" / "rpi-pico.json") as f:
            self.cfg = json.load(f)
        self.tmp = tempfile.mkdtemp(prefix="chancery-kinds-")

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def add(self, game, kind, ns, what=None):
        if ns is None:
            self.say("  (%s: %s: no frame after it)" % (game, kind))
            return
        self.got.setdefault(game, {}).setdefault(kind, []).append(ns)
        if what:
            self.what.setdefault(game, {}).setdefault(kind, set()).add(what)
        self.say("  %s: %s %.1f ms%s" % (game, kind, ms(ns), " (%s)" % what if what else ""))
        if self.extra is not None and self.chip is not None and self.chip.board is not None:
            noise = self.chip.board.noise
            start = self.seen[1] if self.seen[0] is noise else 0
            for line in noise[start:]:
                us = stamps.row(line)
                if us is not None:
                    self.say("    where it went (us): " + "; ".join(
                        "%s %d" % (stage, u) for stage, u in zip(stamps.STAGES, us)))
            self.seen = (noise, len(noise))

    def need(self, game, kind):
        return (self.only is None or kind in self.only) and len(self.got.get(game, {}).get(kind, ())) < self.n

    # --- the games --------------------------------------------------------------------------------

    def run(self, games=GAMES):
        sealed = ("cast", "cast alone", "close", "close boot")
        for game in games:
            if self.only is None or set(self.only) - {"switch", "first switch"}:
                self.game(game, {})
            if game == "kings_dilemma" and (self.only is None or set(self.only) & set(sealed)):
                self.game(game, {"voting": "sealed"}, kinds=sealed)
        if self.only is None or set(self.only) & {"switch", "first switch"}:
            self.switches(games)

    def game(self, game, settings, kinds=None):
        """Play `game` at its most seats until each kind it has (of `kinds`) has its samples."""
        t = time.monotonic()
        g = engine.game_module(game)
        flash = os.path.join(self.tmp, game + ".img")
        image.deployed_image(flash, first={"game": game, "settings": dict(settings, players=most(game))},
                             extra=self.extra)
        chip = self.chip = Chip(self, game, flash)
        rnd = Draw(self.seed)
        wanted = kinds or [k for k, _ in KINDS if k not in ("switch", "first switch")]
        took = failed = rounds = 0
        try:
            while failed < 20 and took < 40 + 20 * self.n and rounds < 100 + 40 * self.n:
                rounds += 1
                board = chip.board
                if g.is_over(board.state):
                    chip.new_game(settings)
                    continue
                lacking = [k for k in wanted if self.need(game, k) and self._has(game, settings, k)]
                if not lacking:
                    break
                state = board.state
                b = state.get("ballot")
                if g.dice_wanted(state) and ("roll" in lacking or "first boot" in lacking):
                    self._rolls(chip, lacking)
                elif b is not None and b["open"]:
                    took += self._ballot(chip, rnd, kinds is not None or bool(set(lacking) & {"cast", "cast alone", "close"}))
                elif "first boot" in lacking and not self._single(game):
                    chip.reboot(hello=True)
                    got = press_play.enter(chip.board, rnd, self.say, draws=DRAWS)
                    if got is not None:
                        self.add(game, "first boot", chip.board.entered(got[0]), got[1])
                elif self._has(game, settings, "close") and not set(lacking) & {"confirm", "confirm at once"} \
                        and set(lacking) & {"cast", "cast alone", "close", "close boot", "first boot"}:
                    if not chip.advance(Draw(self.seed + took), lambda s: (s.get("ballot") or {}).get("open")):
                        chip.new_game(settings)
                else:
                    if "undo" in lacking and took % 2 == 0 and self._undoable(chip.board):  # then enter another
                        self.add(game, "undo", chip.undo())
                    alternate = bool(took % 2)
                    got = press_play.enter(chip.board, rnd, self.say, holds=alternate, at_once=alternate,
                                           draws=DRAWS)
                    if got is None:
                        failed += 1
                        continue
                    took += 1
                    ns = chip.board.entered(got[0])
                    if kinds is None or got[1] in kinds:
                        self.add(game, got[1], ns)
        finally:
            chip.close()
        self.say("%s%s: %d entries, %.0f s" % (game, " %s" % settings if settings else "", took,
                                               time.monotonic() - t))

    @staticmethod
    def _has(game, settings, kind):
        """Whether `game` has inputs of `kind` at all (WHY_NA)."""
        if kind == "roll":
            return game in ("chancellors", "kings_dilemma")
        if kind in ("vote", "vote alone"):
            return game == "kings_dilemma" and settings.get("voting") != "sealed"
        if kind in ("cast", "cast alone", "close", "close boot"):
            return game == "the_council" or settings.get("voting") == "sealed"
        return True

    @staticmethod
    def _single(game):
        """Whether the game's first input after boot is timed as one press of its own: the roll
        (Chancellors, The King's Dilemma) or the close of The Council's ballot (_ballot)."""
        return game in ("chancellors", "kings_dilemma", "the_council")

    @staticmethod
    def _undoable(board):
        """An entry to take back, where neither it nor the next is a King's Dilemma vote on a pad:
        after a menu's undo the menu stays loaded (rested), and Table.idle() then takes no vote's
        hold ahead until an entry lets it go, which would put unprepared holds among the prepared."""
        m = board.link.mirror
        entries = m.match["entries"]
        return entries and entries[-1]["action"]["type"] != "ballot_reveal" and \
            "vote" not in (m.match["state"].get("step"), m.before.get("step"))

    def _rolls(self, chip, lacking):
        """The board's roll by the table's hold, each taken back by an undo (timed too) but the last:
        first after a boot (no host frame before it), then after idle."""
        game = chip.game
        if "first boot" in lacking:
            chip.reboot(hello=False)
            done = chip.cold("long_select")
            self.add(game, "first boot", chip.board.entered(done), "roll")
        else:
            self.add(game, "roll", chip.board.entered(chip.board.press(TABLE_PAD, "long_select")[1]))
        if self.need(game, "roll") or self.need(game, "first boot"):
            self.add(game, "undo", chip.undo())

    def _ballot(self, chip, rnd, sample):
        """An open sealed ballot: casts on the voters' pads until two voters are left (timed), then its
        close, from the flash as it is then, again and again: the board powered on from it, the close
        its first input (nothing ahead); or the host's hello, a cast (the first key after the boot,
        which loads the keys' code: not timed) and the close after idle (computed ahead)."""
        game, board = chip.game, chip.board
        b = board.state["ballot"]
        if len(b["voters"]) - len(b["voted"]) > 2 or not sample:
            lone = self.need(game, "cast alone") and not (self.need(game, "cast") and rnd.below(2))
            pad, keys = self._cast_keys(board, rnd, lone)
            if pad is None:
                done = board.press(TABLE_PAD, "long_select")[1]
                self.add(game, "close", board.entered(done))
                return 1
            for k in keys:
                done = board.press(pad, k)[1]
            self.add(game, "cast" if len(keys) > 1 else "cast alone", board.entered(done))
            return 1
        saved = chip.checkpoint()
        for i in range(2 * self.n):
            chip.reboot(hello=i % 2 == 1, saved=saved)
            if i % 2 == 0:
                done = chip.cold("long_select")
                ns = chip.board.entered(done)
                self.add(game, "close boot", ns)
                if game == "the_council":  # its first input after boot is this close (The King's Dilemma's: its roll)
                    self.add(game, "first boot", ns, "close")
                continue
            pad, keys = self._cast_keys(chip.board, rnd)
            if pad is not None:  # the first key after the boot (its code loaded at it): not a cast's figure
                for k in keys:
                    done = chip.board.press(pad, k)[1]
                chip.board.entered(done)
            self.add(game, "close", chip.board.entered(chip.board.press(TABLE_PAD, "long_select")[1]))
        return 2

    @staticmethod
    def _cast_keys(board, rnd, lone=None):
        """(a voter's pad, the keys that cast a random choice on it: tests/helpers/chip_player.py's ballot_keys,
        a counted option counted 1-3 times), or (None, None) with one voter left. `lone`: a cast of one
        key (True) or of taps and a hold (False), where one of the 50 draws gives it."""
        b = board.state["ballot"]
        waiting = [s for s in b["voters"] if s not in b["voted"]]
        if len(waiting) < 2:
            return None, None
        got = None
        for _ in range(50):
            seat = rnd.pick(waiting)
            if b.get("multi"):  # any set of the options, maybe none
                choice = [o for o in b["options"] if rnd.below(3) == 0]
            else:
                choice = rnd.pick(b["options"])
            keys = ballot_keys(b, choice, 1 + rnd.below(3))
            if keys is not None and (lone is None or (len(keys) == 1) == lone):
                return seat, keys
            got = got or (keys and (seat, keys))
        if got:
            return got
        raise AssertionError("no cast that a pad can press in 50 draws: %s" % b)

    # --- switches ---------------------------------------------------------------------------------

    def switches(self, games=GAMES):
        """Round after round, a switch into each game in turn at the table's menu (its most seats),
        then that game's first input."""
        t = time.monotonic()
        start = games[-1] if len(games) > 1 else [g for g in GAMES if g != games[0]][0]
        flash = os.path.join(self.tmp, "switches.img")
        image.deployed_image(flash, first={"game": start, "settings": {"players": most(start)}}, extra=self.extra)
        chip = self.chip = Chip(self, start, flash)
        rnd = Draw(self.seed + 1)
        try:
            for _ in range(self.n):
                for game in games:
                    if chip.game == game:  # one game alone: away first, not timed
                        chip.switch(start)
                    self.add(game, "switch", chip.switch(game))
                    got = press_play.enter(chip.board, rnd, self.say, holds=True, draws=DRAWS)
                    if got is not None:
                        self.add(game, "first switch", chip.board.entered(got[0]), got[1])
        finally:
            chip.close()
        self.say("switches: %.0f s" % (time.monotonic() - t))

    # --- the report -------------------------------------------------------------------------------

    def table(self, games=GAMES):
        """The markdown lines: a row a kind, a column a game (median / p95 / max ms, and n), the goal's
        misses marked, then why a kind is n/a."""
        out = ["| input | " + " | ".join(games) + " |", "|---|" + "---|" * len(games)]
        over = []
        for kind, words in KINDS:
            cells = []
            for game in games:
                v = self.got.get(game, {}).get(kind)
                if not v:
                    cells.append("n/a")
                    continue
                med, p95, top = press_play.stats(v)
                miss = kind not in ("boot", "switch") and (ms(med) > GOAL_MEDIAN_MS or ms(top) > GOAL_MAX_MS)
                what = sorted(self.what.get(game, {}).get(kind, ()))
                cell = "%.1f / %.1f / %.1f (%d%s)" % (ms(med), ms(p95), ms(top), len(v),
                                                        ": " + ", ".join(what) if what else "")
                if miss:
                    cell = "**%s** over" % cell
                    over.append("%s: %s" % (game, words))
                cells.append(cell)
            out.append("| %s | %s |" % (words, " | ".join(cells)))
        out.append("")
        out.append("n/a: " + " ".join(WHY_NA.values()))
        return out, over


class Chip:
    """One game's virtual Pico on a flash file, restarted on it (a power-on) when asked."""

    def __init__(self, bench, game, flash):
        self.bench = bench
        self.game = game
        self.flash = flash
        self.vp = VirtualPico(flash=flash, pace="free", timeout=WAIT)
        self.vp.wait_frame(after_ns=0, timeout=WAIT)
        self.board = press_play.Board(self.vp, bench.cfg)
        self.shown = None

    def close(self):
        if self.board is not None:
            self.board.link.close()
        self.vp.close()

    def checkpoint(self):
        """(a copy of the flash as it is now, the board idle; the strip frames its state shows)."""
        self.vp.save_flash()
        saved = self.flash + ".saved"
        shutil.copyfile(self.flash, saved)
        return saved, self.board.expected_frames()

    def reboot(self, hello=True, saved=None):
        """Power off and on again (the flash as it is, or as checkpoint() `saved` it), the boot timed
        to the last bit of the resumed game's first frame; the host's hello after it if `hello`."""
        want = self.board.expected_frames() if saved is None else saved[1]
        self.close()
        self.board = None
        if saved is not None:
            shutil.copyfile(saved[0], self.flash)
        self.vp = VirtualPico(flash=self.flash, pace="free", timeout=WAIT)
        booted = [e["t"] for e in self.vp.events if e.get("ev") == "booted"][-1]
        shown = None
        end = time.monotonic() + WAIT
        while shown is None and time.monotonic() < end:
            shown = next((f.last_ns for f in list(self.vp.frames) if f.first_ns >= booted and f.data in want), None)
            time.sleep(0.05)
        self.bench.add(self.game, "boot", None if shown is None else shown - booted)
        self.shown = shown if shown is not None else self.vp.wait_frame(after_ns=booted, timeout=WAIT).last_ns
        if hello:
            self.board = press_play.Board(self.vp, self.bench.cfg)

    def cold(self, key, pad=TABLE_PAD):
        """`key` on `pad` as the first input after reboot(hello=False), AFTER_BOOT_NS after the boot's
        frame (no host frame before it: nothing has run the board's idle()), then the host's hello:
        the key's completing instant."""
        done = press_play.push(self.vp, pad, key, self.shown + AFTER_BOOT_NS)[2]
        self.vp.wait_frame(after_ns=done, timeout=WAIT)
        while self.vp.now_ns() < done + 1000000000:  # its entry, a reveal after it, the idle
            time.sleep(0.05)
        self.board = press_play.Board(self.vp, self.bench.cfg)
        return done

    def advance(self, rnd, until, most=300):
        """Random actions of the rules' own draw (tests/mp/random_game.py) sent over the host's link,
        until `until(state)` (True) or the game's end (False): the way to The Council's reveal ballot,
        some 40 entries in, whose menus' long lists would take most of an hour of presses."""
        import random_game

        g, board = engine.game_module(self.game), self.board
        for _ in range(most):
            state = board.state
            if until(state):
                break
            if g.is_over(state):
                return False
            move = random_game.action(rnd, rnd.pick(g.legal(state, None)), engine.seats(state), g.card_names(state))
            if move["type"] == "roll":
                move = {"type": "roll"}  # the board rolls its own dice
            try:
                engine.step(self.game, state, move)
            except RuleError:
                continue
            board.link.act(move, wait=WAIT)
        board.settle()
        return until(board.state)

    def undo(self):
        """The last entry taken back on the table's menu: ns from its confirm to the frame."""
        player = press_play.GpioPlayer(self.board, TABLE_PAD)
        player.enter(action("undo", "table", []), {"type": "undo"})
        return self.board.entered(player.done)

    def new_game(self, settings):
        """The same game again, with the same settings, from the table's menu (no restart)."""
        self._new_game(self.game, dict(settings, players=most(self.game)))

    def switch(self, game):
        """Switch to `game` at its most seats on the table's menu: ns from the settings' confirm to
        the new game's first frame (the board restarts for it)."""
        done = self._new_game(game, {"players": most(game)})
        self.game = game
        return self.board.entered(done)

    def _new_game(self, game, settings):
        board = self.board
        choose = GameChooser(board, TABLE_PAD)
        choose.enter(action("new_game", "table", [param("game", {"kind": "enum", "values": list(GAMES)})]),
                     {"type": "new_game", "game": game})
        schema = action("new_game", "table", [param(s["name"], s["domain"], optional=True, default=s["default"])
                                              for s in engine.game_module(game).SETTINGS])
        choose.last = game != board.link.mirror.match["game"]
        MenuPlayer.enter(choose, schema, dict(settings, type="new_game"))
        end = time.monotonic() + WAIT
        while board.link.mirror.match["game"] != game or board.entries():
            if time.monotonic() > end:
                raise AssertionError("the board did not start %s: %s" % (game, board.screens[-1:]))
            board.link.poll(0.05)
        board.settle()
        return choose.done


class GameChooser(press_play.GpioPlayer):
    """The table's new_game on its menu: with `last`, the settings' confirm is not followed by a
    ping (the board restarts for another game, and answers none until it has)."""

    last = False

    def press(self, k):
        sends = self.screen and self.screen[-2:-1] in (["sel: send"], ["push: send"])  # a confirm screen
        settle = not (self.last and k == "select" and sends)
        screen, self.done = self.board.press(self.pad, k, settle=settle)
        return screen, None


def report(samples, seed, games=GAMES, say=print, only=None, stamped=False):
    """Run the bench (`only`: those kinds; `stamped`: on a profiling build, each input's stages
    said): (the markdown lines, the kinds over the goal, wall seconds)."""
    t = time.monotonic()
    bench = Bench(samples, seed, say, only, stamped)
    try:
        bench.run(games)
    finally:
        bench.close()
    lines, over = bench.table(games)
    return lines, over, time.monotonic() - t


def write(lines, over, samples, seed, wall):
    import perfdoc

    from chancery.vpico import kit

    intro = [
        "Written by `tools/bench_chip.py --only kinds --write` (tools/chip/input_kinds.py): the deployed firmware",
        "standalone on the virtual Pico (%s), each game at its most seats, its buttons pressed on their GPIOs."
        % os.path.basename(kit.find_uf2()),
        "Each input from the edge that completes it (a tap's release, a hold's long instant) to the last bit of",
        "the strip's frame that shows the state after it, in the chip's clock: median / p95 / max ms (samples).",
        "Boot: power-on to the resumed game's first frame; a switch: the new game's confirm to its first frame.",
        "The goal: a median of %d ms or less and a max of %d ms or less for every kind of input, whether or not"
        % (GOAL_MEDIAN_MS, GOAL_MAX_MS),
        "anything was computed ahead (firmware/ahead.py); **over** marks a miss. %d samples a kind, seed %d;"
        % (samples, seed),
        "one run took %.0f minutes." % (wall / 60), ""]
    perfdoc.write_section("## Every input kind on the chip", intro + lines + (
        ["", "Over the goal: " + "; ".join(over) + "."] if over else []))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, default=5, help="samples of each kind a game (default 5)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--games", nargs="+", choices=GAMES, default=GAMES)
    ap.add_argument("--kinds", nargs="+", choices=[k for k, _ in KINDS],
                    help="time only these kinds (a quick look; --write wants them all)")
    ap.add_argument("--stamps", action="store_true",
                    help="on a profiling build (tools/chip/stamps.py): where each entry's time went; its modules "
                         "go to lib/, which a ROMFS image's come before: give a firmware without one "
                         "(CHANCERY_PICO_UF2=$CHANCERY_PICO_STOCK_UF2)")
    ap.add_argument("--write", action="store_true", help="the table into docs/performance.md")
    args = ap.parse_args(argv)
    if args.write and (args.kinds or args.stamps):
        ap.error("--write puts the whole table, of the deployed build: leave out --kinds and --stamps")
    bench(args.samples, args.seed, tuple(args.games), args.write, only=args.kinds, stamped=args.stamps)


def bench(samples, seed, games=GAMES, writing=False, say=print, only=None, stamped=False):
    """Run it, say the table, and with `writing` put it into docs/performance.md."""
    lines, over, wall = report(samples, seed, games, say, only, stamped)
    for line in lines + ["one run: %.0f s" % wall]:
        say(line)
    if writing:
        write(lines, over, samples, seed, wall)


if __name__ == "__main__":
    main()
