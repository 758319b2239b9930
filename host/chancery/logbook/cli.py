"""`chancery log ...`: list, show, export, chart and import the games in the logbook, and their stats.

    chancery log list
    chancery log show ID [--json]
    chancery log export ID --format jsonl|csv [-o FILE] [--seat N]
    chancery log export all|ID --format plays [-o FILE] [--game G]
    chancery log stats [--game G] [--player NAME]
    chancery log chart ID -o FILE.svg|png
    chancery log import FILE

The logbook's entry point. The logbook is store.py (CHANCERY_LOGBOOK names another
file). What is shown or exported goes through the logbook's view of the log
(logbook.entry_view), the public one unless --seat says otherwise. Exit
status: 0 done, 2 bad input (no such game, no logbook, a damaged or locked
one, a file that does not replay).
"""

import argparse
import os
import pathlib
import sys
import tempfile

from chancery import __version__
from chancery.logbook.plays import PLAYS_COLUMNS


def configure(commands):
    """Add `log` and its actions to the command line's subparsers; returns its name."""
    p = commands.add_parser("log", help="list, show, export, chart and import the games in the logbook, and "
                            "their stats",
                            description="The logbook: every game a board played, entry by entry.")
    sub = p.add_subparsers(dest="log_command", metavar="ACTION")
    sub.add_parser("list", help="every game in the logbook", description="List the games in the logbook.")
    s = sub.add_parser("show", help="one game, entry by entry", description="Show one game: where it was "
                       "played, every entry with what happened, and whether it replays.")
    s.add_argument("id", type=int, metavar="ID")
    s.add_argument("--json", action="store_true", help="print the game and its log as canonical JSON")
    e = sub.add_parser("export", help="write a game as a replayable log (jsonl) or a table (csv), or the "
                       "plays as a table (plays)",
                       description="Export a game: jsonl is a log `chancery replay` verifies; csv has one row "
                                   "per entry (entry, numbered from 1 as log show does; action, summary, digest). plays is a CSV of finished plays for "
                                   "a spreadsheet or a play-logging app, one row per player of each play (%s); "
                                   "ID may be 'all' there, and --game keeps one game's plays. A player is the "
                                   "seat's name, or the seat ('seat 0') where it has none." % ", ".join(PLAYS_COLUMNS))
    e.add_argument("id", type=_game_id, metavar="ID")
    e.add_argument("--format", required=True, choices=("jsonl", "csv", "plays"))
    e.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: standard output)")
    e.add_argument("--seat", type=int, metavar="N", help="only what seat N may see (default: the public view)")
    e.add_argument("--game", metavar="G", help="plays: only the plays of game G")
    t = sub.add_parser("stats", help="plays, wins, scores and durations per game and player, and each game's facts",
                       description="Statistics of the finished plays in the logbook: per game, its plays and "
                                   "durations (first entry to last), each player's plays, wins, average and best "
                                   "score, and the game's own facts (endings, abdications, collapses, the Annals, "
                                   "catastrophes); then each player's plays and wins over all games. A player is "
                                   "a seat's name, or the seat ('seat 0') where it has none. Games still open are "
                                   "counted apart.")
    t.add_argument("--game", metavar="G", help="only game G (e.g. kings_dilemma)")
    t.add_argument("--player", metavar="NAME", help="only this player: a name (case ignored), or a seat without "
                   "one: 'seat 2' or '2'")
    c = sub.add_parser("chart", help="a game's scores (and tracks) over its entries, as SVG or PNG",
                       description="Draw one game: every player's score after each entry, and the game's own "
                                   "tracks, when it has any, in a second panel; "
                                   "rounds or turns are marked. The file's name says its kind (.svg or .png).")
    c.add_argument("id", type=int, metavar="ID")
    c.add_argument("-o", "--output", metavar="FILE", required=True, help="the picture to write: FILE.svg or FILE.png")
    i = sub.add_parser("import", help="put a saved game (from chancery play) into the logbook",
                       description="Verify a saved game file and add it to the logbook (again: nothing "
                                   "is added twice).")
    i.add_argument("file", metavar="FILE")
    p.set_defaults(log_help=p.print_help)
    return ["log"]


def _game_id(text):
    """A game's number, or "all" (export --format plays)."""
    if text == "all":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a game's number (`chancery log list` shows them) nor 'all'" % text)


def _error(text):
    print("error: " + text, file=sys.stderr)
    return 2


