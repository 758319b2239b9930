"""The King's Dilemma LED layout (hardware/layouts/kings_dilemma.json) and the generic
track kinds it uses (shared_rules/render_tracks.py: position, bar, seat_marker).

- From a real match (engine.new_match, engine.step): each Resource marker at its
  space in its colour with its Momentum as a trail (white up, dark red down, two
  LEDs with a Momentum marker), Stability and abdication, the Time Counter with
  the King's-Death space, the Balance bars (AYE, middle pool, NAY), the Leader,
  Moderator and whose turn it is, the step and the winners.
- Privacy: render only gets the public view; two states that differ only in a
  House's private Power and Coins light the same frame.
- The layout passes tests/rules/test_render.py's layout check and has a track for
  each thing the table needs.
- The generic kinds never write past the layout's LEDs nor above the level.
- The same King's Dilemma views give the same frames byte for byte under
  MicroPython (the .mpy build), through tests/mp/render_cases.py, and a render
  allocates nothing per LED there.
"""

import io
import json
import random

import board_files  # tests/helpers/board_files.py: the layouts as a board reads them
import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_render import _HEAP, _STUB, LAYOUT_DIR, MP_DIR, layout_problems, leds, render_cases, scaled

from chancery.board import micropython as mp
from chancery.hardware import files as hardware_files
from shared_rules import canon, engine, power, render
from shared_rules import kings_dilemma as kd
from shared_rules.errors import RuleError

GAME = "kings_dilemma"
RAW = json.loads((LAYOUT_DIR / "kings_dilemma.json").read_text(encoding="utf-8"))
LAYOUT = hardware_files.layout(RAW)  # placed on the arrangement, as every renderer reads it
SEATS = LAYOUT["seat_colours"]
C = LAYOUT["colours"]
RESOURCES = ("influence", "wealth", "morale", "welfare", "knowledge")
DARK = [0, 0, 0]
UP, DOWN = C["up"], C["down"]


def draw(view, level=255, layout=LAYOUT):
    return render.render(view, layout, bytearray(render.frame_size(layout)), level)


def lit(frame, name):
    return leds(frame, name, LAYOUT)


def play(actions, settings_=None, seed=11):
    """The state after `actions` from a new match, and the public view of each state on the way."""
    state = engine.new_match(GAME, settings_ or {"players": 4, "prestige": [2, 0, 3, 1]}, seed)["state"]
    views = [kd.view(state, None)]
    for act in actions:
        state = engine.step(GAME, state, act)[2]
        views.append(kd.view(state, None))
    return state, views


def resource(colour, pos, side=0, marker=0, length=9):
    """What a Resource track should show: the marker, its trail behind it (ahead when no room)."""
    out = [DARK] * length
    if side:
        n = 1 + marker
        first = pos - n if side > 0 else pos + 1
        if first < 0 or first + n > length:
            first = pos + 1 if side > 0 else pos - n
        for k in range(first, first + n):
            if 0 <= k < length:
                out[k] = UP if side > 0 else DOWN
    out[pos] = colour
    return out


ROLL = {"type": "roll", "values": [1, 2, 1, 2, 2], "source": "manual"}  # odd white (up), even black (down)
# 4 Houses; Prestige 2, 0, 3, 1: seat 2 leads (votes first), seat 1 moderates
VOTES = [
    ROLL,
    {"type": "vote", "side": "aye", "power": 3},  # seat 2
    {"type": "vote", "side": "nay", "power": 2},  # seat 3
    {"type": "pass", "kind": "moderate"},  # seat 0 takes the Moderator token
    {"type": "vote", "side": "aye", "power": 2},  # seat 1: AYE 5 to NAY 2, the phase ends
    {"type": "outcome", "resources": ["influence", "wealth", "morale"], "amounts": [1, -1, -2]},
    {"type": "place"},
    {"type": "vote", "side": "nay", "power": 1},  # round 2, seat 2
    {"type": "vote", "side": "nay", "power": 4},  # seat 3 commits the most: the Leader token
]


# ------------------------------------------------------------------ a real match, LED by LED

def test_before_the_roll_markers_are_centred_without_momentum():
    _, views = play([])
    frame = draw(views[0])
    for i, r in enumerate(RESOURCES):
        assert lit(frame, r) == resource(C[r], 4), r
    assert lit(frame, "stability") == [DARK] * 6 + [C["stability"]] + [DARK] * 6
    assert lit(frame, "step")[0] == C["step"]
    assert lit(frame, "time") == [DARK] * 7 + [C["death_empty"]]
    assert lit(frame, "turn") == [DARK] * 5


