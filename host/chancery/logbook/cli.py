"""`chancery log ...`: list, show, export and import the games in the logbook.

    chancery log list
    chancery log show ID [--json]
    chancery log export ID --format jsonl|csv [-o FILE] [--seat N]
    chancery log import FILE

The logbook's entry point. The logbook is store.py (CHANCERY_LOGBOOK names another
file). What is shown or exported goes through the logbook's view of the log
(logbook.entry_view), the public one unless --seat says otherwise. Exit
status: 0 done, 2 bad input (no such game, no logbook, a damaged or locked
one, a file that does not replay).
"""

import os
import pathlib
import sys
import tempfile

from chancery import __version__


def configure(commands):
    """Add `log` and its actions to the command line's subparsers; returns its name."""
    p = commands.add_parser("log", help="list, show, export and import the games in the logbook",
                            description="The logbook: every game a board played, entry by entry.")
    sub = p.add_subparsers(dest="log_command", metavar="ACTION")
    sub.add_parser("list", help="every game in the logbook", description="List the games in the logbook.")
    s = sub.add_parser("show", help="one game, entry by entry", description="Show one game: where it was "
                       "played, every entry with what happened, and whether it replays.")
    s.add_argument("id", type=int, metavar="ID")
    s.add_argument("--json", action="store_true", help="print the game and its log as canonical JSON")
    e = sub.add_parser("export", help="write a game as a replayable log (jsonl) or a table (csv)",
                       description="Export a game: jsonl is a log `chancery replay` verifies; csv has one row "
                                   "per entry (idx, action, summary, digest).")
    e.add_argument("id", type=int, metavar="ID")
    e.add_argument("--format", required=True, choices=("jsonl", "csv"))
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    e.add_argument("--seat", type=int, metavar="N", help="only what seat N may see (default: the public view)")
    i = sub.add_parser("import", help="put a saved game (from chancery play) into the logbook",
                       description="Verify a saved game file and add it to the logbook (again: nothing "
                                   "is added twice).")
    i.add_argument("file", metavar="FILE")
    p.set_defaults(log_help=p.print_help)
    return ["log"]


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def run(args):
    from chancery.logbook import store as logbook

    what = getattr(args, "log_command", None)
    if what is None:
        args.log_help()
        return 2
    try:
        with logbook.Logbook(create=what == "import") as book:
            return COMMANDS[what](book, args)
    except logbook.LogbookError as e:
        return _error(str(e))


def _list(book, args):
    games = book.games()
    if not games:
        print("The logbook %s holds no games yet." % book.path)
        return 0
    head = ("ID", "GAME", "SEATS", "STARTED (UTC)", "BOARD", "FIRMWARE", "ENTRIES", "STATE")
    rows = [(str(g["id"]), g["game"], str(g["settings"].get("players", "-")), g["created_at"], g["board_id"],
             g["firmware"], str(g["entries"]), _state(g)) for g in games]
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(len(head))]
    right = (0, 2, 6)  # numbers line up on the right
    for r in [head] + rows:
        print("  ".join(r[k].rjust(widths[k]) if k in right else r[k].ljust(widths[k]) if k < len(head) - 1 else r[k]
                        for k in range(len(head))))
    return 0


def _state(g):
    if g["ended"] is None:
        return "open"
    r = g["result"] or {}
    winners = r.get("winners")
    if isinstance(winners, list):
        return "%s, won by %s" % (r.get("ending", "over"), ", ".join(["seat %s" % w for w in winners]) or "nobody")
    if r.get("ending") == "new_game":
        return "left unfinished for a new game"
    return "over"


