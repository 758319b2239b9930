"""`chancery play [GAME]`: any of the games at the terminal (Chancellors by default).

One loop: show the state, read a line, turn it into an action (commands.py),
hand it to the engine, narrate the events (narrate.py), save the log
(logfile.py). A refused action changes nothing; the core's message says why.
The log is written after every accepted action and on every way out, so
nothing entered is lost.

The game goes into the logbook too (board "terminal"), each entry committed as
it is played, as a board's entries are; an undo moves the entries it takes
back to the logbook's taken-back entries. The file stays the game's own copy:
a logbook that cannot be written (locked, disk full) is said once and caught
up after the next action, and the game goes on. --resume finds the logbook's
game whose entries the file continues and goes on with it.

Names: --names names the seats (a resumed game keeps the names its file has, or takes
new ones); they are saved in the file's header, stored in the logbook's players table,
and every sentence calls a named seat by its name.
"""

import getpass
import random
import shlex
import sys

import chancery
from chancery import __version__
from chancery.logbook import logfile
from chancery.logbook.store import TERMINAL_BOARD, Logbook, LogbookError
from chancery.play import box as ballot_box
from chancery.words import commands, describe, narrate, new_game, show
from chancery.words import names as seat_words
from shared_rules import canon, engine, games, matches, texts, wording
from shared_rules import schema as schemas
from shared_rules.errors import RuleError
from shared_rules.matches import LogError

GAME = games.GAMES[0]  # the game `chancery play` starts without one named
META = ("undo [N]   take back the last N actions (default 1)\n"
        "log [N|all] what happened in the last N actions (default 5)\n"
        "show      the state again (or an empty line)\n"
        "help [ACTION]  this text, or one action's values\n"
        "quit      save and leave (Ctrl-D too)")


def _say(text=""):
    print(text)


