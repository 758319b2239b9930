"""The logbook: every game and every entry, in SQLite, as it arrives.

One file, `logbook.sqlite3` in the user's data folder (the environment
variable CHANCERY_LOGBOOK names another, which is how tests isolate it).
Each entry is committed on its own as soon as it is added, so what was
acknowledged survives the host crashing, the cable being pulled and the
power going off.

Two processes at once (a mirror and `chancery log import`, two hosts): WAL lets
readers go on while one writes; every write takes the write lock first
(BEGIN IMMEDIATE) and waits up to `timeout` seconds for it (SQLite's busy
timeout) before saying "busy", so a check and the write it decides are never
split by another writer. A killed process leaves its last transaction
uncommitted, which SQLite rolls back at the next opening.

Durability: WAL with synchronous=FULL. In WAL mode NORMAL already survives an
application crash, but a power cut may roll back the last commits; FULL
fsyncs the WAL at every commit, so an acknowledged entry survives a power cut
too. Entries arrive at the pace of a table (seconds apart) and a commit costs
a few milliseconds, so the price is invisible.

Schema (version 3; `schema_version` holds the number, MIGRATIONS the way up;
a logbook of an older schema is copied to LOGBOOK.schemaN.bak first, then
migrated in one transaction):

    games(id, board_id, firmware, protocol, format, game, settings, seed,
          start, created_at, ended, result)
        settings and result are canonical JSON (shared_rules.canon); ended is
        when the entry that ended the game arrived (NULL while it is open);
        result is that ending (the game's end event without its type).
    entries(game_id, idx, action, events, digest, received_at)
        PRIMARY KEY (game_id, idx); action and events are canonical JSON.
    undone(game_id, idx, action, events, digest, received_at, undone_at)
        (version 2) entries the table took back (an undo on the board): moved
        here from entries, in order, when the board's log became shorter, so
        nothing the table entered is lost and the entries stay the live log.
    players(id, name, created_at)
        (version 3) the people who sat at the games: one row per name, compared with
        case ignored (COLLATE NOCASE), spelt as first seen.
    seat_players(game_id, seat, player_id, named_at)
        (version 3) which seat each player had in which game: PRIMARY KEY (game_id,
        seat), one seat per player in a game. Seats without a name have no row. The
        entries stay keyed by seat number; the names are beside them (set_names).

Entries are stored as received, not replayed first: a log the rules refuse
is still what the table entered, and `chancery log show` says whether it
replays. Errors are LogbookError with a stable `code` and a sentence.

Exports and the view hook: see `entry_view` and `Logbook.export`.
"""

import csv
import json
import os
import pathlib
import sqlite3
import time
import urllib.request

import chancery
from shared_rules import canon, engine
from shared_rules.errors import RuleError

