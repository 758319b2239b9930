"""The MicroPython gate: shared_rules/ must behave identically under MicroPython.

The rules core runs on the board under MicroPython, compiled to .mpy, in a small
heap. These tests prove, on every run:

* the interpreter used really is MicroPython, and mpy-cross compiles the core
  into .mpy files of the bytecode version that interpreter loads;
* the core imports nothing MicroPython lacks and uses none of the constructs
  that behave differently there (checked statically, on the source);
* every scenario under tests/scenarios/ gives the same transcript, byte for
  byte, under CPython and under MicroPython from the .mpy build with a capped
  heap, and holds all its expectations;
* 240 random play-outs (2, 3 and 4 seats, half with the extended deck) give the
  same per-game lines on both interpreters, end within the cap with every
  invariant holding, and their logs replay: MicroPython's logs under CPython's
  matches.replay, and CPython's logs of the longest games under MicroPython
  with the capped heap.

Heaps: GATE_HEAP (64K, env CHANCERY_GATE_HEAP) caps the scenario runs and the
log replays, which hold the rules core and one log entry; that is the memory
gate. The random driver carries a few KB of its own code, so the play-outs run
with PLAYOUT_HEAP (env CHANCERY_PLAYOUT_HEAP). `python3 run.py bench` measures
the smallest heaps that work.
"""

import concurrent.futures
import contextlib
import io
import json
import os
import pathlib
import re
import sys

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mp_gate import check_source  # tests/helpers/mp_gate.py: the static check of a source

from chancery.board import micropython as mp
from shared_rules import canon, matches
from shared_rules.matches import LogError

pytestmark = pytest.mark.slow(order=4)  # takes minutes: started first (tests/conftest.py)

ROOT = pathlib.Path(paths.ROOT)
MP_DIR = ROOT / "tests" / "mp"
SCENARIO_DIR = ROOT / "tests" / "scenarios"
CORE = ROOT / "shared_rules"
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))

import gate_harness  # noqa: E402
import playout  # noqa: E402
import random_game  # noqa: E402
import run_scenarios  # noqa: E402

# The scenario runner's cap: a guard, not a budget (the chip's heap is 245 KB); 80K since the runner
# also takes the whole state's digest after every entry to compare both interpreters; 96K since Yes,
# Your Grace's worst-case Civil War needed 81-88K in a checkout with a longer path (each module's
# file name is interned, so the checkout's path counts).
GATE_HEAP = os.environ.get("CHANCERY_GATE_HEAP", heaps.BOARD)
PLAYOUT_HEAP = os.environ.get("CHANCERY_PLAYOUT_HEAP", heaps.BOARD)

# 240 games: seeds 1..240; seats cycle 2, 3, 4 and odd seeds use the extended
# deck (--mixed), so each of the six combinations is played 40 times.
FIRST_SEED = 1
GAMES = 240
BATCHES = 2  # MicroPython processes, run side by side

SCENARIOS = sorted(list(SCENARIO_DIR.glob("**/*.jsonl")) + list(SCENARIO_DIR.glob("**/*.json")))


# ------------------------------------------------------------------ fixtures

@pytest.fixture(scope="module")
def gate_path(mpy_build, tmp_path_factory):
    """MICROPYPATH for the gate: the compiled runners, then the .mpy build of shared_rules."""
    runners = gate_harness.compile_runners(str(tmp_path_factory.mktemp("runners")))
    return [runners, str(mpy_build)]


def _mp_output(proc):
    return "exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:])


# ------------------------------------------------------------------ the interpreter

def test_interpreter_is_micropython(micropython):
    """A CHANCERY_MICROPYTHON pointing at CPython (which accepts -X heapsize too) must not pass."""
    code = (
        "import sys, gc, micropython\n"
        "print(sys.implementation.name, sys.implementation._mpy, gc.mem_free() > 0)\n"
    )
    proc = mp.run_micropython(code=code, heap=GATE_HEAP, path=[], micropython=micropython, timeout=60)
    assert proc.returncode == 0, _mp_output(proc)
    name, mpy, free = proc.stdout.split()
    assert name == "micropython", "%s is not MicroPython: %s" % (micropython, proc.stdout)
    assert int(mpy) > 0 and free == "True"