class Session:
    def __init__(self, match, path, book=None, resumed=False, names=None):
        self.match = match
        self.names = names  # the seats' names (one per seat, None for a seat without one), or None
        self.names_logged = False  # the logbook's game has them
        self.resumed = resumed
        self.path = path
        self.options = []
        self.game = engine.game_module(match["game"])
        self.unsaved = False
        self.book = book  # the logbook (None: not logged)
        self.game_id = None  # this game's id in it, once it has an entry
        self.logged = None  # how many leading entries the logbook is known to share with the match; None: ask it
        self.box = ballot_box.Box(str(path) + ".box")  # a sealed ballot's choices until its reveal (play/box.py)
        self.book_trouble = False  # the last write failed (said once; retried after each action)

    # --- output -------------------------------------------------------------

    def seats(self):
        return self.match["settings"]["players"]

    def show(self):
        view = matches.view(self.match, None)
        _say()
        _say(show.status(view, self.names))
        _say(seat_words.called(matches.prompt(self.match), self.names))
        b = self._ballot()
        self.options = [s for s in matches.legal(self.match, None) if b is None or s["type"][:7] != "ballot_"]
        for i, s in enumerate(self.options, 1):
            _say("  %d. %s" % (i, commands.usage(s, self.seats(), schemas.find(self.game.SCHEMAS, s["type"]))))
        if b is not None and b["open"]:
            waiting = [s for s in b["voters"] if s not in b["voted"]]
            what = "any of %s, or -" % " ".join(b["options"]) if b.get("multi") else " | ".join(
                ["%s N" % o if o in (b.get("counted") or []) else o for o in b["options"]])
            _say("  sealed ballot %r: cast SEAT (seats %s), then its choice, not shown: %s" % (
                b["question"], " ".join([str(x) for x in waiting]), what))
            _say("  close: no more votes (a seat that has not voted abstains)")
        if matches.is_over(self.match):
            _say("  (the game is over: undo takes back the last action)")
        _say("  (also: undo, log, help, quit)")

    def prompt_text(self):
        actor = _actor(self.match)
        if matches.is_over(self.match):
            return "over> "
        if actor is None:
            return "table> "
        name = seat_words.label(actor, self.names)
        return "%s (seat %d)> " % (name, actor) if name != "seat %d" % actor else "seat %d> " % actor

    def help(self, word):
        all_schemas = self.game.SCHEMAS
        if word:
            try:
                t = commands.resolve_type(word, all_schemas)
            except commands.ParseError as e:
                _say(str(e))
                return
            if t is None:
                _say("no action %r; actions: %s" % (word, ", ".join(
                    [commands.word_for(s["type"]) for s in all_schemas])))
                return
            d = [a for a in describe.describe_game(self.match["game"])["actions"] if a["type"] == t][0]
            _say("%s: %s" % (commands.usage(d, self.seats()), d["doc"]))
            for p in d["params"]:
                _say("  %s%s: %s. %s" % (p["name"], " (optional)" if p.get("optional") else "",
                                         texts.describe(p["domain"], self.seats()), p["doc"]))
            for ex in _typed(self.match)[0].get(t, []):
                _say("  e.g. " + ex)
            return
        _say("Type an action and its values (names may be shortened), or a number from the list:")
        examples, card_forms = _typed(self.match)
        for s in all_schemas:
            ex = examples.get(s["type"], [])
            _say("  %-44s %s" % (commands.usage(s, self.seats()), ("e.g. " + ex[-1]) if ex else ""))
        if card_forms:
            _say(card_forms)
        _say("Seats are numbered from 0; - means nobody.")
        _say(META)

    def history(self, arg):
        count = len(self.match["entries"])
        if arg in ("all", "*"):
            first = 0
        else:
            try:
                first = max(0, count - (int(arg) if arg else 5))
            except ValueError:
                _say("log takes a number of actions or 'all'")
                return
        if count == 0:
            _say("Nothing has happened yet.")
        for i, act, lines in narrate.history(self.match, first, self.names):
            _say("#%d %s" % (i + 1, commands.command_text(act, self.game.SCHEMAS)))
            for line in lines:
                _say("    " + line)

    # --- changes ----------------------------------------------------------

    def save(self):
        try:
            logfile.save(self.match, self.path, self.names)
            self.unsaved = False
            return True
        except OSError as e:
            self.unsaved = True
            _say("WARNING: could not save the log to %s: %s. Your moves are kept in memory; "
                 "it will be tried again after the next action." % (self.path, e.strerror or e))
            return False

    def record(self):
        """Bring the logbook's copy of the game to the match: entries it has beyond the ones both
        share are taken back (an undo), the match's later entries added, each in its own commit."""
        if self.book is None or (self.game_id is None and not self.match["entries"]):
            return  # nothing played yet: no empty game in the logbook
        entries = self.match["entries"]
        try:
            if self.game_id is None:
                self.game_id, self.logged = _logbook_game(self.book, self.match, self.resumed)
            if self.names is not None and not self.names_logged:
                self.book.set_names(self.game_id, self.names)
                self.names_logged = True
            if self.logged is None:
                self.logged = _shared(self.book, self.game_id, entries)
            if self.book.count(self.game_id) > self.logged:
                self.book.take_back(self.game_id, self.logged)
            for i in range(self.logged, len(entries)):
                self.book.add_entry(self.game_id, i, entries[i])
                self.logged = i + 1
        except LogbookError as e:
            self.logged = None  # asked again next time: the failed write may have gone half way
            if not self.book_trouble:
                _say("WARNING: the logbook did not take this action: %s. The game goes on (it is saved to "
                     "%s) and the logbook is caught up after the next action." % (e, self.path))
            self.book_trouble = True
            return
        if self.book_trouble:
            _say("The logbook has caught up: game %d, %d entries." % (self.game_id, len(entries)))
        self.book_trouble = False

    def _ballot(self):
        """The sealed ballot under way (opened, not yet revealed), or None."""
        b = self.match["state"].get("ballot")
        return b if b is not None and b["result"] is None else None

    def cast(self, rest):
        """`cast SEAT`: the seat's choice read without echo into the box, then its ballot_cast."""
        b = self._ballot()
        if b is None or not b["open"]:
            _say("? no sealed ballot takes votes now")
            return None
        words = rest.split()
        if len(words) != 1 or not words[0].isdigit() or int(words[0]) not in b["voters"]:
            _say("? cast takes the voting seat's number: one of %s" % ", ".join([str(x) for x in b["voters"]]))
            return None
        seat = int(words[0])
        if seat in b["voted"]:
            _say("? seat %d has voted already: a vote is cast once" % seat)
            return None
        text = _secret("%s's choice (not shown): " % seat_words.label(seat, self.names))
        if text is None:
            return None
        try:
            choice = ballot_box.read_choice(b, text)
        except ballot_box.BoxError as e:
            _say("? %s; the vote is not cast" % e)
            return None
        self.box.put(b["n"], seat, choice)  # before the log says the seat voted
        return "changed" if self.apply({"type": "ballot_cast", "seat": seat}) else None

    def _reveal_if_due(self):
        """A ballot every voter has voted in, or the table closed: the box reveals it, as a board does."""
        b = self._ballot()
        if b is None or b["open"]:
            return
        try:
            act = self.box.reveal(b)
        except ballot_box.BoxError as e:
            _say("Cannot reveal: %s" % e)
            return
        if self.apply(act):
            self.box.clear()

    def apply(self, act):
        before = self.match["state"]
        try:
            entry = engine.apply(self.match, act)
        except RuleError as e:
            _say("Not allowed: %s" % seat_words.called(games.message(e), self.names))
            return False
        for line in narrate.lines(self.match["game"], before, entry["events"], entry["action"], self.names):
            _say("  " + line)
        self.save()
        self.record()
        if act.get("type") != "ballot_reveal":
            self._reveal_if_due()
        return True

    def undo(self, arg):
        try:
            n = int(arg) if arg else 1
        except ValueError:
            _say("undo takes a number of actions (default 1)")
            return False
        try:
            new = matches.undo(self.match, n)
        except RuleError as e:
            _say("Cannot undo: %s" % games.message(e))
            return False
        except LogError as e:  # cannot happen for a log we built ourselves
            _say("Cannot undo: %s" % e)
            return False
        gone = self.match["entries"][len(new["entries"]):]
        self.match = new
        if self.logged is not None:
            self.logged = min(self.logged, len(new["entries"]))
        for entry in reversed(gone):
            _say("  Took back: " + commands.command_text(entry["action"], self.game.SCHEMAS))
        self.save()
        self.record()  # the logbook keeps what was taken back, as taken back
        return bool(gone)

    # --- one line ---------------------------------------------------------

    def handle(self, line):
        """Handle a typed line; returns "quit", "changed" or None."""
        words = line.strip().split(None, 1)
        if not words:
            return "changed"  # an empty line shows the state again
        head, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        if head in ("quit", "exit", "q"):
            return "quit"
        if head in ("help", "?", "h"):
            self.help(rest)
            return None
        if head in ("show", "status", "state"):
            return "changed"
        if head == "undo":
            return "changed" if self.undo(rest) else None
        if head in ("log", "history"):
            self.history(rest)
            return None
        if head.isdigit() and not rest:
            return self.pick(int(head))
        if head in ballot_box.CAST_WORDS and self._ballot() is not None:
            return self.cast(rest)
        if head in ballot_box.CLOSE_WORDS and not rest and self._ballot() is not None:
            return "changed" if self.apply({"type": "ballot_close"}) else None
        try:
            act = commands.parse(line, self.game.SCHEMAS, self.seats(), self.game.card_names(self.match["state"]))
        except commands.ParseError as e:
            _say("? %s. Type help for the commands." % e)
            return None
        if act["type"] in ("ballot_cast", "ballot_reveal") and self._ballot() is not None:
            _say("? a seat votes with cast SEAT (its choice is asked without echo); the box reveals the ballot "
                 "itself once every seat has voted or the table closes it")
            return None
        return "changed" if self.apply(act) else None

    def pick(self, number):
        if not 1 <= number <= len(self.options):
            _say("? there is no option %d; pick 1 to %d" % (number, len(self.options)))
            return None
        s = self.options[number - 1]
        needed = [p for p in s["params"] if not p.get("optional")]
        if needed:
            _say("Type it with its values: %s" % commands.usage(s, self.seats(), schemas.find(self.game.SCHEMAS,
                                                                                            s["type"])))
            for p in needed:
                _say("  %s: %s" % (p["name"], texts.describe(p["domain"], self.seats())))
            return None
        return "changed" if self.apply({"type": s["type"]}) else None