def run(args):
    from chancery.logbook import store as logbook

    what = getattr(args, "log_command", None)
    if what is None:
        args.log_help()
        return 2
    if what == "import":  # the file is read first: one refused creates no logbook
        from chancery.logbook import logfile

        try:
            args.loaded = logfile.load_named(args.file)  # every problem names its line
        except logfile.FileProblem as e:
            return _error("cannot import %s: %s" % (args.file, e))
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
    named = book.all_names()
    head = ("ID", "GAME", "SEATS", "STARTED (UTC)", "BOARD", "FIRMWARE", "ENTRIES", "STATE")
    rows = [(str(g["id"]), g["game"], str(g["settings"].get("players", "-")), g["created_at"], g["board_id"],
             g["firmware"], str(g["entries"]), _state(g, named.get(g["id"]))) for g in games]
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(len(head))]
    right = (0, 2, 6)  # numbers line up on the right
    for r in [head] + rows:
        print("  ".join(r[k].rjust(widths[k]) if k in right else r[k].ljust(widths[k]) if k < len(head) - 1 else r[k]
                        for k in range(len(head))))
    return 0


def _state(g, names=None):
    from chancery.words import names as seat_words

    if g["ended"] is None:
        return "open"
    r = g["result"] or {}
    winners = r.get("winners")
    if isinstance(winners, list):
        return "%s, won by %s" % (r.get("ending", "over"), ", ".join(
            [seat_words.label(w, names) if isinstance(w, int) else "seat %s" % w for w in winners]) or "nobody")
    if r.get("ending") == "new_game":
        return "left unfinished for a new game"
    return "over"


def _show(book, args):
    from chancery.logbook import store
    from chancery.words import commands, narrate
    from chancery.words import names as seat_words
    from shared_rules import canon, engine, matches

    g = book.game(args.id)
    log = book.log(args.id)  # with its names in the header, when the seats have any
    names = log.get("names")
    if args.json:
        out = dict(g)
        out["log"] = log
        print(canon.encode(out))
        return 0
    from chancery.words import new_game

    others = dict((k, v) for k, v in g["settings"].items() if k != "players")
    words = commands.command_text(dict(others, type="new_game"), [new_game.settings_schema(g["game"])]).split(" ")[1:]
    print("Game %d: %s, %s players%s" % (g["id"], g["game"], g["settings"].get("players", "?"),
                                         "".join(", " + w for w in words)))
    print("Board %s, firmware %s%s" % (g["board_id"], g["firmware"],
                                       "" if g["protocol"] is None else ", protocol %s" % g["protocol"]))
    if names:
        print("Players: %s" % seat_words.listing(names))
    print("Started %s; %s" % (g["created_at"], "still open" if g["ended"] is None else "ended %s: %s" % (
        g["ended"], _state(g, names))))
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
        story = dict((i, s) for i, _, s in narrate.history(log, 0, names))
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
    if args.format == "plays":
        return _export_plays(book, args)
    if args.id == "all":
        return _error("'all' exports the plays (--format plays); a %s export is one game's: give its ID"
                      % args.format)
    if args.game is not None:
        return _error("--game chooses the plays of --format plays; a %s export is one game's" % args.format)
    g = book.game(args.id)
    if args.seat is not None and not 0 <= args.seat < g["settings"].get("players", 0):
        return _error("game %d has seats 0 to %d, not %d" % (g["id"], g["settings"].get("players", 0) - 1,
                                                             args.seat))
    # a CSV carries no seed; a board rolls from its own entropy, never written, so only a game whose dice
    # come from the match's seed (`chancery play` at the terminal; an imported log may be one) is predicted
    if g["ended"] is None and args.format == "jsonl" and g.get("board_id") in ("terminal", "file"):
        print("note: game %d is still open; where its dice come from its seed (a game at the terminal), the "
              "exported seed lets a reader predict its next rolls" % g["id"], file=sys.stderr)
    n = _write(args.output, lambda f: book.export(args.id, args.format, f, args.seat))
    if isinstance(n, int) and args.output is not None:
        print("Game %d: %d entries written to %s" % (g["id"], n, args.output), file=sys.stderr)
    return 0 if n is not None else 2