def _show(book, args):
    from chancery.logbook import store
    from chancery.words import commands, narrate
    from shared_rules import canon, engine, matches

    g = book.game(args.id)
    log = book.log(args.id)
    if args.json:
        out = dict(g)
        out["log"] = log
        print(canon.encode(out))
        return 0
    print("Game %d: %s, %s" % (g["id"], g["game"], canon.encode(g["settings"])))
    print("Board %s, firmware %s%s" % (g["board_id"], g["firmware"],
                                       "" if g["protocol"] is None else ", protocol %s" % g["protocol"]))
    print("Started %s; %s" % (g["created_at"], "still open" if g["ended"] is None else "ended %s: %s" % (
        g["ended"], _state(g))))
    try:
        full = book.header(args.id)
        full["entries"] = list(book.entries(args.id))
        matches.replay(full)
        verdict = "all %d entries replay, every event and digest verified" % len(full["entries"])
    except matches.LogError as e:
        verdict = "does NOT replay: %s" % e
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        verdict = "does NOT replay (%s: %s)" % (type(e).__name__, e)
    print("Check: " + verdict)
    times = [at for _, _, at in book.rows(args.id)]
    schemas = engine.game_module(g["game"]).SCHEMAS
    try:
        story = dict((i, s) for i, _, s in narrate.history(log))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # still shown, action by action
        story = {}
    for i, e in enumerate(log["entries"]):
        print("%5s  %s  %s  [%s]" % ("#%d" % (i + 1), times[i][11:19], commands.command_text(e["action"], schemas),
                                      e["digest"]))  # numbered from #1, as the mirror and the narration do
        for sentence in story.get(i, []):
            print("        " + sentence)
    see = store.entry_view(g["game"])
    for i, e, _, at in book.undone(args.id):  # kept: what the table entered and then took back
        e = see(e, None)  # as public as the entries above
        print("taken back at %s: #%d %s  [%s]" % (at[11:19], i + 1, commands.command_text(e["action"], schemas),
                                                 e.get("digest")))
    return 0


def _export(book, args):
    g = book.game(args.id)
    if args.seat is not None and not 0 <= args.seat < g["settings"].get("players", 0):
        return _error("game %d has seats 0 to %d, not %d" % (g["id"], g["settings"].get("players", 0) - 1,
                                                             args.seat))
    if g["ended"] is None and args.format == "jsonl":  # a CSV carries no seed
        print("note: game %d is still open; the exported seed lets a reader predict the board's next rolls"
              % g["id"], file=sys.stderr)
    if args.output is None:
        book.export(args.id, args.format, sys.stdout, args.seat)
        return 0
    path = pathlib.Path(args.output)
    try:  # a temporary file renamed into place: a failed export never leaves half a file
        fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=str(path.parent))
    except OSError as e:
        return _error("cannot write %s: %s" % (path, e.strerror or e))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            n = book.export(args.id, args.format, f, args.seat)
        os.replace(tmp, str(path))
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            return _error("cannot write %s: %s" % (path, e.strerror or e))
        raise
    print("Game %d: %d entries written to %s" % (g["id"], n, path), file=sys.stderr)
    return 0


def _import(book, args):
    from chancery.logbook import logfile
    from shared_rules import canon, matches

    try:
        match = logfile.load_match(args.file)
    except (logfile.FileProblem, matches.LogError) as e:
        return _error("cannot import %s: %s" % (args.file, e))
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        return _error("cannot import %s: it does not replay (%s: %s)" % (args.file, type(e).__name__, e))
    log = matches.log_of(match)
    entries = log.pop("entries")
    wanted = [canon.encode(e) for e in entries]
    # Already imported (perhaps in part, from an earlier save of the same game)? Then go on from there.
    game_id = None
    for g in book.games():
        if g["board_id"] == "file" and book.header(g["id"]) == log and g["entries"] <= len(entries):
            if [canon.encode(e) for e in book.entries(g["id"])] == wanted[:g["entries"]]:
                game_id = g["id"]
                break
    if game_id is None:
        game_id = book.begin_game(log, "file", "chancery %s" % __version__, fresh=True)
    added = 0
    for i in range(book.count(game_id), len(entries)):
        added += book.add_entry(game_id, i, entries[i])
    print("%s: game %d in the logbook, %d entries (%d new)." % (args.file, game_id, len(entries), added))
    return 0


COMMANDS = {"list": _list, "show": _show, "export": _export, "import": _import}