def _logbook_game(book, match, resumed):
    """(id, entries it shares with the match) of the game's place in the logbook: a resumed game
    goes on in the terminal game whose stored entries the match continues (the one with the
    most); anything else is a new game there (two games with the same seed stay two)."""
    header = matches.log_of(match)
    del header["entries"]
    best = None
    for g in book.games() if resumed else []:
        if g["board_id"] == TERMINAL_BOARD and g["entries"] <= len(match["entries"]) and book.header(g["id"]) == header:
            if _shared(book, g["id"], match["entries"]) == g["entries"] and (best is None or g["entries"] >= best[1]):
                best = (g["id"], g["entries"])
    if best is not None:
        return best
    return book.begin_game(header, TERMINAL_BOARD, "chancery %s" % __version__, fresh=True), 0


def _shared(book, game_id, entries):
    """How many leading entries the logbook's game shares with `entries`."""
    n = 0
    for stored in book.entries(game_id):
        if n >= len(entries) or canon.encode(stored) != canon.encode(entries[n]):
            break
        n += 1
    return n


def _typed(match):
    """(examples {action type: [typed lines]}, how its cards are typed or ""): the game's show
    module's EXAMPLES and CARD_FORMS (every game's show module declares both)."""
    words = describe.words(match["game"], "show")
    return (words.EXAMPLES, words.CARD_FORMS) if words is not None else ({}, "")


def _actor(match):
    """The seat whose turn it is, when the game says (its show module's actor), else None."""
    words = describe.words(match["game"], "show")
    return words.actor(match["state"]) if words is not None else None