def _export_plays(book, args):
    from chancery.logbook import plays

    if args.seat is not None:
        return _error("--seat chooses what a seat may see of one game's log; the plays table shows no log")
    if args.game is not None and args.game not in set(g["game"] for g in book.games()):
        return _error(_no_such_game(book, args.game))
    if args.id == "all":
        chosen = plays.plays(book, args.game)
    else:
        chosen = [plays.play_of(book, book.game(args.id))]
        if args.game is not None and chosen[0]["game"] != args.game:
            return _error("game %d is a game of %s, not %s" % (args.id, chosen[0]["game"], args.game))
        if not chosen[0]["over"]:
            return _error("game %d is not finished, so it is no play yet (a play is a finished game)" % args.id)
    n = _write(args.output, lambda f: plays.write_plays_csv(chosen, f))
    if n is None:
        return 2
    if args.output is not None:
        print("%d rows (one per player of %d finished plays) written to %s" % (
            n, len([p for p in chosen if p["over"]]), args.output), file=sys.stderr)
    return 0


def _write(output, work):
    """work(text stream) to standard output, or to the file `output` through a temporary file renamed into
    place, so a failed export never leaves half a file: what work returns, or None (said) when the file
    cannot be written."""
    if output is None:
        return work(sys.stdout)
    path = pathlib.Path(output)
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=str(path.parent))
    except OSError as e:
        _error("cannot write %s: %s" % (path, e.strerror or e))
        return None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            out = work(f)
        from chancery.logbook.logfile import usual_mode

        os.chmod(tmp, usual_mode())
        os.replace(tmp, str(path))
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            _error("cannot write %s: %s" % (path, e.strerror or e))
            return None
        raise
    return out


def _no_such_game(book, game):
    have = sorted(set(g["game"] for g in book.games()))
    return "the logbook has no game of %r; it holds %s" % (game, ", ".join(have) if have else "no games yet")


def _stats(book, args):
    from chancery.logbook import plays, stats

    if args.game is not None and args.game not in set(g["game"] for g in book.games()):
        return _error(_no_such_game(book, args.game))
    chosen = plays.plays(book, args.game)
    if args.player is not None:
        player = plays.parse_player(args.player, chosen)
        if player is None:
            return _error("no player %r in %s: the players are %s (a name, case ignored, or a seat without one: "
                          "--player 'seat 2' or --player 2)" % (args.player, "the plays of %s" % args.game
                                                                if args.game else "the logbook",
                                                                ", ".join(plays.players(chosen)) or "none yet"))
    else:
        player = None
    if not chosen:
        print("The logbook %s holds no games yet." % book.path)
        return 0
    print("Plays in the logbook %s; a player is a seat's name, or the seat where it has none." % book.path)
    print()
    for line in stats.text(stats.summary(chosen, player)):
        print(line)
    return 0


def _chart(book, args):
    from chancery.logbook import chart

    g = book.game(args.id)
    log = book.log(args.id)  # the public view, as every export
    try:
        data = chart.series(log, log["entries"])
        if g["ended"] is None:
            end = " (still open)"
        elif data["winners"]:
            end = ", won by %s" % " and ".join(data["winners"])
        else:
            end = ""
        chart.draw(data, "Game %d: %s, %d entries%s" % (g["id"], chart.title(g["game"]), len(log["entries"]), end),
                   args.output)
    except chart.ChartError as e:
        return _error("no chart of game %d: %s" % (g["id"], e))
    print("Game %d: chart of %s written to %s" % (g["id"], " and ".join(
        k for k in ("scores", "tracks") if data[k]), args.output), file=sys.stderr)
    return 0


def _import(book, args):
    from chancery.logbook import store
    from shared_rules import canon, matches

    match, names = args.loaded  # read by run(), before the logbook was opened
    log = matches.log_of(match)
    entries = log.pop("entries")
    wanted = [canon.encode(e) for e in entries]
    # Already imported, or logged as it was played at the terminal (perhaps in part, from an earlier save of
    # the same game)? Then go on from there.
    game_id = None
    for g in book.games():
        if g["board_id"] in ("file", store.TERMINAL_BOARD) and book.header(g["id"]) == log \
                and g["entries"] <= len(entries):
            if [canon.encode(e) for e in book.entries(g["id"])] == wanted[:g["entries"]]:
                game_id = g["id"]
                break
    if game_id is None:
        game_id = book.begin_game(log, "file", "chancery %s" % __version__, fresh=True)
    added = 0
    for i in range(book.count(game_id), len(entries)):
        added += book.add_entry(game_id, i, entries[i])
    if names is not None:
        book.set_names(game_id, names)
    print("%s: game %d in the logbook, %d entries (%d new)%s." % (args.file, game_id, len(entries), added,
                                                                   "" if names is None else "; players: " +
                                                                   ", ".join([n for n in names if n])))
    return 0


COMMANDS = {"list": _list, "show": _show, "export": _export, "import": _import, "stats": _stats,
            "chart": _chart}
