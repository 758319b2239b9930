"""Match logs and scenario files on disk: read them strictly, write them atomically.

A log file is the JSON object of matches.log_of(match). We write it with the
header on the first line and one entry per line (still one JSON document), so
a damaged file can be traced to the entry it damages. JSON Lines is read too:
the header object on the first line, then one entry object per line (as a
board or tests/mp/playout.py streams them). Scenario files (shared_rules/
scenario.py) come in the same two shapes, with "actions" for "entries".

Loading checks only the file's shape (JSON, plain values, the fields a log
must have); whether the entries replay is matches.replay's job.

Names: a log's header may say the seats' names ("names": one per seat from seat 0,
null for a seat without one), beside the log and out of its digests, so a named log
replays as any other; `load_named` reads and checks them, `save` writes them.
"""

import json
import os
import pathlib
import tempfile
import time

from shared_rules import canon, engine, games, matches, seat_names
from shared_rules.errors import RuleError
from shared_rules.matches import LogError


class FileProblem(Exception):
    """A file that cannot be read as a log or scenario: the text says where and why."""


# --- reading ---------------------------------------------------------------

def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise FileProblem("no such file: %s" % path)
    except IsADirectoryError:
        raise FileProblem("%s is a directory, not a log file" % path)
    except UnicodeDecodeError:
        raise FileProblem("%s is not a text (UTF-8) file" % path)
    except OSError as e:
        raise FileProblem("cannot read %s: %s" % (path, e.strerror or e))


def _json_error(e, prefix="", lineno=None):
    return "%sline %d column %d: bad JSON: %s" % (prefix, e.lineno if lineno is None else lineno, e.colno, e.msg)


def _entry_at_error(text):
    """For a whole-file log that fails to parse: which entry holds the damage?

    Walks the "entries" array entry by entry; returns (index, JSONDecodeError)
    for the first entry that does not parse, or None if the damage is elsewhere.
    """
    decoder = json.JSONDecoder()
    at = text.find('"entries"')
    if at < 0:
        return None
    at = text.find("[", at)
    if at < 0:
        return None
    pos, index = at + 1, 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return None
        try:
            _, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            return index, e
        index += 1


def _plain(value, where):
    """Refuse what the canonical encoding cannot hold (floats, NaN)."""
    if value is None or isinstance(value, (bool, int, str)):
        return
    if isinstance(value, list):
        for item in value:
            _plain(item, where)
    elif isinstance(value, dict):
        for item in value.values():
            _plain(item, where)
    else:
        raise FileProblem("%s: %s is not allowed here (logs hold integers, strings, true/false/null, "
                          "lists and objects only)" % (where, json.dumps(value)))