def test_the_roll_shows_each_resources_momentum():
    _, views = play([ROLL])
    frame = draw(views[1])
    sides = [1, -1, 1, -1, -1]
    for i, r in enumerate(RESOURCES):
        assert lit(frame, r) == resource(C[r], 4, sides[i]), r
    assert lit(frame, "influence")[3] == UP and lit(frame, "wealth")[5] == DOWN  # the trail is behind
    assert lit(frame, "step")[1] == C["step"]  # voting
    assert lit(frame, "leader") == [DARK, DARK, SEATS[2], DARK, DARK]
    assert lit(frame, "moderator") == [DARK, SEATS[1], DARK, DARK, DARK]
    assert lit(frame, "turn") == [DARK, DARK, SEATS[2], DARK, DARK]  # the Leader votes first


def test_the_balance_during_a_vote():
    state, views = play(VOTES[:4])
    assert state["committed"] == [0, 0, 3, 2] and state["middle"] == 3
    frame = draw(views[-1])
    assert lit(frame, "aye") == [C["aye"], scaled(C["aye"], 1, 2)] + [DARK] * 8  # 3 Power, 2 per LED
    assert lit(frame, "nay") == [C["nay"]] + [DARK] * 9
    assert lit(frame, "middle") == [C["middle"], scaled(C["middle"], 1, 2)] + [DARK] * 8
    assert lit(frame, "moderator") == [SEATS[0]] + [DARK] * 4  # the moderate pass took the token at once
    assert lit(frame, "turn") == [DARK, SEATS[1], DARK, DARK, DARK]


def test_after_the_vote_the_winners_power_is_on_the_middle():
    state, views = play(VOTES[:5])
    assert state["step"] == "outcome" and state["middle"] == 8
    frame = draw(views[-1])
    assert lit(frame, "aye") == [DARK] * 10 and lit(frame, "nay") == [DARK] * 10
    assert lit(frame, "middle") == [C["middle"]] * 4 + [DARK] * 6
    assert lit(frame, "turn") == [DARK] * 5
    assert lit(frame, "step")[4] == C["step"]


def test_the_outcome_moves_markers_and_momentum():
    state, views = play(VOTES[:6])
    # influence +1 with white: 2 spaces and a marker; wealth -1 with black: likewise;
    # morale -2 against white: 2 spaces, flipped to black, no marker
    assert state["resources"] == [6, 2, 2, 4, 4] and state["marker"] == [1, 1, 0, 0, 0]
    frame = draw(views[-1])
    assert lit(frame, "influence") == resource(C["influence"], 6, 1, 1)
    assert lit(frame, "influence")[4:7] == [UP, UP, C["influence"]]
    assert lit(frame, "wealth") == resource(C["wealth"], 2, -1, 1)
    assert lit(frame, "wealth")[2:5] == [C["wealth"], DOWN, DOWN]
    assert lit(frame, "morale") == resource(C["morale"], 2, -1, 0)
    assert lit(frame, "morale")[2:4] == [C["morale"], DOWN]
    assert lit(frame, "welfare") == resource(C["welfare"], 4, -1)
    stab = state["stability"]
    assert stab == 4 and lit(frame, "stability") == [C["stability"] if k == stab else DARK for k in range(13)]


def test_the_next_round_time_counter_and_a_new_leader():
    state, views = play(VOTES)
    assert state["placed"] == 1 and state["leader"] == 3 and state["turn"] == 0
    frame = draw(views[-1])
    assert lit(frame, "time") == [C["time"]] + [DARK] * 6 + [C["death_empty"]]
    assert lit(frame, "leader") == [DARK, DARK, DARK, SEATS[3], DARK]
    assert lit(frame, "nay") == [C["nay"], C["nay"], scaled(C["nay"], 1, 2)] + [DARK] * 7
    assert lit(frame, "turn") == [SEATS[0]] + [DARK] * 4


def scenario_actions(name):
    with open(str(LAYOUT_DIR.parent.parent / "tests" / "scenarios" / "kings-dilemma" / name)) as f:
        out = []
        for line in f:
            line = line.strip()
            if line and line[0] != "#":
                out.append(json.loads(line))
    header = out[0]
    return header, [a["action"] if "action" in a and "type" not in a else a for a in out[1:]]


