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

Reading is bounded as the board's link bounds a frame (shared_rules/jsonlines.py's
MAX_LINE, MAX_DEPTH and MAX_DIGITS): every line's length before anything is parsed,
then the nesting and the numbers, so a hostile file ('[[[[...' deep, an integer of a
hundred thousand digits) is an answer, never a RecursionError or a ValueError from the
JSON parser. Every problem with a file's contents names its line (Rows), those that
replay finds included.
"""

import bisect
import json
import os
import pathlib
import re
import tempfile
import time

from shared_rules import canon, engine, games, jsonlines, matches, seat_names
from shared_rules.errors import RuleError
from shared_rules.matches import LogError

# What well-formed JSON with odd contents can make the rules core raise besides its own
# errors (a list where it wants an object, ...): reported as a bad file, never a traceback.
ODD_INPUT = (TypeError, ValueError, KeyError, IndexError, AttributeError)


class FileProblem(Exception):
    """A file that cannot be read as a log or scenario: the text says where and why."""


# --- reading ---------------------------------------------------------------

def read_text(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise FileProblem("no such file: %s" % path)
    except IsADirectoryError:
        raise FileProblem("%s is a directory, not a log file" % path)
    except OSError as e:
        raise FileProblem("cannot read %s: %s" % (path, e.strerror or e))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FileProblem("line %d: %s is not a text (UTF-8) file: byte 0x%02x" % (
            data.count(b"\n", 0, e.start) + 1, path, data[e.start]))


def item_name(what, index):
    """"entry #3" for the entry at index 2 (numbered from 1, as `log show`, the mirror and the
    CSV export number them); a scenario's "action 2" (from 0, as the scenario runner's)."""
    return "entry #%d" % (index + 1) if what == "entry" else "%s %d" % (what, index)


class Rows:
    """Where a file's parts are, to name the line of a problem: the header's line, and
    each entry's or action's (`what`)."""

    def __init__(self, header, items, what):
        self.header, self.items, self.what = header, items, what

    def line(self, index):
        """The line of item `index` (None: the header's; past the items: the last line's)."""
        if index is None or not self.items:
            return self.header
        return self.items[min(index, len(self.items) - 1)]

    def where(self, index):
        """"entry #3: line 4" (entries numbered from 1, as `log show` and the mirror number them;
        a scenario's "action 2: ..." from 0, as the scenario runner does), or "header: line 1"."""
        if index is None:
            return "header: line %d" % self.line(index)
        return "%s: line %d" % (item_name(self.what, index), self.line(index))

    def say(self, index, reason):
        return "%s: %s" % (self.where(index), reason)


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
    """Refuse what the canonical encoding cannot hold (floats, NaN). `where` names the line."""
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
    """(line number, text) of the lines that are neither blank nor '#' comments; raises
    FileProblem at the first line (of any kind) longer than a line may be."""
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > jsonlines.MAX_LINE:
            raise FileProblem("line %d: %d characters, more than %d (a log holds one entry a line)" % (
                number, len(line), jsonlines.MAX_LINE))
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
        value = jsonlines.loads(lines[0][1], lines[0][0])
    except ValueError:
        return None  # not a line of its own: the whole document's scan says what is wrong
    if not isinstance(value, dict) or "entries" in value or "actions" in value or "game" not in value:
        return None
    if len(lines) == 1 and "format" in value:
        return None
    _once_each(lines[0][1], "line %d" % lines[0][0])
    return value


def _once_each(text, where=None):
    """Refuse JSON that gives a key twice in one object: json.loads keeps the last, so a header
    with two "settings" would replay a game other than the one its author saw first. `where`: the
    line's name; None for a whole file, whose line is that of the key's second place in the text."""
    def pairs(items):
        seen = []
        for key, _ in items:
            if key in seen:
                said = where
                if said is None:
                    places = [m.start() for m in re.finditer(re.escape(json.dumps(key)) + r"\s*:", text)]
                    said = "line %d" % (text.count("\n", 0, places[1] if len(places) > 1 else 0) + 1)
                raise FileProblem("%s: the key %s is given twice in one object" % (said, json.dumps(key)))
            seen.append(key)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)


def _parse_lines(lines, header):
    """JSON Lines: a header, then one log entry or scenario item per line."""
    log = "start" in header or "format" in header
    items, numbers = [], []
    for number, line in lines[1:]:
        try:
            value = jsonlines.loads(line, number)
        except ValueError as e:
            raise FileProblem("%s: %s" % (item_name("entry" if log else "action", len(items)), e))
        _once_each(line, "%s (line %d)" % (item_name("entry" if log else "action", len(items)), number))
        items.append(value)
        numbers.append(number)
    doc = dict(header)
    log = log or bool(items and isinstance(items[0], dict) and "events" in items[0])
    doc["entries" if log else "actions"] = items
    rows = Rows(lines[0][0], numbers, "entry" if log else "action")
    _plain(header, rows.where(None))
    for i in range(len(items)):
        _plain(items[i], rows.where(i))
    return doc, rows