def test_mpy_cross_compiles_the_core(micropython, tmp_path):
    """Every module compiles, and the .mpy header is what this MicroPython loads."""
    out = tmp_path / "mpy"
    built = mp.build_mpy(CORE, out)  # raises MpyCrossError naming the file on a compile error
    sources = sorted(p.relative_to(CORE).with_suffix(".mpy") for p in CORE.rglob("*.py")
                     if "__pycache__" not in p.parts and p.name not in mp.HOST_ONLY)  # the host's words: no board's
    assert sorted(pathlib.Path(b).relative_to(out / "shared_rules") for b in built) == sources
    version = mp.micropython_version(micropython)
    assert mp.mpy_cross_version() == version.mpy_version
    for path in built:
        head = pathlib.Path(path).read_bytes()[:4]
        assert head[0:1] == b"M", path
        assert head[1] == version.mpy & 0xFF, "%s: .mpy v%d, MicroPython loads v%d" % (path, head[1], version.mpy & 0xFF)
        # byte 2 names a native architecture (and its ABI sub-version) only when the file
        # holds machine code; the core must be portable bytecode, loadable on any port
        assert head[2] >> 2 == 0, "%s holds native code (arch %d), not portable bytecode" % (path, head[2] >> 2)


def test_a_removed_subpackage_leaves_no_folder_in_the_build(micropython, tmp_path):
    """A build kept across checkouts (chancery sim's, in the user cache) after a module became a
    package and back: the package's .mpy go, and its folder with them. An empty folder left there
    was imported by MicroPython as a namespace package ahead of the module beside it, and the
    simulated board died at boot ("no module named 'pkg.journal.Journal'")."""
    src = tmp_path / "pkg"
    (src / "journal").mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "journal" / "__init__.py").write_text("from pkg.journal.core import Journal\n")
    (src / "journal" / "core.py").write_text("class Journal:\n    WHERE = 'package'\n")
    out = tmp_path / "mpy"
    mp.build_mpy(src, out)
    import shutil

    shutil.rmtree(src / "journal")
    (src / "journal.py").write_text("class Journal:\n    WHERE = 'module'\n")
    mp.build_mpy(src, out)
    assert not (out / "pkg" / "journal").exists()
    import subprocess

    proc = subprocess.run([micropython, "-c", "from pkg.journal import Journal\nprint(Journal.WHERE)"],
                          capture_output=True, text=True, timeout=30, env=dict(os.environ, MICROPYPATH=str(out)))
    assert proc.stdout.split() == ["module"], proc.stdout + proc.stderr


# ------------------------------------------------------------------ static checks of the source

# check_source and the lists it checks against: tests/helpers/mp_gate.py

def core_sources():
    return sorted(p for p in CORE.rglob("*.py") if "__pycache__" not in p.parts)


def test_core_uses_only_what_micropython_offers():
    files = core_sources()
    assert files, "no sources under %s" % CORE
    problems = []
    for path in files:
        problems.extend(check_source(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT))))
    assert not problems, "shared_rules/ uses what MicroPython lacks:\n" + "\n".join(problems)


@pytest.mark.parametrize("snippet, expected", [
    ("import typing\n", "typing"),
    ("from dataclasses import dataclass\n", "dataclasses"),
    ("from functools import reduce\n", "functools"),
    ("import itertools as it\n", "itertools"),
    ("from __future__ import annotations\n", "__future__"),
    ("import enum, abc\n", "enum"),
    ("from contextlib import suppress\n", "contextlib"),
    ("import os\n", "os"),
    ("import socket\n", "not in the allowed list"),
    ("import json\njson.dumps({}, sort_keys=True)\n", "sort_keys"),
    ("x = 'a'.ljust(4)\n", "ljust"),
    ("x = 'a'.rjust(4)\n", "rjust"),
    ("x = 'a'.center(4)\n", "center"),
    ("x = '7'.zfill(3)\n", "zfill"),
    ("n = (5).bit_length()\n", "bit_length"),
    ("x = 1.5\n", "float"),
    ("x = 3 / 2\n", "true division"),
    ("def f(a, /, b): pass\n", "positional-only"),
    ("x = [*a, *b]\n", "SyntaxError"),
    ("x = {**d}\n", "{**d}"),
    ("class A(B, C): pass\n", "multiple inheritance"),
    ("m = __import__('shared_rules.canon')\n", "__import__"),
    ("match x:\n    case 1: pass\n", "match"),
    ("print('x', flush=True)\n", "flush"),
])
def test_the_source_checker_catches(snippet, expected):
    problems = check_source(snippet, "bad.py")
    assert problems and any(expected in p for p in problems), problems