def test_abdication_and_the_end_of_the_game():
    header, actions = scenario_actions("seed-l2366-abdication.jsonl")
    state, views = play(actions, header["settings"], header["seed"])
    assert state["abdicated"] == "bottom" and state["step"] == "over" and state["winners"] == [1, 2]
    frame = draw(views[-1])
    assert lit(frame, "stability") == [C["stability"]] + [C["abdicated"]] * 12
    # morale at the bottom, black with a marker: no room behind (below), so the trail is ahead
    assert lit(frame, "morale") == [C["morale"], DOWN, DOWN] + [DARK] * 6
    assert lit(frame, "winners") == [DARK, SEATS[1], SEATS[2], DARK, DARK]
    assert lit(frame, "step")[6] == C["step"]
    assert lit(frame, "time") == [C["time"], C["time"]] + [DARK] * 5 + [C["death_empty"]]
    before = [v for v in views if v["stability"] == 4][-1]  # before the abdication: no flag
    assert lit(draw(before), "stability").count(C["abdicated"]) == 0


def test_the_kings_death_space_lights_when_a_card_is_on_it():
    _, views = play([ROLL])
    v = dict(views[-1], placed=8)
    assert lit(draw(v), "time") == [C["time"]] * 7 + [C["death"]]
    v["settings"] = dict(v["settings"], death_space=5)  # the setting moves the space
    assert lit(draw(dict(v, placed=3)), "time") == [C["time"]] * 3 + [DARK, C["death_empty"], DARK, DARK, DARK]


def test_a_full_balance_and_a_five_house_table():
    _, views = play([ROLL], {"players": 5}, 3)
    v = dict(views[-1], committed=[9, 30, 0, 2, 1], choice=["aye", "aye", "gather", "nay", "aye"], middle=41)
    frame = draw(v)
    assert lit(frame, "aye") == [C["aye"]] * 10  # 40 Power: past the track, full, not wrapped
    assert lit(frame, "nay") == [C["nay"]] + [DARK] * 9
    assert lit(frame, "middle") == [C["middle"]] * 10
    assert lit(draw(dict(v, turn=4, leader=4)), "turn")[4] == SEATS[4]


# ------------------------------------------------------------------ privacy

def test_private_power_and_coins_never_change_the_frame():
    state, _ = play(VOTES[:4])
    other = canon.copy(state)
    other["power"][0] += 5
    other["coins"][3] = 0
    other["coins"][1] += 7
    assert kd.view(state, 0)["power"] != kd.view(other, 0)["power"]  # the Houses' own views differ
    assert draw(kd.view(state, None)) == draw(kd.view(other, None))
    assert kd.view(state, None)["power"] == [None] * 4  # render only ever gets this


def test_no_track_reads_a_private_field():
    for t in LAYOUT["tracks"]:
        for key in ("shows", "field", "side", "extra", "flag", "where"):
            assert t.get(key) not in ("power", "coins"), t["name"]


# ------------------------------------------------------------------ the layout file

def test_layout_is_well_formed():
    assert layout_problems(RAW) == []
    assert render.frame_size(LAYOUT) == 3 * LAYOUT["leds"]


def test_layout_has_every_track_the_table_needs():
    chancellors = json.loads((LAYOUT_DIR / "chancellors.json").read_text(encoding="utf-8"))
    assert LAYOUT["leds"] == 256 and LAYOUT["order"] == "GRB"
    assert LAYOUT["level"] == chancellors["level"] and LAYOUT["budget_ma"] == chancellors["budget_ma"]
    by = {t["name"]: t for t in LAYOUT["tracks"]}
    defaults = {s["name"]: s["default"] for s in kd.SETTINGS}
    for i, r in enumerate(RESOURCES):
        t = by[r]
        assert (t["shows"], t["field"], t["index"], t["length"]) == ("position", "resources", i,
                                                                     defaults["resource_track"])
        assert (t["side"], t["extra"]) == ("momentum", "marker") and t["colour"] in C
    assert (by["stability"]["length"], by["stability"]["flag"]) == (defaults["stability_track"], "abdicated")
    assert by["time"]["length"] == defaults["time_counter"] and by["time"]["mark_setting"] == "death_space"
    assert [(by[n]["shows"], by[n].get("equals")) for n in ("aye", "middle", "nay")] == [
        ("bar", "aye"), ("bar", None), ("bar", "nay")]
    for n in ("leader", "moderator", "turn", "winners"):
        assert (by[n]["shows"], by[n]["field"], by[n]["length"]) == ("seat_marker", n, 5)
    assert len(SEATS) == 5
    colours = [tuple(C[r]) for r in RESOURCES] + [tuple(UP), tuple(DOWN)]
    assert len(set(colours)) == len(colours)  # each Resource and each Momentum side its own colour
    fields = set(kd.view(play([])[0], None))
    for t in LAYOUT["tracks"]:
        assert t.get("field", t["shows"]) in fields, t["name"]
        for key in ("colour", "up", "down", "flag_colour", "mark_colour", "mark_empty"):
            assert key not in t or t[key] in C, (t["name"], key)