def _secret(prompt):
    """A line typed without echo (a sealed ballot's choice), or None at end of input. A script's piped
    line is shown as `*`."""
    return _read(prompt, hidden=True)


def _read(prompt, hidden=False):
    """A line from stdin, or None at end of input. Echoes it when stdin is not a terminal (as `*`
    when `hidden`; on a terminal a hidden line is typed without echo)."""
    if sys.stdin.isatty() and (hidden or sys.stdout.isatty()):
        try:
            return getpass.getpass(prompt) if hidden else input(prompt)
        except EOFError:
            return None
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        return None
    line = line.rstrip("\r\n")
    print("*" if hidden else line)
    return line


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def _start(args):
    """(match, log path, names) from the arguments, or an exit code."""
    started = _match(args)
    if isinstance(started, int) or getattr(args, "names", None) is None:
        return started
    match, path, names = started
    try:
        names = seat_words.parse(args.names, match["settings"]["players"])
    except commands.ParseError as e:
        return _error("--names: %s" % e)
    return match, path, names


def _match(args):
    """(match, log path, names) from the arguments but --names, or an exit code."""
    words = list(getattr(args, "set", None) or [])
    for name in ("players", "seed", "target"):
        if getattr(args, name) is not None and name != "seed":
            words.append("%s=%d" % (name, getattr(args, name)))
    if args.extended:
        words.append("extended=true")
    if args.resume:
        given = ["--" + n for n in ("players", "seed", "target") if getattr(args, n) is not None]
        given += (["--extended"] if args.extended else []) + (["--set"] if getattr(args, "set", None) else [])
        if given:
            return _error("--resume continues a saved game with its own settings; drop %s" % ", ".join(given))
        try:
            match, names = logfile.load_named(args.resume)
        except (logfile.FileProblem, LogError) as e:
            return _error("cannot resume %s: %s" % (args.resume, e))
        if getattr(args, "game", None) and match["game"] != args.game:
            return _error("%s is a game of %s, not %s" % (args.resume, match["game"], args.game))
        return match, args.log or args.resume, names
    game = getattr(args, "game", None) or GAME
    try:
        settings = new_game.parse([game] + words)["settings"]
    except commands.ParseError as e:
        return _error(str(e))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    try:
        match = engine.new_match(game, settings, seed)
    except RuleError as e:
        return _error(games.message(e))
    return match, args.log or logfile.default_path(game), None


def _title(match):
    """One line saying what is played: the game's own words (its show module's heading), else its name."""
    words = describe.words(match["game"], "show")
    if words is not None:
        return words.heading(match["settings"])
    return wording.playing(match["game"], match["settings"])


def _quoted(path):
    """A path as a shell takes it back (quoted when it has a space or the like); Windows' own."""
    return path if sys.platform == "win32" or shlex.quote(path) == path else shlex.quote(path)


def _open_logbook(args):
    """The logbook the game goes into, or None (--no-logbook, or one that cannot be opened: said)."""
    if getattr(args, "no_logbook", False):
        return None
    try:
        return Logbook()
    except LogbookError as e:
        _say("WARNING: this game is not logged: %s. It is still saved to its file (`%s` adds it later)."
             % (e, chancery.command("log import FILE")))
        return None


def run(args):
    started = _start(args)
    if isinstance(started, int):
        return started
    match, path, names = started
    book = _open_logbook(args)
    try:
        return _play(Session(match, path, book, bool(args.resume), names), args)
    finally:
        if book is not None:
            book.close()


def _play(session, args):
    match, path = session.match, session.path
    if not session.save():
        return _error("cannot write the log file %s; choose another with --log FILE" % path)
    session.record()
    if args.resume:
        _say("Resumed %s: %d actions replayed and verified." % (args.resume, len(match["entries"])))
    _say(_title(match))
    if session.names is not None:
        _say("Players: %s." % seat_words.listing(session.names))
    _say("The game is saved to %s after every action%s. Type help for the commands." % (
        path, "" if session.book is None else " and goes into the logbook (`%s`)" % chancery.command("log list")))
    changed = True
    try:
        while True:
            if changed:
                session.show()
            line = _read(session.prompt_text())
            if line is None:
                _say()
                break
            result = session.handle(line)
            if result == "quit":
                break
            changed = result == "changed"
    except KeyboardInterrupt:
        _say()
    session.save()
    session.record()
    _say("Game saved to %s%s" % (session.path, "" if session.game_id is None else
                                 "; game %d in the logbook" % session.game_id))
    _say("Continue it with: %s" % chancery.command("play %s--resume %s" % (
        "" if session.match["game"] == GAME else session.match["game"] + " ", _quoted(str(session.path)))))
    return 0