def test_the_source_checker_passes_good_code():
    good = ("from shared_rules import canon\nimport binascii\nfrom micropython import const\n"
            "a, *b = [1, 2]\nx = f'{a=}'\nn = 7 // 2\nclass E(Exception):\n    pass\n"
            "s = '{:>4}'.format(3)\n")
    assert check_source(good, "good.py") == []


# ------------------------------------------------------------------ scenarios

def cpython_transcript(path):
    out = io.StringIO()
    failures = run_scenarios.transcript(str(path), out.write)
    return out.getvalue(), failures


@pytest.fixture(scope="module")
def mp_scenario_transcripts(micropython, gate_path):
    """The scenarios of each folder in one MicroPython process (GATE_HEAP, .mpy): {short name:
    transcript}. One process per folder, as a board loads the one game it plays."""
    chunks = {}
    folders = sorted({p.parent for p in SCENARIOS})
    for folder in folders:
        paths = [str(p) for p in SCENARIOS if p.parent == folder]
        proc = gate_harness.run("run_scenarios", paths, GATE_HEAP, gate_path, micropython=micropython)
        assert proc.returncode in (0, 1), "the scenario runner did not finish under MicroPython (heap %s, %s):\n%s" % (
            GATE_HEAP, folder.name, _mp_output(proc))
        name = None
        for line in proc.stdout.splitlines(True):
            if line.startswith("scenario "):
                name = line[len("scenario "):].strip()
                chunks[name] = ""
            if line.startswith("scenarios failed:"):
                break
            if name is not None:
                chunks[name] += line
    return chunks


def test_there_are_scenarios():
    assert SCENARIOS, "no scenario files under %s" % SCENARIO_DIR


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(SCENARIO_DIR)) for p in SCENARIOS])
def test_scenario_same_under_micropython(path, mp_scenario_transcripts):
    text, failures = cpython_transcript(path)
    short = run_scenarios._short(str(path))
    assert short in mp_scenario_transcripts, "MicroPython printed no transcript for %s" % short
    mp_text = mp_scenario_transcripts[short]
    assert "MemoryError" not in mp_text, "%s does not fit in a %s heap under MicroPython:\n%s" % (
        short, GATE_HEAP, mp_text[-2000:])
    assert mp_text == text, "transcripts differ (CPython first, then MicroPython):\n%s\n---\n%s" % (text, mp_text)
    assert failures == 0, "scenario %s fails:\n%s" % (short, text)


# ------------------------------------------------------------------ random play-outs

def _args(first, count, log=None):
    args = ["--games", str(count), "--first-seed", str(first), "--mixed"]
    if log:
        args += ["--log", str(log)]
    return args


def cpython_playout_text(first, count):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = playout.main(_args(first, count))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def mp_playouts(micropython, gate_path, tmp_path_factory):
    """The 240 games under MicroPython in BATCHES processes, logs streamed to a directory."""
    logs = tmp_path_factory.mktemp("mp-logs")
    size = (GAMES + BATCHES - 1) // BATCHES
    batches = [(FIRST_SEED + k * size, min(size, GAMES - k * size)) for k in range(BATCHES)]

    def one(batch):
        return gate_harness.run("playout", _args(batch[0], batch[1], logs), PLAYOUT_HEAP, gate_path,
                                micropython=micropython)

    with concurrent.futures.ThreadPoolExecutor(BATCHES) as pool:
        procs = list(pool.map(one, batches))
    return batches, procs, logs


