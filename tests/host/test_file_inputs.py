"""The host's file inputs, fuzzed: `chancery replay`, `chancery log import` and the scenario reader.

Each reads a file a person (or a tool) hands it, so each must answer a bad one, whatever
it holds, with a message naming the line and exit status 2, and change nothing: the
logbook stays as it was. Their bounds are the board link's (shared_rules/jsonlines.py:
a line's length before anything is parsed, its nesting, its numbers' digits).

- Adversarial files, each answer checked to the line: nesting far past any bound, on one
  line and spread over many; integers of thousands and of 100,000 digits; lines longer
  than a line may be; bytes that are not UTF-8; in the header and in an entry or action,
  as JSON Lines and as one document.
- A property test (hypothesis): logs and scenarios of every shape, mutated at random (bytes
  changed, spans cut, lines lost, repeated or swapped, adversarial text put in), fed to all
  three: no exception escapes, the exit status is 0, 1 (a scenario whose expectations
  fail) or 2, an exit 2 says one line naming a line of the file, and a refused import
  leaves the logbook byte for byte as it was.
"""

import contextlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys

import paths
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chancery import cli
from chancery.logbook import logfile
from chancery.logbook.store import Logbook
from shared_rules import canon, engine, jsonlines, matches

ROOT = paths.ROOT
SCENARIO = os.path.join(ROOT, "tests", "scenarios", "chancellors", "seed-l37-control-example.jsonl")
LINE = re.compile(r"\bline (\d+)\b")


def played():
    m = engine.new_match("chancellors", {"players": 3}, 7)
    for act in [{"type": "roll", "values": [3, 4, 1, 1, 5, 6, 2, 2], "source": "manual"},
                {"type": "reveal", "cards": ["Merchant", "Windfall", "Cave"]},
                {"type": "solve_part", "problem": 1, "card": "Ace of Knots", "aside": 0},
                {"type": "solve", "problem": 3, "cards": ["Mill"]}, {"type": "pass"}, {"type": "roll"}]:
        engine.apply(m, act)
    return m


def jsonl_log(m):
    log = matches.log_of(m)
    entries = log.pop("entries")
    return "\n".join([canon.encode(log)] + [canon.encode(e) for e in entries]) + "\n"


def scenario_document():
    with open(SCENARIO) as f:
        header, items = jsonlines.read_lines(f)
        doc = dict(header, actions=list(items))
    return json.dumps(doc, indent=2) + "\n"


MATCH = played()
FILES = {"log.json": logfile.render(MATCH), "log.jsonl": jsonl_log(MATCH),
         "scenario.jsonl": open(SCENARIO).read(), "scenario.json": scenario_document()}


@pytest.fixture(scope="module")
def where(tmp_path_factory):
    """A folder, with a logbook holding one game to compare against (its bytes, once closed)."""
    folder = tmp_path_factory.mktemp("inputs")
    with Logbook(str(folder / "book.sqlite3")) as book:
        game = book.begin_game(matches.log_of(dict(MATCH, entries=[])), "file", "test")
        for i, entry in enumerate(MATCH["entries"][:3]):
            book.add_entry(game, i, entry)
    return folder