def _content(text):
    """(line number, text) of the lines that are neither blank nor '#' comments."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            out.append((number, line))
    return out


def _jsonl_header(lines):
    """The first line's object if the lines are JSON Lines (a header, then items), else None.

    A one-line object with a "format" is our own whole-document log, so a log
    that lost its entries is reported as such rather than read as a new game.
    """
    if not lines:
        return None
    try:
        value = json.loads(lines[0][1])
    except json.JSONDecodeError:
        return None
    if not isinstance(value, dict) or "entries" in value or "actions" in value or "game" not in value:
        return None
    if len(lines) == 1 and "format" in value:
        return None
    return value


def _parse_lines(lines, header):
    """JSON Lines: a header, then one log entry or scenario item per line."""
    _plain(header, "header")
    log = "start" in header or "format" in header
    items = []
    for number, line in lines[1:]:
        try:
            value = json.loads(line)
        except json.JSONDecodeError as e:
            raise FileProblem(_json_error(e, "%s %d: " % ("entry" if log else "action", len(items)), number))
        items.append(value)
    doc = dict(header)
    log = log or bool(items and isinstance(items[0], dict) and "events" in items[0])
    doc["entries" if log else "actions"] = items
    what = "entry" if log else "action"
    for i in range(len(items)):
        _plain(items[i], "%s %d" % (what, i))
    return doc


def parse(text):
    """The document in a log or scenario file's text (a dict); raises FileProblem.

    A log or a scenario, as one JSON object or as JSON Lines ('#' lines are
    comments there). A JSON Lines file is a log when its header has a start
    digest or a format (or its lines carry events), else a scenario.
    """
    if not text.strip():
        raise FileProblem("the file is empty")
    if text.lstrip().startswith("idx,action,summary,digest"):  # store.CSV_COLUMNS: an export to read, not to replay
        raise FileProblem("this is a CSV export (`chancery log export --format csv`), a table to read: it holds no "
                          "settings, seed or events. Export the game with --format jsonl to replay it")
    lines = _content(text)
    header = _jsonl_header(lines)
    if header is not None:
        return _parse_lines(lines, header)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        found = _entry_at_error(text)
        if found is not None:
            raise FileProblem(_json_error(found[1], "entry %d: " % found[0]))
        raise FileProblem(_json_error(e))
    if not isinstance(doc, dict):
        raise FileProblem("a log or scenario is a JSON object, not %s" % type(doc).__name__)
    for key in doc:
        if key == "entries" and isinstance(doc[key], list):
            for i in range(len(doc[key])):
                _plain(doc[key][i], "entry %d" % i)
        elif key == "actions" and isinstance(doc[key], list):
            for i in range(len(doc[key])):
                _plain(doc[key][i], "action %d" % i)
        else:
            _plain(doc[key], "header")
    return doc


def is_scenario(doc):
    return "actions" in doc and "entries" not in doc


def check_log(doc):
    """The fields a log file must have beyond what matches.replay checks; raises LogError.

    "format" may be left out (streamed JSON Lines logs have none); if given it
    must be the engine's.
    """
    for key in ("game", "settings", "seed", "start", "entries"):
        if key not in doc:
            raise LogError(None, "the log has no %r" % key)
    if "format" in doc and doc["format"] != engine.FORMAT:
        raise LogError(None, "log format %s is not one this program reads (format %d)" % (
            canon.encode(doc["format"]), engine.FORMAT))
    if not isinstance(doc["entries"], list):
        raise LogError(None, "the log's 'entries' is not a list")
    for i in range(len(doc["entries"])):
        entry = doc["entries"][i]
        if not isinstance(entry, dict):
            raise LogError(i, "an entry is an object with an action, its events and a digest")
        for key in ("action", "events", "digest"):
            if key not in entry:
                raise LogError(i, "the entry has no %r" % key)


def load_match(path):
    """Read, check and replay a log file: the verified match. Raises FileProblem or LogError."""
    return load_named(path)[0]


def load_named(path):
    """(the verified match, its seats' names or None) of a log file (load_match). Names the
    rule refuses raise FileProblem saying which and why."""
    doc = parse(read_text(path))
    if is_scenario(doc):
        raise FileProblem("%s is a scenario file (it has actions, not entries), not a saved game" % path)
    check_log(doc)
    match = matches.replay(doc)
    names = doc.get("names")
    if names is not None:
        try:
            names = seat_names.check(names, match["settings"]["players"])
        except RuleError as e:
            raise FileProblem("header: its names: %s" % games.message(e))
    return match, names


# --- writing ---------------------------------------------------------------

def render(match, names=None):
    """A log's text: the header on the first line (with the seats' `names`, when any seat
    has one), then one entry per line."""
    log = matches.log_of(match)
    if names and [n for n in names if n is not None]:
        log["names"] = list(names)
    head = ",".join(["%s:%s" % (canon.encode(k), canon.encode(log[k]))
                     for k in sorted(log) if k != "entries"])
    lines = ["{" + head + ',"entries":[']
    entries = log.get("entries", [])
    for i in range(len(entries)):
        lines.append(canon.encode(entries[i]) + ("," if i + 1 < len(entries) else ""))
    lines.append("]}")
    return "\n".join(lines) + "\n"


def save(match, path, names=None):
    """Write the match's log (and its seats' `names`) to `path` atomically: temp file, fsync,
    rename, fsync the folder."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = render(match, names)
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, str(path))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dirfd = os.open(str(path.parent), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dirfd)
    except OSError:
        pass
    finally:
        os.close(dirfd)


def games_dir():
    try:
        import platformdirs

        base = pathlib.Path(platformdirs.user_data_dir("chancery", appauthor=False))
    except ImportError:
        base = pathlib.Path.home() / ".local" / "share" / "chancery"
    return base / "games"


def default_path(game, now=None):
    """A new file name in the user's data dir: games/<game>-<timestamp>.json."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    folder = games_dir()
    path = folder / ("%s-%s.json" % (game, stamp))
    n = 2
    while path.exists():
        path = folder / ("%s-%s-%d.json" % (game, stamp, n))
        n += 1
    return path