def test_playouts_same_under_micropython(mp_playouts):
    batches, procs, _logs = mp_playouts
    for (first, count), proc in zip(batches, procs):
        status, text = cpython_playout_text(first, count)
        assert "MemoryError" not in proc.stdout + proc.stderr, "play-outs do not fit in %s:\n%s" % (
            PLAYOUT_HEAP, _mp_output(proc))
        assert proc.stdout == text, "per-game lines differ for seeds %d..%d (CPython first):\n%s\n---\n%s" % (
            first, first + count - 1, text, proc.stdout)
        assert status == 0 and proc.returncode == 0, "play-outs failed:\n" + "\n".join(
            line for line in text.splitlines() if "FAIL" in line)
    assert sum(c for _, c in batches) >= 200


def _summary(match):
    state = match["state"]
    return (len(match["entries"]), match["entries"][-1]["digest"] if match["entries"] else match["start"],
            state["ending"], state["winners"], state["scores"])


def read_log(path):
    """A log dict for matches.replay from a JSON-lines file written by playout.LogWriter."""
    lines = [x for x in pathlib.Path(path).read_text(encoding="utf-8").split("\n") if x]
    log = json.loads(lines[0])
    log["entries"] = [json.loads(x) for x in lines[1:]]
    return log


def test_micropython_logs_replay_under_cpython(mp_playouts):
    """Every log MicroPython streamed replays in CPython's engine with every event and digest equal."""
    batches, procs, logs = mp_playouts
    lines = {}
    for proc in procs:
        for line in proc.stdout.splitlines():
            m = re.match(r"seed=(\d+) players=(\d) ext=(\d) actions=(\d+) .*digest=(\w+) .*ending=(\w+)", line)
            if m:
                lines[int(m.group(1))] = m
    files = sorted(pathlib.Path(logs).glob("*.jsonl"))
    assert len(files) == GAMES and len(lines) == GAMES
    for path in files:
        log = read_log(path)
        try:
            match = matches.replay(log)
        except LogError as e:
            pytest.fail("%s does not replay under CPython: %s" % (path.name, e))
        m = lines[log["seed"]]
        count, digest, ending, _winners, _scores = _summary(match)
        assert (count, digest, ending) == (int(m.group(4)), m.group(5), m.group(6)), path.name
        assert log["settings"]["players"] == int(m.group(2))


def test_cpython_logs_replay_under_micropython_in_gate_heap(micropython, gate_path, tmp_path):
    """The rules core alone (one log entry at a time) in GATE_HEAP: the longest games of each size."""
    results = [playout.play_game(s, playout.players_for(s, 0), s % 2 == 1) for s in range(FIRST_SEED, FIRST_SEED + 60)]
    chosen = []
    for players in (2, 3, 4):
        same = [r for r in results if r["players"] == players]
        same.sort(key=lambda r: (-r["actions"], r["seed"]))
        chosen.extend(same[:2])
    paths = []
    expected = []
    for r in chosen:
        w = playout.LogWriter(str(tmp_path), r["seed"], r["players"], r["extended"])
        again = playout.play_game(r["seed"], r["players"], r["extended"], w.entry)
        w.close()
        assert again == r, "play_game is not deterministic for seed %d" % r["seed"]
        paths.append(os.path.join(str(tmp_path), "game-%d-%d%s.jsonl" % (r["seed"], r["players"],
                                                                          "-x" if r["extended"] else "")))
        expected.append("seed=%d players=%d ext=%d actions=%d digest=%s crc=%08x ending=%s winners=%s scores=%s" % (
            r["seed"], r["players"], 1 if r["extended"] else 0, r["actions"], r["digest"], r["crc"], r["ending"],
            canon.encode(r["winners"]), canon.encode(r["scores"])))
    proc = gate_harness.run("replay_log", paths, GATE_HEAP, gate_path, micropython=micropython)
    assert "MemoryError" not in proc.stdout + proc.stderr, \
        "a full game does not fit in a %s heap under MicroPython (rules core from .mpy):\n%s" % (
            GATE_HEAP, _mp_output(proc))
    assert proc.returncode == 0 and proc.stdout.splitlines() == expected, _mp_output(proc)