def test_a_busy_frame_fits_the_budget_once_limited():
    _, views = play(VOTES[:4])
    frame = draw(dict(views[-1], placed=8, middle=30), LAYOUT["level"])
    used = power.limit(frame, LAYOUT["budget_ma"])
    assert used > 0 and power.estimate_ma(frame) <= LAYOUT["budget_ma"]


# ------------------------------------------------------------------ the generic kinds, any layout and view

KINDS = ["position", "bar", "seat_marker", "step", "scores"]
FIELDS = ["resources", "momentum", "marker", "stability", "abdicated", "committed", "middle", "placed", "turn",
          "winners", "choice", "nothing"]


@st.composite
def kd_views(draw_):
    n = draw_(st.integers(3, 5))
    anything = st.none() | st.integers(-3, 40) | st.booleans() | st.text(max_size=3) | st.lists(
        st.integers(-3, 40) | st.none(), max_size=6)
    v = {
        "resources": draw_(st.lists(st.integers(-2, 12), min_size=5, max_size=5)),
        "momentum": draw_(st.lists(st.integers(-1, 1), min_size=5, max_size=5)),
        "marker": draw_(st.lists(st.integers(0, 1), min_size=5, max_size=5)),
        "stability": draw_(st.integers(-2, 15)),
        "abdicated": draw_(st.sampled_from(["", "top", "bottom"])),
        "committed": draw_(st.lists(st.integers(0, 40), min_size=n, max_size=n)),
        "choice": draw_(st.lists(st.sampled_from(["", "aye", "nay", "gather", "moderate"]), min_size=n, max_size=n)),
        "middle": draw_(st.integers(0, 60)),
        "placed": draw_(st.integers(0, 12)),
        "turn": draw_(st.none() | st.integers(-1, 6)),
        "winners": draw_(st.lists(st.integers(-1, 6), max_size=3)),
        "settings": {"death_space": draw_(st.integers(-1, 12))},
        "step": draw_(st.sampled_from(["roll", "vote", "over"])),
    }
    for key in draw_(st.lists(st.sampled_from(sorted(v)), max_size=3)):
        v[key] = draw_(anything)  # wrong types must not crash nor write out of place
    return v


@st.composite
def kd_layouts(draw_):
    n = draw_(st.integers(1, 40))
    colour = st.lists(st.integers(0, 255), min_size=3, max_size=3)
    names = ["a", "b", "c", "missing"]
    tracks = []
    for _ in range(draw_(st.integers(0, 10))):
        tracks.append({
            "name": "t", "start": draw_(st.integers(-8, n + 8)), "length": draw_(st.integers(0, 14)),
            "dir": draw_(st.sampled_from([1, -1])), "shows": draw_(st.sampled_from(KINDS)),
            "field": draw_(st.sampled_from(FIELDS)), "index": draw_(st.none() | st.integers(-1, 6)),
            "side": "momentum", "extra": "marker", "flag": "abdicated", "where": draw_(st.sampled_from(FIELDS)),
            "equals": "aye", "unit": draw_(st.integers(-1, 5)), "mark_setting": "death_space",
            "colour": draw_(st.sampled_from(names)), "up": draw_(st.sampled_from(names)),
            "down": draw_(st.sampled_from(names)), "flag_colour": "a", "mark_colour": "b", "mark_empty": "c",
            "values": ["roll", "vote"]})
    return {"leds": n, "tracks": tracks, "seat_colours": draw_(st.lists(colour, max_size=5)),
            "colours": {k: draw_(colour) for k in ("a", "b", "c")}}


@settings(max_examples=300, deadline=None)
@given(kd_views(), kd_layouts(), st.integers(0, 255), st.integers(1, 16))
def test_generic_kinds_never_write_past_the_leds_nor_above_the_level(view, layout, level, extra):
    size = render.frame_size(layout)
    frame = bytearray(b"\xa5" * (size + extra))
    assert render.render(view, layout, frame, level) is frame
    assert frame[size:] == b"\xa5" * extra
    assert max(frame[:size], default=0) <= level


@settings(max_examples=100, deadline=None)
@given(kd_views(), st.integers(0, 255))
def test_the_kings_dilemma_layout_renders_any_view(view, level):
    frame = draw(view, level)
    assert len(frame) == 3 * LAYOUT["leds"] and max(frame) <= level


# ------------------------------------------------------------------ the same frames under MicroPython