SCHEMA_VERSION = 3
# The players (issue 17): a step of its own, each statement safe to run twice (IF NOT EXISTS), so it
# keeps its meaning whatever number it is given among other steps.
PLAYERS_STEP = (
    "CREATE TABLE IF NOT EXISTS players (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE"
    " COLLATE NOCASE, created_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS seat_players (game_id INTEGER NOT NULL REFERENCES games (id), seat INTEGER"
    " NOT NULL, player_id INTEGER NOT NULL REFERENCES players (id), named_at TEXT NOT NULL,"
    " PRIMARY KEY (game_id, seat), UNIQUE (game_id, player_id)) WITHOUT ROWID",
)
# Each step: (the version it brings the database to, its statements). Never
# edit a released step; add a new one (ALTER TABLE, new tables, backfills).
MIGRATIONS = (
    (1, (
        "CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, board_id TEXT NOT NULL,"
        " firmware TEXT NOT NULL, protocol INTEGER, format INTEGER, game TEXT NOT NULL,"
        " settings TEXT NOT NULL, seed INTEGER NOT NULL, start TEXT NOT NULL, created_at TEXT NOT NULL,"
        " ended TEXT, result TEXT)",
        "CREATE INDEX games_open ON games (board_id, start) WHERE ended IS NULL",
        "CREATE TABLE entries (game_id INTEGER NOT NULL REFERENCES games (id), idx INTEGER NOT NULL,"
        " action TEXT NOT NULL, events TEXT NOT NULL, digest TEXT NOT NULL, received_at TEXT NOT NULL,"
        " PRIMARY KEY (game_id, idx)) WITHOUT ROWID",
    )),
    (2, (
        "CREATE TABLE undone (game_id INTEGER NOT NULL REFERENCES games (id), idx INTEGER NOT NULL,"
        " action TEXT NOT NULL, events TEXT NOT NULL, digest TEXT NOT NULL, received_at TEXT NOT NULL,"
        " undone_at TEXT NOT NULL)",
    )),
    (3, PLAYERS_STEP),
)
CSV_COLUMNS = ("entry", "action", "summary", "digest")  # entries numbered from 1, as log show and the mirror do
TERMINAL_BOARD = "terminal"  # the board_id of the games played at the terminal (`chancery play`)
_GAME_COLUMNS = ("id", "board_id", "firmware", "protocol", "format", "game", "settings", "seed", "start",
                 "created_at", "ended", "result")


