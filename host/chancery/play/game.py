"""`chancery play [GAME]`: any of the games at the terminal (Chancellors by default).

One loop: show the state, read a line, turn it into an action (commands.py),
hand it to the engine, narrate the events (narrate.py), save the log
(logfile.py). A refused action changes nothing; the core's message says why.
The log is written after every accepted action and on every way out, so
nothing entered is lost.
"""

import random
import sys

from chancery.logbook import logfile
from chancery.words import commands, describe, narrate, new_game, show
from shared_rules import engine, games, matches, texts, wording
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
    def __init__(self, match, path):
        self.match = match
        self.path = path
        self.options = []
        self.game = engine.game_module(match["game"])
        self.unsaved = False

    # --- output -------------------------------------------------------------

    def seats(self):
        return self.match["settings"]["players"]

    def show(self):
        view = matches.view(self.match, None)
        _say()
        _say(show.status(view))
        _say(matches.prompt(self.match))
        self.options = matches.legal(self.match, None)
        for i, s in enumerate(self.options, 1):
            _say("  %d. %s" % (i, commands.usage(s, self.seats())))
        if matches.is_over(self.match):
            _say("  (the game is over: undo takes back the last action)")
        _say("  (also: undo, log, help, quit)")

    def prompt_text(self):
        actor = _actor(self.match)
        if matches.is_over(self.match):
            return "over> "
        return "seat %d> " % actor if actor is not None else "table> "

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
        for i, act, lines in narrate.history(self.match, first):
            _say("#%d %s" % (i + 1, commands.command_text(act, self.game.SCHEMAS)))
            for line in lines:
                _say("    " + line)

    # --- changes ----------------------------------------------------------

    def save(self):
        try:
            logfile.save(self.match, self.path)
            self.unsaved = False
            return True
        except OSError as e:
            self.unsaved = True
            _say("WARNING: could not save the log to %s: %s. Your moves are kept in memory; "
                 "it will be tried again after the next action." % (self.path, e.strerror or e))
            return False

    def apply(self, act):
        before = self.match["state"]
        try:
            entry = engine.apply(self.match, act)
        except RuleError as e:
            _say("Not allowed: %s" % games.message(e))
            return False
        for line in narrate.lines(self.match["game"], before, entry["events"], entry["action"]):
            _say("  " + line)
        self.save()
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
        for entry in reversed(gone):
            _say("  Took back: " + commands.command_text(entry["action"], self.game.SCHEMAS))
        self.save()
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
        try:
            act = commands.parse(line, self.game.SCHEMAS, self.seats(), self.game.card_names(self.match["state"]))
        except commands.ParseError as e:
            _say("? %s. Type help for the commands." % e)
            return None
        return "changed" if self.apply(act) else None

    def pick(self, number):
        if not 1 <= number <= len(self.options):
            _say("? there is no option %d; pick 1 to %d" % (number, len(self.options)))
            return None
        s = self.options[number - 1]
        needed = [p for p in s["params"] if not p.get("optional")]
        if needed:
            _say("Type it with its values: %s" % commands.usage(s, self.seats()))
            for p in needed:
                _say("  %s: %s" % (p["name"], texts.describe(p["domain"], self.seats())))
            return None
        return "changed" if self.apply({"type": s["type"]}) else None


def _typed(match):
    """(examples {action type: [typed lines]}, how its cards are typed or ""): the game's show
    module's EXAMPLES and CARD_FORMS (every game's show module declares both)."""
    words = describe.words(match["game"], "show")
    return (words.EXAMPLES, words.CARD_FORMS) if words is not None else ({}, "")


def _actor(match):
    """The seat whose turn it is, when the game says (its show module's actor), else None."""
    words = describe.words(match["game"], "show")
    return words.actor(match["state"]) if words is not None else None


def _read(prompt):
    """A line from stdin, or None at end of input. Echoes it when stdin is not a terminal."""
    tty = sys.stdin.isatty() and sys.stdout.isatty()
    if tty:
        try:
            return input(prompt)
        except EOFError:
            return None
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        return None
    line = line.rstrip("\r\n")
    print(line)
    return line


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def _start(args):
    """(match, log path) from the arguments, or an exit code."""
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
            match = logfile.load_match(args.resume)
        except (logfile.FileProblem, LogError) as e:
            return _error("cannot resume %s: %s" % (args.resume, e))
        if getattr(args, "game", None) and match["game"] != args.game:
            return _error("%s is a game of %s, not %s" % (args.resume, match["game"], args.game))
        return match, args.log or args.resume
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
    return match, args.log or logfile.default_path(game)


def _title(match):
    """One line saying what is played: the game's own words (its show module's heading), else its name."""
    words = describe.words(match["game"], "show")
    if words is not None:
        return words.heading(match["settings"])
    return wording.playing(match["game"], match["settings"])


def run(args):
    started = _start(args)
    if isinstance(started, int):
        return started
    match, path = started
    session = Session(match, path)
    if not session.save():
        return _error("cannot write the log file %s; choose another with --log FILE" % path)
    if args.resume:
        _say("Resumed %s: %d actions replayed and verified." % (args.resume, len(match["entries"])))
    _say(_title(match))
    _say("The game is saved to %s after every action. Type help for the commands." % path)
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
    _say("Game saved to %s" % session.path)
    _say("Continue it with: chancery play %s--resume %s" % (
        "" if session.match["game"] == GAME else session.match["game"] + " ", session.path))
    return 0