def answer(argv):
    """cli.main(argv): (exit status, stdout, stderr); any exception escaping is the test's failure."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def logbook_dump(path):
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    try:
        return list(db.iterdump())
    finally:
        db.close()


def check_answer(code, err, text, allowed=(0, 2)):
    """An exit 2 says one line, naming a line of the file."""
    assert code in allowed, (code, err)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), err
        named = LINE.search(lines[0])
        assert named, err
        assert 1 <= int(named.group(1)) <= text.count("\n") + 1, (err, text.count("\n"))
        return int(named.group(1))
    return None


def replay_and_import(folder, name, data):
    """Replay the file and import it into a copy of the logbook: (replay's answer, import's)."""
    path = folder / name
    path.write_bytes(data)
    text = data.decode("utf-8", "replace")
    code, _, err = answer(["replay", str(path)])
    said = (code, check_answer(code, err, text, (0, 1, 2) if "scenario" in name else (0, 2)))
    book = folder / "copy.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(str(book) + suffix):
            os.remove(str(book) + suffix)
    shutil.copy(folder / "book.sqlite3", book)
    before = logbook_dump(book)
    old = os.environ.get("CHANCERY_LOGBOOK")
    os.environ["CHANCERY_LOGBOOK"] = str(book)
    try:
        code, _, err = answer(["log", "import", str(path)])
    finally:
        if old is None:
            del os.environ["CHANCERY_LOGBOOK"]
        else:
            os.environ["CHANCERY_LOGBOOK"] = old
    imported = (code, check_answer(code, err, text))
    if code != 0:
        assert logbook_dump(book) == before, err  # a refused import changes nothing
    return said, imported


def read_scenario(text):
    """The scenario reader (shared_rules/jsonlines.py): its items, or the line its ValueError names."""
    try:
        header, items = jsonlines.read_lines(io.StringIO(text))
        return [header] + list(items)
    except ValueError as e:
        named = LINE.match(str(e))
        assert named, str(e)
        assert 1 <= int(named.group(1)) <= text.count("\n") + 1, (str(e), text.count("\n"))
        return int(named.group(1))


# --- adversarial files, each answer to the line ----------------------------------------

DEEP = "[" * 100000 + "]" * 100000
DEEP_SHORT = "[" * 2000 + "]" * 2000  # within a line's length: the nesting bound answers
HUGE = "9" * 100000
LONG = "9" * 3000  # within a line's length, past CPython's int() only at 4,300 digits: the digits bound answers


def cases():
    log = FILES["log.jsonl"].splitlines()
    doc = FILES["log.json"].splitlines()
    sc = FILES["scenario.jsonl"].splitlines()
    first = next(i for i, line in enumerate(sc) if line and not line.startswith("#"))
    out = {
        # JSON Lines logs: the header line, then an entry's
        "jsonl header nested": ([DEEP_SHORT] + log[1:], 1, "nested deeper than"),  # not yet known as JSON Lines
        "jsonl header seed of 3,000 digits": ([log[0].replace('"seed":7', '"seed":' + LONG)] + log[1:], 1,
                                              "a number of more than 18 digits"),
        "jsonl header seed of 100,000 digits": ([log[0].replace('"seed":7', '"seed":' + HUGE)] + log[1:], 1,
                                                "more than 4096"),
        "jsonl entry nested 100,000 deep": (log[:3] + [DEEP] + log[4:], 4, "more than 4096"),
        "jsonl entry nested 2,000 deep": (log[:3] + ['{"action":' + DEEP_SHORT + "}"] + log[4:], 4,
                                          "nested deeper than 10"),
        "jsonl entry value of 3,000 digits": (log[:1] + [log[1].replace('"values":[3', '"values":[' + LONG)] + log[2:],
                                              2, "a number of more than 18 digits"),
        # one document: nesting on one line, and spread over many short ones
        "document entry nested": (doc[:2] + [DEEP_SHORT + ","] + doc[2:], 3, "nested deeper than 12"),
        "document nested over lines": (doc[:2] + ["["] * 3000 + ["]"] * 3000 + [","] + doc[2:], 13,
                                       "nested deeper than 12"),
        "document seed of 3,000 digits": ([doc[0].replace('"seed":7', '"seed":' + LONG)] + doc[1:], 1,
                                          "a number of more than 18 digits"),
        "document entry of 100,000 digits": (doc[:4] + [HUGE + ","] + doc[4:], 5, "more than 4096"),
        # scenarios, as JSON Lines
        "scenario action nested": (sc[:first + 2] + [DEEP_SHORT] + sc[first + 2:], first + 3, "nested deeper than 10"),
        "scenario seed of 3,000 digits": (sc[:first] + [sc[first].replace('"seed": ', '"seed": ' + LONG + ', "x": ')]
                                          + sc[first + 1:], first + 1, "a number of more than 18 digits"),
        "scenario action of 100,000 digits": (sc[:first + 1] + [HUGE] + sc[first + 1:], first + 2, "more than 4096"),
    }
    return {name: ("\n".join(lines) + "\n", line, says) for name, (lines, line, says) in out.items()}


CASES = cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_adversarial_file_is_answered_at_its_line(where, name):
    text, line, says = CASES[name]
    kind = "scenario.jsonl" if name.startswith("scenario") else "log.jsonl" if name.startswith("jsonl") else "log.json"
    (code, named), (icode, inamed) = replay_and_import(where, kind, text.encode())
    assert (code, named) == (2, line) and (icode, inamed) == (2, line), name
    _, _, err = answer(["replay", str(where / kind)])
    assert says in err, err
    if kind.endswith(".jsonl"):
        assert read_scenario(text) == line


def test_bytes_that_are_not_utf8_are_answered_at_their_line(where):
    data = FILES["log.jsonl"].encode().replace(b'"pass"', b'"p\xffss"')
    line = FILES["log.jsonl"][:FILES["log.jsonl"].index('"pass"')].count("\n") + 1
    (code, named), (icode, inamed) = replay_and_import(where, "log.jsonl", data)
    assert (code, named) == (2, line) and (icode, inamed) == (2, line)


def test_every_problem_a_replay_finds_names_its_line(where):
    """Past the reading: an entry the rules refuse, a digest that does not match, an entry
    whose contents make the core raise (a list where a count is), a header whose game is
    unknown. Line 1 is the header, line 2 entry 0."""
    doc = FILES["log.json"].splitlines()
    tampered = {2: doc[1].replace('"type":"roll"', '"type":"rolled"'),
                3: doc[2].replace('"digest":"', '"digest":"0'),
                4: doc[3].replace('"aside":0', '"aside":[0]'),
                1: doc[0].replace('"game":"chancellors"', '"game":"chess"')}
    for number, line in tampered.items():
        text = "\n".join(doc[:number - 1] + [line] + doc[number:]) + "\n"
        assert text != FILES["log.json"], number
        (code, named), (icode, inamed) = replay_and_import(where, "log.json", text.encode())
        assert (code, named, icode, inamed) == (2, number, 2, number), (number, line)


def test_an_entry_that_makes_the_core_raise_is_found_by_its_line(where, monkeypatch):
    """What the rules core raises besides its own errors (ODD_INPUT) names no entry: the
    shortest prefix of the log that raises it does."""
    real = matches.apply
    odd = MATCH["entries"][4]["action"]

    def apply(match, action):
        if canon.encode(action) == canon.encode(odd) and len(match["entries"]) == 4:
            raise TypeError("an odd entry")
        return real(match, action)

    monkeypatch.setattr(matches, "apply", apply)
    (code, named), (icode, inamed) = replay_and_import(where, "log.json", FILES["log.json"].encode())
    assert (code, named, icode, inamed) == (2, 6, 2, 6)
    _, _, err = answer(["replay", str(where / "log.json")])
    assert err.startswith("error: entry #5: line 6: it does not replay (TypeError: an odd entry)"), err


def test_the_command_answers_with_exit_2_and_no_traceback(where):
    """The installed command, as a process: the issue's two crashes, a RecursionError and
    int()'s ValueError, are answers now."""
    path = where / "deep.jsonl"
    path.write_text(FILES["log.jsonl"].splitlines()[0] + "\n" + "[" * 4000 + "]" * 4000 + "\n")
    env = dict(os.environ, CHANCERY_LOGBOOK=str(where / "book.sqlite3"),
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "host"), ROOT]))
    before = logbook_dump(where / "book.sqlite3")
    for argv in (["replay", str(path)], ["log", "import", str(path)]):
        proc = subprocess.run([sys.executable, "-m", "chancery"] + argv, capture_output=True, text=True, env=env,
                              timeout=60)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr and "line 2" in proc.stderr, proc.stderr
    assert logbook_dump(where / "book.sqlite3") == before