class LogbookError(Exception):
    """code: no_logbook, no_game, bad_header, bad_entry, conflict, gap, busy, full, corrupt,
    unavailable, too_new, refused, bad_format, bad_names; str() is the sentence for a person."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def default_path():
    given = os.environ.get("CHANCERY_LOGBOOK")
    if given:
        return pathlib.Path(given)
    try:
        import platformdirs

        base = pathlib.Path(platformdirs.user_data_dir("chancery", appauthor=False))
    except ImportError:
        base = pathlib.Path.home() / ".local" / "share" / "chancery"
    return base / "logbook.sqlite3"


def _now():
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + ".%03dZ" % (int(t * 1000) % 1000)


def _as_is(entry, seat):
    return entry


def entry_view(game):
    """The view hook: a function (entry, seat) -> what `seat` may see of a log entry.

    Exports (and `chancery log show`) pass every entry through it; seat None
    is the public. Looked up in this order, failing closed:

    1. the game module's `view_entry(entry, seat)`: a game with hidden
       information (sealed votes, say) defines it beside its `view(state,
       seat)`, the same rule for the same secrets. It returns a new entry with
       the sealed values replaced (e.g. an action {"type": "vote", "seat": 2,
       "vote": "<sealed>"}) until the event that reveals them. It must also
       drop or blank the digest of every entry made while a secret was sealed:
       a digest is a CRC-32 of the whole state, and with a handful of possible
       votes anyone could try each one and see which gives the digest. Such an
       export is a record to read, not a log to replay, until the game is over
       and nothing is sealed any more;
    2. a game whose module sets LOG_PUBLIC = True: the entry as it is (its
       exports replay);
    3. anything else (LOG_PUBLIC = False and no view_entry, a game this version
       does not know): LogbookError("refused"), so an export never leaks by omission.
    """
    try:
        g = engine.game_module(game)
    except RuleError:
        raise LogbookError("refused", "%r is not a game this version of chancery knows, so it cannot tell "
                                      "what its log may show; nothing was exported" % (game,))
    if g.view_entry is not None:
        return g.view_entry
    if g.LOG_PUBLIC:
        return _as_is
    raise LogbookError("refused", "%s declares no view of its log (view_entry), so nothing was exported" % g.NAME)


def _problem(e, path):
    """A LogbookError with a sentence for an sqlite3 error."""
    name = getattr(e, "sqlite_errorname", None)
    text = str(e)
    if name is None:  # an error raised before SQLite answered: go by its words
        name = "SQLITE_BUSY" if "locked" in text else "SQLITE_FULL" if "full" in text else \
            "SQLITE_CORRUPT" if "malformed" in text or "not a database" in text else ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return LogbookError("busy", "the logbook %s is locked by another program (another chancery, or a tool "
                                    "holding it open); try again when it is done" % path)
    if name == "SQLITE_FULL":
        return LogbookError("full", "the disk holding the logbook %s is full: the last entry was not stored "
                                    "(everything before it is safe); free some space" % path)
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return LogbookError("corrupt", "the logbook %s is damaged (%s); move it aside and chancery starts a "
                                       "new one (`sqlite3 FILE .recover` may save its games)" % (path, text))
    return LogbookError("unavailable", "cannot use the logbook %s: %s" % (path, text))


def _header(header):
    """(format, game, settings text, seed, start) from a log header; raises bad_header."""
    if not isinstance(header, dict):
        raise LogbookError("bad_header", "a game's header is an object with game, settings, seed and start")
    game, settings, seed, start = (header.get(k) for k in ("game", "settings", "seed", "start"))
    fmt = header.get("format")
    if not isinstance(game, str) or not isinstance(settings, dict) or not isinstance(start, str) \
            or not isinstance(seed, int) or isinstance(seed, bool) or not (fmt is None or isinstance(fmt, int)):
        raise LogbookError("bad_header", "a game's header needs game (text), settings (object), seed (whole "
                                         "number) and start (digest); got %s" % json.dumps(header, default=repr))
    try:
        return fmt, game, canon.encode(settings), seed, start
    except TypeError as e:
        raise LogbookError("bad_header", "the header's settings cannot be stored: %s" % e)


def _entry(entry):
    """(action text, events text, digest) of a log entry; raises bad_entry."""
    if not isinstance(entry, dict) or not isinstance(entry.get("action"), dict) \
            or not isinstance(entry.get("events"), list) or not isinstance(entry.get("digest"), str):
        raise LogbookError("bad_entry", "an entry is an object with an action (object), its events (list) and "
                                        "a digest (text)")
    try:
        return canon.encode(entry["action"]), canon.encode(entry["events"]), entry["digest"]
    except TypeError as e:
        raise LogbookError("bad_entry", "the entry cannot be stored: %s" % e)


# The tags of the event that ends a game (docs/adding-a-game.md): some games say "end", others "over";
# either carries the winners. A game that ended with "over" before this tuple knew it is still
# open in an older logbook; `chancery log stats` reads the events themselves, so it counts it too.
END_EVENTS = ("end", "over")


def _ending(events):
    """The result an entry's events announce (the game's end event, without its type), else None."""
    for ev in events:
        if isinstance(ev, dict) and ev.get("t") in END_EVENTS:
            out = dict(ev)
            del out["t"]
            return out
    return None


class Logbook:
    """The logbook at `path` (default: default_path()). create=False refuses to make a new one."""

    def __init__(self, path=None, create=True, timeout=5.0):
        self.path = pathlib.Path(path) if path is not None else default_path()
        self.backed_up = None  # the copy made before a migration (backup_path), if this opening made one
        if not create and not self.path.exists():
            raise LogbookError("no_logbook", "there is no logbook at %s yet: games are logged as a board plays "
                                             "them, or with `%s`"
                                             % (self.path, chancery.command("log import FILE")))
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            uri = "file:%s?mode=%s" % (urllib.request.pathname2url(str(self.path)), "rwc" if create else "rw")
            self._db = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise LogbookError("unavailable", "cannot open the logbook %s: %s" % (self.path, e))
        try:
            mode = self._wal(timeout)
            if mode != "wal":
                raise LogbookError("unavailable", "the logbook %s cannot use write-ahead logging here (journal "
                                                  "mode %s); keep it on a local disk" % (self.path, mode))
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.Error as e:
            self._db.close()
            raise _problem(e, self.path)
        except LogbookError:
            self._db.close()
            raise

    def _wal(self, timeout):
        """Switch to write-ahead logging; the journal mode it ends in. The switch of a new logbook
        takes the file's exclusive lock, and SQLite answers "locked" at once, without its busy
        timeout, when two openings both read the file and both want that lock (waiting would be a
        deadlock). So the switch is tried again until `timeout` has passed: the other opening
        finishes its switch in milliseconds, and WAL needs no exclusive lock after it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                return self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            except sqlite3.OperationalError as e:
                if "locked" not in str(e) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.01)

    def close(self):
        self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write(self, work):
        """Run work() in one IMMEDIATE transaction (the write lock taken first, so no other writer can
        slip in between its checks and its writes); commit, or roll back on any error."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                out = work()
                self._db.execute("COMMIT")
                return out
            except BaseException:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise _problem(e, self.path)

    def _read(self, sql, args=()):
        try:
            return self._db.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            raise _problem(e, self.path)

    def _migrate(self):
        def work():
            have = self._db.execute("SELECT 1 FROM sqlite_master WHERE name='schema_version'").fetchone()
            if have is None:
                self._db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                self._db.execute("INSERT INTO schema_version VALUES (0)")
            version = self._db.execute("SELECT version FROM schema_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LogbookError("too_new", "the logbook %s was written by a newer chancery (schema %d; this "
                                              "one knows %d): upgrade chancery" % (self.path, version,
                                                                                     SCHEMA_VERSION))
            if 0 < version < SCHEMA_VERSION:
                self._backup(version)  # under the write lock: no other chancery writes meanwhile
            for target, statements in MIGRATIONS:
                if target > version:
                    for sql in statements:
                        self._db.execute(sql)
                    self._db.execute("UPDATE schema_version SET version=?", (target,))

        exists = self._read("SELECT 1 FROM sqlite_master WHERE name='schema_version'")
        version = self._read("SELECT version FROM schema_version")[0][0] if exists else 0
        if version != SCHEMA_VERSION:  # only then take the write lock: readers open while a game is logged
            self._write(work)

    def backup_path(self, version):
        """Where a migration from schema `version` keeps the logbook as it was: beside it,
        LOGBOOK.schemaN.bak (then .bak2, .bak3... when one is there already: never overwritten)."""
        base = self.path.with_name("%s.schema%d.bak" % (self.path.name, version))
        path, n = base, 1
        while path.exists():
            n += 1
            path = base.with_name("%s%d" % (base.name, n))
        return path

    def _backup(self, version):
        """A copy of the whole logbook (its write-ahead log's commits included: SQLite's backup, not
        a copy of the file) before a migration changes it; raises LogbookError if it cannot be made,
        and then nothing is migrated."""
        path = self.backup_path(version)
        try:
            # read through a connection of its own: this one holds the write lock (no writer changes
            # the logbook meanwhile), and a backup from a connection inside a write transaction waits
            # for itself for ever; a WAL reader sees the last commit, the logbook as it was
            source = sqlite3.connect(urllib.request.pathname2url(str(self.path)).join(("file:", "?mode=ro")),
                                     uri=True)
            copy = sqlite3.connect(str(path))
            try:
                source.backup(copy)
            finally:
                copy.close()
                source.close()
        except (OSError, sqlite3.Error) as e:
            raise LogbookError("unavailable", "the logbook %s (schema %d) needs migrating to schema %d, and its backup "
                                              "%s could not be made first (%s); nothing was changed"
                               % (self.path, version, SCHEMA_VERSION, path, e))
        self.backed_up = path

    # --- writing -----------------------------------------------------------

    def begin_game(self, header, board_id, firmware, protocol=None, fresh=False):
        """The id of the game a board plays: header is the log's (format, game, settings, seed, start).

        The same board reconnecting with the same header and start digest gets
        its open game back (a pulled cable continues the game; the caller asks
        `count(id)` where to go on). fresh=True always starts a new game.
        """
        fmt, game, settings, seed, start = _header(header)
        if not isinstance(board_id, str) or not isinstance(firmware, str):
            raise LogbookError("bad_header", "board_id and firmware are text")

        def work():
            if not fresh:
                row = self._db.execute(
                    "SELECT id FROM games WHERE ended IS NULL AND board_id=? AND start=? AND game=? AND settings=?"
                    " AND seed=? AND format IS ? ORDER BY id DESC LIMIT 1",
                    (board_id, start, game, settings, seed, fmt)).fetchone()
                if row is not None:
                    return row[0]
            return self._db.execute(
                "INSERT INTO games (board_id, firmware, protocol, format, game, settings, seed, start, created_at)"
                " VALUES (?,?,?,?,?,?,?,?,?)",
                (board_id, firmware, protocol, fmt, game, settings, seed, start, _now())).lastrowid

        return self._write(work)

    def add_entry(self, game_id, idx, entry):
        """Store entry `idx` of a game and commit it. True if stored, False if it was already there
        (the same entry again: a board re-sending after a reconnect). A different entry at a stored
        index raises "conflict"; an index past the next one raises "gap"."""
        if not isinstance(idx, int) or isinstance(idx, bool):
            raise LogbookError("bad_entry", "an entry's index is a whole number, not %r" % (idx,))
        action, events, digest = _entry(entry)
        ending = _ending(entry["events"])

        def work():
            self._need(game_id)
            row = self._db.execute("SELECT action, events, digest FROM entries WHERE game_id=? AND idx=?",
                                   (game_id, idx)).fetchone()
            if row is not None:
                if tuple(row) == (action, events, digest):
                    return False
                what = [n for n, a, b in zip(("action", "events", "digest"), row, (action, events, digest)) if a != b]
                raise LogbookError("conflict", "game %d already has a different entry %d (its %s differ%s); "
                                               "nothing was stored" % (game_id, idx, " and ".join(what),
                                                                       "s" if len(what) == 1 else ""))
            count = self._count(game_id)
            if idx != count:
                raise LogbookError("gap", "game %d has entries 0 to %d; entry %r would leave a gap (send entry "
                                          "%d next); nothing was stored" % (game_id, count - 1, idx, count))
            now = _now()
            self._db.execute("INSERT INTO entries VALUES (?,?,?,?,?,?)", (game_id, idx, action, events, digest, now))
            if ending is not None:
                self._db.execute("UPDATE games SET ended=?, result=? WHERE id=?", (now, canon.encode(ending),
                                                                                 game_id))
            return True

        return self._write(work)

    def store_kept(self, header, board_id, firmware, protocol, entries, names=None):
        """A finished game a board kept on flash until a host pulled it: stored whole in one commit;
        returns its id. The same game already here (the same board and header, and of its stored
        entries and these, the shorter the start of the longer: it was mirrored while it was
        played, until a cable came out, or it was pulled before and the ack was lost, or comes cut
        short by a power cut during the board's removal) gets the rest, if any; one that differs is
        another game. A game that did not end is closed with the ending "new_game": the board
        started another."""
        fmt, game, settings, seed, start = _header(header)
        if not isinstance(board_id, str) or not isinstance(firmware, str):
            raise LogbookError("bad_header", "board_id and firmware are text")
        rows = [_entry(e) for e in entries]
        ending = None
        for e in entries:
            ending = _ending(e["events"]) or ending

        def work():
            gid = first = None
            for (cand,) in self._db.execute(
                    "SELECT id FROM games WHERE board_id=? AND start=? AND game=? AND settings=? AND seed=?"
                    " AND format IS ? ORDER BY id DESC", (board_id, start, game, settings, seed, fmt)).fetchall():
                have = [tuple(r) for r in self._db.execute(
                    "SELECT action, events, digest FROM entries WHERE game_id=? ORDER BY idx", (cand,)).fetchall()]
                n = min(len(have), len(rows))  # either may be the longer: a pull cut short by a cut
                if have[:n] == rows[:n]:  # board's removal of its flash (the game's last part first)
                    gid, first = cand, len(have)
                    break
            if gid is None:
                gid, first = self._db.execute(
                    "INSERT INTO games (board_id, firmware, protocol, format, game, settings, seed, start, created_at)"
                    " VALUES (?,?,?,?,?,?,?,?,?)",
                    (board_id, firmware, protocol, fmt, game, settings, seed, start, _now())).lastrowid, 0
            now = _now()
            self._db.executemany("INSERT INTO entries VALUES (?,?,?,?,?,?)",
                                 [(gid, i, a, e, d, now) for i, (a, e, d) in enumerate(rows) if i >= first])
            if ending is not None:
                self._db.execute("UPDATE games SET ended=COALESCE(ended, ?), result=? WHERE id=?",
                                 (now, canon.encode(ending), gid))
            else:
                self._db.execute("UPDATE games SET ended=?, result=? WHERE id=? AND ended IS NULL",
                                 (now, canon.encode({"ending": "new_game"}), gid))
            return gid

        gid = self._write(work)
        if names is not None:
            try:
                self.set_names(gid, names)
            except LogbookError as e:  # names this chancery refuses: the game is stored, its seats unnamed
                if e.code != "bad_names":
                    raise
        return gid

    def take_back(self, game_id, count):
        """The board's log is `count` entries long now (an undo): the game's entries from
        index `count` on move to its taken-back entries, in one commit, and a game they
        ended is open again. Returns how many moved."""
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise LogbookError("bad_entry", "a log's length is a whole number, not %r" % (count,))

        def work():
            self._need(game_id)
            now = _now()
            moved = self._db.execute(
                "INSERT INTO undone SELECT game_id, idx, action, events, digest, received_at, ? FROM entries"
                " WHERE game_id=? AND idx>=? ORDER BY idx", (now, game_id, count)).rowcount
            self._db.execute("DELETE FROM entries WHERE game_id=? AND idx>=?", (game_id, count))
            if moved:
                self._db.execute("UPDATE games SET ended=NULL, result=NULL WHERE id=?", (game_id,))
                for (events,) in self._db.execute("SELECT events FROM entries WHERE game_id=? ORDER BY idx DESC"
                                                  " LIMIT 1", (game_id,)).fetchall():
                    ending = _ending(json.loads(events))  # the last entry kept may end it still
                    if ending is not None:
                        self._db.execute("UPDATE games SET ended=?, result=? WHERE id=?",
                                         (now, canon.encode(ending), game_id))
            return moved

        return self._write(work)

    def undone(self, game_id):
        """(idx, entry, received_at, undone_at) of each entry the table took back, in the
        order they were taken back (the last one first within one undo)."""
        self.game(game_id)
        rows = self._read("SELECT idx, action, events, digest, received_at, undone_at FROM undone WHERE game_id=?"
                          " ORDER BY rowid", (game_id,))
        return [(idx, {"action": json.loads(a), "events": json.loads(e), "digest": d}, at, un)
                for idx, a, e, d, at, un in rows]

    def close_game(self, game_id, ending):
        """An open game that will get no more entries (the board started another game:
        ending "new_game") is closed with that ending; an ended game stays as it is."""
        def work():
            self._need(game_id)
            self._db.execute("UPDATE games SET ended=?, result=? WHERE id=? AND ended IS NULL",
                             (_now(), canon.encode({"ending": ending}), game_id))

        self._write(work)

    def set_names(self, game_id, names):
        """Name the seats of a game: `names` one per seat from seat 0 (None: no name; fewer than
        the seats leave the rest without one), checked by shared_rules.seat_names. A new name
        becomes a player; a name known with other capitals is that player. Replaces the game's
        names in one commit; True if they changed. Raises LogbookError("bad_names") saying why."""
        from shared_rules import games, seat_names

        def work():
            self._need(game_id)
            seats = json.loads(self._db.execute("SELECT settings FROM games WHERE id=?",
                                                (game_id,)).fetchone()[0]).get("players", 0)
            try:
                wanted = seat_names.check(names, seats)
            except RuleError as e:
                raise LogbookError("bad_names", "game %d: %s; no name was changed" % (game_id, games.message(e)))
            if [None if n is None else n.lower() for n in self._names(game_id, seats)] == \
                    [None if n is None else n.lower() for n in wanted]:
                return False
            now = _now()
            self._db.execute("DELETE FROM seat_players WHERE game_id=?", (game_id,))
            for seat, name in enumerate(wanted):
                if name is None:
                    continue
                self._db.execute("INSERT OR IGNORE INTO players (name, created_at) VALUES (?,?)", (name, now))
                self._db.execute("INSERT INTO seat_players SELECT ?, ?, id, ? FROM players WHERE name=?",
                                 (game_id, seat, now, name))
            return True

        return self._write(work)

    def _names(self, game_id, seats):
        out = [None] * seats
        for seat, name in self._db.execute("SELECT s.seat, p.name FROM seat_players s JOIN players p ON"
                                           " p.id=s.player_id WHERE s.game_id=?", (game_id,)).fetchall():
            if 0 <= seat < seats:
                out[seat] = name
        return out

    def _need(self, game_id):
        if not isinstance(game_id, int) or self._db.execute("SELECT 1 FROM games WHERE id=?",
                                                            (game_id,)).fetchone() is None:
            raise LogbookError("no_game", "the logbook has no game %s (`%s` shows them)"
                               % (game_id, chancery.command("log list")))

    def _count(self, game_id):
        row = self._db.execute("SELECT MAX(idx) FROM entries WHERE game_id=?", (game_id,)).fetchone()
        return 0 if row[0] is None else row[0] + 1

    # --- reading -----------------------------------------------------------

    def _game_dict(self, row):
        out = dict(zip(_GAME_COLUMNS, row))
        out["settings"] = json.loads(out["settings"])
        out["result"] = None if out["result"] is None else json.loads(out["result"])
        out["entries"] = row[len(_GAME_COLUMNS)]
        return out

    _SELECT = ("SELECT %s, (SELECT COUNT(*) FROM entries WHERE game_id=games.id) FROM games"
               % ", ".join(_GAME_COLUMNS))

    def games(self):
        """Every game, oldest first: dicts of the games columns plus "entries" (how many)."""
        return [self._game_dict(r) for r in self._read(self._SELECT + " ORDER BY id")]

    def game(self, game_id):
        rows = self._read(self._SELECT + " WHERE id=?", (game_id,)) if isinstance(game_id, int) else []
        if not rows:
            raise LogbookError("no_game", "the logbook has no game %s (`%s` shows them)"
                               % (game_id, chancery.command("log list")))
        return self._game_dict(rows[0])

    def names(self, game_id):
        """The game's seat names, one per seat (None for a seat without one), spelt as each
        player was first seen."""
        seats = self.game(game_id)["settings"].get("players", 0)
        try:
            return self._names(game_id, seats)
        except sqlite3.Error as e:
            raise _problem(e, self.path)

    def all_names(self):
        """{game id: its seat names} of every game with a named seat (one query, for lists)."""
        out = {}
        for gid, settings, seat, name in self._read(
                "SELECT g.id, g.settings, s.seat, p.name FROM seat_players s JOIN players p ON p.id=s.player_id"
                " JOIN games g ON g.id=s.game_id"):
            seats = json.loads(settings).get("players", 0)
            if 0 <= seat < seats:
                out.setdefault(gid, [None] * seats)[seat] = name
        return out

    def known_names(self, limit=None):
        """The players' names, those of the most recent game first (within a game, the older players
        first): what the host offers a board's menu, `limit` of them at most."""
        rows = self._read("SELECT p.name FROM players p LEFT JOIN seat_players s ON s.player_id=p.id GROUP BY p.id"
                          " ORDER BY COALESCE(MAX(s.game_id), 0) DESC, p.id" +
                          ("" if limit is None else " LIMIT %d" % int(limit)))
        return [r[0] for r in rows]

    def count(self, game_id):
        """How many entries of the game are stored (the index of the next one)."""
        try:
            self._need(game_id)
            return self._count(game_id)
        except sqlite3.Error as e:
            raise _problem(e, self.path)

    def rows(self, game_id):
        """(idx, entry, received_at) of each stored entry in order; a generator, read as it goes."""
        self.game(game_id)
        try:
            cur = self._db.execute("SELECT idx, action, events, digest, received_at FROM entries WHERE game_id=?"
                                   " ORDER BY idx", (game_id,))
            for idx, action, events, digest, at in cur:
                yield idx, {"action": json.loads(action), "events": json.loads(events), "digest": digest}, at
        except sqlite3.Error as e:
            raise _problem(e, self.path)

    def entries(self, game_id):
        """The game's log entries ({"action", "events", "digest"}) in order; a generator."""
        for _, entry, _ in self.rows(game_id):
            yield entry

    def header(self, game_id):
        g = self.game(game_id)
        out = {"game": g["game"], "settings": g["settings"], "seed": g["seed"], "start": g["start"]}
        if g["format"] is not None:
            out["format"] = g["format"]
        return out

    def log(self, game_id, seat=None):
        """The game's log as `seat` (None: the public) may see it: header and entries through entry_view.
        A game with named seats has its names in the header ("names": one per seat, null for a seat
        without one), beside the log: replay reads past them."""
        out = self.header(game_id)
        names = self.names(game_id)
        if [n for n in names if n is not None]:
            out["names"] = names
        see = entry_view(out["game"])
        out["entries"] = [see(e, seat) for e in self.entries(game_id)]
        return out

    def check(self):
        """SQLite's integrity check: [] when the database is sound, else its complaints."""
        rows = self._read("PRAGMA integrity_check")
        return [] if [r[0] for r in rows] == ["ok"] else [r[0] for r in rows]

    def journal_mode(self):
        return self._read("PRAGMA journal_mode")[0][0]

    # --- export ------------------------------------------------------------

    def export(self, game_id, fmt, out, seat=None):
        """Write game `game_id` to the text stream `out` as `seat` (None: the public) may see it.

        Everything goes through self.log(), so through entry_view (above).
        jsonl: the header ({format, game, settings, seed, start}, and names when
        the seats have any, canonical) on the first line, then one canonical
        entry per line, which `chancery replay` verifies digest by digest. A game with no entries yet is one
        line with "entries": [] (a complete log on its own).
        csv: a row of column names (CSV_COLUMNS), then one row per entry: its
        number (from 1, as `log show` and the mirror number it), action type, what happened
        in words, and the digest.
        Note that a replayable log carries the seed: for a game still open, it
        predicts the board's next rolls. Returns the number of entries written.
        """
        log = self.log(game_id, seat)
        entries = log.pop("entries")
        if fmt == "jsonl":
            if not entries:
                log["entries"] = []
            out.write(canon.encode(log) + "\n")
            for e in entries:
                out.write(canon.encode(e) + "\n")
        elif fmt == "csv":
            w = csv.writer(out, lineterminator="\n")
            w.writerow(CSV_COLUMNS)
            words = _summaries(log, entries)
            for i, e in enumerate(entries):
                w.writerow((i + 1, e["action"].get("type", ""), words[i], e["digest"]))
        else:
            raise LogbookError("bad_format", "export formats are jsonl and csv, not %r" % (fmt,))
        return len(entries)


def _summaries(header, entries):
    """One line of words per entry (narrate's sentences), from the entries a seat may see.

    Falls back to the action's command for an entry the narrator cannot
    follow (a redacted one), so a summary is never missing. A named seat (the
    header's "names") is called by its name.
    """
    from chancery.words import commands, narrate

    g = engine.game_module(header["game"])
    out = [commands.command_text(e["action"], g.SCHEMAS) for e in entries]
    match = dict(header)
    match["entries"] = entries
    try:
        for i, _, sentences in narrate.history(match, 0, header.get("names")):
            if sentences:
                out[i] = " ".join(sentences)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuleError):
        pass
    return out