def test_replay_catches_a_tampered_log(tmp_path):
    w = playout.LogWriter(str(tmp_path), 5, 3, False)
    playout.play_game(5, 3, False, w.entry)
    w.close()
    log = read_log(tmp_path / "game-5-3.jsonl")
    matches.replay(log)
    # LogWriter streams each entry piecewise; the lines must still be canonical
    lines = (tmp_path / "game-5-3.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines[1:] == [canon.encode(e) for e in log["entries"]]
    entry = log["entries"][len(log["entries"]) // 2]
    entry["digest"] = "%08x" % (int(entry["digest"], 16) ^ 1)
    with pytest.raises(LogError):
        matches.replay(log)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=-2 ** 40, max_value=2 ** 40), players=st.sampled_from([2, 3, 4]),
       extended=st.booleans())
def test_random_games_end_within_the_cap(seed, players, extended):
    """Any seed: the game ends (target or catastrophe) within the cap, every invariant holding."""
    r = playout.play_game(seed, players, extended)  # PlayoutFailure on a broken invariant
    assert r["ending"] in ("target", "catastrophe"), playout.line(r)
    assert r["actions"] < playout.CAP


# ------------------------------------------------------------------ random games of the other games

# Random games of the other games, built only from legal(): The King's Dilemma with a short
# Time Counter (the King dies within a few dozen actions), 100 games of the rulebook's open
# vote and 50 more of the sealed variant, whose votes are sealed ballots that the runner
# casts, closes and reveals as the board does; The Council, 50 games (its games are the
# longest), and 50 more with the extended deck, three events a hand and the rulings' other
# options; Yes, Your Grace, 100 games, and 50 more with the Steward counting every Economic
# Holding (Y2) and shorter Annals (Y1). Twice as many took 3.5 minutes of the suite's 15; the
# rules' invariants are also the rules tests' random play (CPython), and these check that both
# interpreters play the games the same, inside the board's heap.
RANDOM_RUNS = [
    ("kings_dilemma", 100, '{"time_counter": 4, "death_space": 4}'),
    ("kings_dilemma", 50, '{"time_counter": 4, "death_space": 4, "voting": "sealed"}'),
    ("the_council", 50, '{}'),
    ("the_council", 50, '{"extended": true, "events": 3, "effects": "all", "lowest": "bidders", '
                        '"lowest_ties": "all"}'),
    ("yes_your_grace", 100, '{}'),
    ("yes_your_grace", 50, '{"steward": "all", "annals": 6}'),
]
RANDOM_HEAP = heaps.BOARD  # the board's budget


@pytest.mark.parametrize("game, games, settings", RANDOM_RUNS,
                         ids=["kd-open", "kd-sealed", "council", "council-options", "yyg", "yyg-options"])
def test_random_games_same_under_micropython(micropython, gate_path, game, games, settings):
    """Random games built only from legal() (tests/mp/random_game.py), one line each
    (actions accepted and refused, the end, the final digest): the same on both interpreters
    (under the board's 96K, in two processes side by side), every game over, no refusal
    changing the state."""
    half = games // 2
    batches = [(1, half), (1 + half, games - half)]

    def mp_run(batch):
        return gate_harness.run("random_game", [game, str(batch[0]), str(batch[1]), settings], RANDOM_HEAP,
                                gate_path, micropython=micropython)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        procs = list(pool.map(mp_run, batches))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = random_game.main([game, "1", str(games), settings])
    text = out.getvalue()
    assert status == 0 and len(text.splitlines()) == games, text[-2000:]
    assert all(" over " in line for line in text.splitlines()), text[-2000:]
    mp_text = "".join(p.stdout for p in procs)
    for proc in procs:
        assert "MemoryError" not in proc.stdout + proc.stderr, "does not fit in %s:\n%s" % (RANDOM_HEAP,
                                                                                           _mp_output(proc))
    assert mp_text == text, "per-game lines differ (CPython first):\n%s\n---\n%s" % (text[-1500:], mp_text[-1500:])