# --- mutated files: the property ---------------------------------------------------------

ADVERSARIAL = ["[" * 50, "[" * 3000, "{\"a\":" * 30, "{\"a\":" * 1000, "9" * 5000, "9" * 25, "-9" * 12,
               "]", "}", ",", ":", "\"", "\\", "#", "\n", "\n\n", "x" * 5000,
               "1.5", "1e999", "NaN", "-Infinity", "true", "null", "\"\\ud800\"", "\"\\u0000\"", "\x00", "\t",
               "\"entries\":[", "\"actions\":[", "{\"events\":[]}", "entry,action,summary,digest\n",
               "idx,action,summary,digest\n"]


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(FILES)))
    data = bytearray(FILES[name].encode())
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["byte", "cut", "insert", "lines", "truncate", "number"]))
        at = draw(st.integers(0, len(data)))
        if kind == "byte" and data:
            data[min(at, len(data) - 1)] = draw(st.integers(0, 255))
        elif kind == "cut":
            del data[at:at + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(ADVERSARIAL)).encode("utf-8", "surrogatepass")
        elif kind == "truncate":
            del data[at:]
        elif kind == "number":  # a number swapped for one far out of range, or negative
            spans = [m.span() for m in re.finditer(rb"\d+", bytes(data))]
            if spans:
                a, b = spans[draw(st.integers(0, len(spans) - 1))]
                data[a:b] = draw(st.sampled_from([b"9" * 19, b"-1", b"0", b"99999", b"4294967296"]))
        else:  # a line lost, repeated or swapped with the next
            rows = bytes(data).split(b"\n")
            k = draw(st.integers(0, max(len(rows) - 2, 0)))
            how = draw(st.sampled_from(["lose", "repeat", "swap"]))
            if how == "lose":
                del rows[k]
            elif how == "repeat":
                rows.insert(k, rows[k])
            elif k + 1 < len(rows):
                rows[k], rows[k + 1] = rows[k + 1], rows[k]
            data = bytearray(b"\n".join(rows))
    return name, bytes(data)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(mutated())
def test_a_mutated_file_is_answered_never_raised_and_changes_nothing(where, file):
    name, data = file
    replay_and_import(where, name, data)
    if name.endswith(".jsonl"):
        read_scenario(data.decode("utf-8", "replace"))