# A whole-document file's tokens: a string, a bracket or separator, a run of anything else
# (a number, true, a typo), or a quote that opens no string on its line.
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|[\[\]{},:]|[^\s\[\]{},:"]+|"')
_LONG_NUMBER = re.compile(r"\d{%d}" % (jsonlines.MAX_DIGITS + 1))


def _scan(text):
    """One pass over a whole-document file before it is parsed: raises FileProblem at the
    first line nested deeper than a document may be (an entry's bound, and two for the
    document and its list) or holding a number of too many digits. Returns the line of each
    item of its top-level "entries" or "actions" list."""
    ends = [m.start() for m in re.finditer("\n", text)]
    deepest = jsonlines.MAX_DEPTH + 2
    depth, items, prev, key, listing, item_next = 0, [], None, False, False, False
    for m in _TOKEN.finditer(text):
        tok = m.group()
        if item_next and tok not in ("]", ","):
            items.append(bisect.bisect_left(ends, m.start()) + 1)
        item_next = False
        if tok == "[" or tok == "{":
            if tok == "[" and depth == 1 and key and prev == ":":
                listing, item_next = True, True
            depth += 1
            if depth > deepest:
                raise FileProblem("line %d: nested deeper than %d" % (bisect.bisect_left(ends, m.start()) + 1, deepest))
        elif tok == "]" or tok == "}":
            if depth == 2 and listing:
                listing = False
            depth = max(depth - 1, 0)
        elif tok == ",":
            item_next = listing and depth == 2
        elif tok != ":":
            if tok[0] != '"' and _LONG_NUMBER.search(tok):
                raise FileProblem("line %d: a number of more than %d digits" % (
                    bisect.bisect_left(ends, m.start()) + 1, jsonlines.MAX_DIGITS))
            if depth == 1 and prev in ("{", ","):
                key = tok in ('"entries"', '"actions"')
        prev = tok
    return items


def parse(text):
    """The document in a log or scenario file's text (a dict); raises FileProblem."""
    return parse_lines(text)[0]


def parse_lines(text):
    """(the document, its Rows) from a log or scenario file's text; raises FileProblem
    naming the line.

    A log or a scenario, as one JSON object or as JSON Lines ('#' lines are
    comments there). A JSON Lines file is a log when its header has a start
    digest or a format (or its lines carry events), else a scenario.
    """
    if not text.strip():
        raise FileProblem("line 1: the file is empty")
    if text.lstrip().startswith(("entry,action,summary,digest", "idx,action,summary,digest")):  # store.CSV_COLUMNS
        # (idx: the exports before entries were numbered from 1): an export to read, not to replay
        raise FileProblem("line 1: this is a CSV export (`chancery log export --format csv`), a table to read: it "
                          "holds no settings, seed or events. Export the game with --format jsonl to replay it")
    lines = _content(text)
    header = _jsonl_header(lines)
    if header is not None:
        return _parse_lines(lines, header)
    numbers = _scan(text)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        found = _entry_at_error(text)
        if found is not None:
            raise FileProblem(_json_error(found[1], item_name("entry", found[0]) + ": "))
        raise FileProblem(_json_error(e))
    _once_each(text)
    first = lines[0][0]
    if not isinstance(doc, dict):
        raise FileProblem("line %d: a log or scenario is a JSON object, not %s" % (first, type(doc).__name__))
    log = "actions" not in doc or "entries" in doc
    rows = Rows(first, numbers, "entry" if log else "action")
    for key in doc:
        if key in ("entries", "actions") and isinstance(doc[key], list) and (key == "entries") == log:
            for i in range(len(doc[key])):
                _plain(doc[key][i], rows.where(i))
        else:
            _plain(doc[key], rows.where(None))
    return doc, rows


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


def replay(doc, rows):
    """check_log and matches.replay, every problem a FileProblem naming its line."""
    try:
        check_log(doc)
        return matches.replay(doc)
    except LogError as e:
        raise FileProblem(rows.say(e.entry, e.reason))
    except ODD_INPUT as e:
        raise FileProblem(rows.say(_first_odd(doc), "it does not replay (%s: %s)" % (type(e).__name__, e)))


def _first_odd(doc):
    """The entry whose replay raises one of ODD_INPUT (None: the header): the shortest
    prefix of the log that does, found by halving."""
    good, bad = 0, len(doc["entries"])  # replay(upto=bad) raises
    try:
        matches.replay(doc, upto=0)
    except (LogError,) + ODD_INPUT:
        return None
    while bad - good > 1:
        mid = (good + bad) // 2
        try:
            matches.replay(doc, upto=mid)
            good = mid
        except (LogError,) + ODD_INPUT:
            bad = mid
    return bad - 1 if bad else None


def load_match(path):
    """Read, check and replay a log file: the verified match. Raises FileProblem naming the line."""
    return load_named(path)[0]


def load_named(path):
    """(the verified match, its seats' names or None) of a log file (load_match). Names the
    rule refuses raise FileProblem saying which and why."""
    doc, rows = parse_lines(read_text(path))
    if is_scenario(doc):
        raise FileProblem(rows.say(None, "%s is a scenario file (it has actions, not entries), not a saved game"
                                   % path))
    match = replay(doc, rows)
    names = doc.get("names")
    if names is not None:
        try:
            names = seat_names.check(names, match["settings"]["players"])
        except RuleError as e:
            raise FileProblem(rows.say(None, "its names: %s" % games.message(e)))
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



def usual_mode():
    """The mode a new file gets here (0666 less the umask): a temporary file is made 0600, and a
    log written through one is renamed into place with this instead."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask

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
        os.chmod(tmp, usual_mode())
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