def kd_cases():
    """Public views along real matches (the scenarios and the votes above) and random ones, at
    several levels and budgets (some tight enough to limit, one too small for the idle current)."""
    vs = play(VOTES)[1]
    for name in ("seed-l2366-abdication.jsonl", "seed-l1944-five-player-vote.jsonl",
                 "seed-l2321-morale-gains-momentum.jsonl", "kings-death-fifth-card.jsonl"):
        header, actions = scenario_actions(name)
        state = engine.new_match(GAME, header.get("settings"), header.get("seed", 0))["state"]
        vs.append(kd.view(state, None))
        for act in actions:
            try:
                state = engine.step(GAME, state, act)[2]
            except RuleError:  # a scenario's deliberate refusal; anything else is a crash, and fails
                continue
            vs.append(kd.view(state, None))
    rnd = random.Random(5)
    base = vs[1]
    for _ in range(40):
        n = rnd.randint(3, 5)
        vs.append(dict(base, resources=[rnd.randint(0, 8) for _ in range(5)],
                       momentum=[rnd.choice([-1, 1]) for _ in range(5)], marker=[rnd.randint(0, 1) for _ in range(5)],
                       stability=rnd.randint(0, 12), abdicated=rnd.choice(["", "", "top", "bottom"]),
                       committed=[rnd.randint(0, 12) for _ in range(n)],
                       choice=[rnd.choice(["", "aye", "nay", "gather"]) for _ in range(n)],
                       middle=rnd.randint(0, 25), placed=rnd.randint(0, 9), turn=rnd.choice([None, 0, n - 1]),
                       leader=rnd.randrange(n), moderator=rnd.randrange(n)))
    return [{"view": v, "level": (255, 160, 77, 1, 0)[i % 5], "budget": (900, 400, 300, 200)[i % 4]}
            for i, v in enumerate(vs)]


def test_frames_are_the_same_under_micropython(micropython, mpy_build, tmp_path):
    cases = tmp_path / "cases.jsonl"
    with open(str(cases), "w", encoding="utf-8") as f:
        for case in kd_cases():
            f.write(json.dumps(case) + "\n")
    path = board_files.layout_file(GAME, tmp_path / "layout")  # as the board reads it
    out = io.StringIO()
    with open(str(cases), encoding="utf-8") as f:
        count = render_cases.run(LAYOUT, f, out.write)
    expected = out.getvalue()
    assert count >= 80 and expected.count("\n") == count
    assert " level=255 " in expected and " level=0 " in expected and "| level=1" in expected  # limits happened
    run = tmp_path / "run"
    run.mkdir()
    proc = mp.run_micropython(code=_STUB, args=[str(path), str(cases)], heap=heaps.BOARD, cwd=str(run),
                              path=[str(MP_DIR), str(mpy_build)], micropython=micropython)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    a, b = expected.splitlines(), proc.stdout.splitlines()
    if a != b:
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        pytest.fail("frames differ from case %d (CPython, then MicroPython):\n%s\n%s" % (
            first, a[first][:300] if first < len(a) else "(none)", b[first][:300] if first < len(b) else "(none)"))


def test_render_heap_under_micropython(micropython, mpy_build, tmp_path):
    """render_tracks.py's cost on the board (from .mpy) and one busy King's Dilemma
    render+limit: like Chancellors, nothing is allocated per LED."""
    busy = dict(play(VOTES[:4])[1][-1], placed=8, middle=30)
    code = _HEAP.replace("LAYOUT", repr(board_files.layout_file(GAME, tmp_path / "layout"))).replace(
        "VIEW", json.dumps(busy).replace("null", "None").replace("true", "True").replace("false", "False"))
    code = code.replace("b = gc.mem_alloc()\n", "b = gc.mem_alloc()\nfrom shared_rules import render_tracks\n"
                        "gc.collect()\nb2 = gc.mem_alloc()\n")
    code = code.replace("print(render.__file__", "print(b2 - b, render.__file__")
    proc = mp.run_micropython(code=code, heap=heaps.BOARD, cwd=str(tmp_path), path=[str(mpy_build)],
                              micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    tracks, rfile, _pfile, modules, _data, per_frame, lit = proc.stdout.split()
    print("render_tracks import: %s bytes; one King's Dilemma render+limit allocates %s bytes" % (tracks, per_frame))
    assert rfile.endswith("render.mpy")
    # render_tracks holds the generic kinds of every game's layout (six kinds), and whatever chunk of
    # the interned-name pool its import happens to start (render's names fill the one before it)
    assert int(modules) < 8 * 1024 and int(tracks) < 5.5 * 1024  # render and power: as tests/rules/test_render.py
    assert int(lit) > 60 and int(per_frame) < 64
