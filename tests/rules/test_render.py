"""The LED frame (shared_rules/render.py), the current limiter (shared_rules/power.py)
and the layouts they read (hardware/layouts/*.json).

- What a view lights, LED by LED, on the Chancellors layout: scores with the
  partly filled LED in proportion, services in the holder's colour, dice as
  pips, solved and set-aside dice, the step, whose chance it is, the Excuse.
- Properties: render never writes past the layout's LEDs whatever the layout
  and the view, overwrites whatever the frame held, never exceeds the
  brightness cap; limit() never leaves a frame over budget, never brightens
  and leaves a limited frame alone.
- Every layout file is well formed: its tracks placed on the board's arrangement
  (hardware/arrangement.json), on the grid, disjoint and each in reading order; a
  track that is not one run on the strip is drawn LED by LED through its indices.
- The same cases (fixed views, views from real play-outs, random views) give
  the same frames byte for byte under MicroPython from the .mpy build.
"""

import io
import json
import pathlib
import random
import sys

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chancery.board import micropython as mp
from chancery.deploy import flash as deploy
from chancery.hardware import arrangement as cells
from chancery.hardware import files as hardware_files
from chancery.hardware import power as power_cmd
from shared_rules import chancellors, engine, power, render

ROOT = pathlib.Path(paths.ROOT)
MP_DIR = ROOT / "tests" / "mp"
LAYOUT_DIR = ROOT / "hardware" / "layouts"
LAYOUTS = sorted(LAYOUT_DIR.glob("*.json"))
if str(MP_DIR) not in sys.path:
    sys.path.insert(0, str(MP_DIR))

import playout  # noqa: E402
import render_cases  # noqa: E402

STEPS = ("roll", "A", "B", "C", "over")
SERVICES = ("diplomatic", "army", "navy")


def load(name="chancellors"):
    """The layout as every renderer reads it: placed on the arrangement (each track's `idx`)."""
    return hardware_files.layout(name)


GRID = hardware_files.arrangement()


LAYOUT = load()
SEATS = LAYOUT["seat_colours"]
COLOURS = LAYOUT["colours"]


def view_of(players=4, **fields):
    """A fresh game's public view with some fields replaced."""
    v = chancellors.view(chancellors.initial({"players": players, "target": 100, "extended": True}, 1))
    v.update(fields)
    return v


def draw(view, level=255, layout=LAYOUT):
    return render.render(view, layout, bytearray(render.frame_size(layout)), level)


def track(name, layout=LAYOUT):
    return [t for t in layout["tracks"] if t["name"] == name][0]


def leds(frame, name, layout=LAYOUT):
    """The track's LEDs as [r, g, b] lists, in the track's own order (its first LED first)."""
    return [list(frame[3 * i:3 * i + 3]) for i in track(name, layout)["idx"]]


def scaled(colour, num, den=1):
    return [c * num // den for c in colour]


DARK = [0, 0, 0]

# ------------------------------------------------------------------ what a view lights


def test_a_score_of_35_lights_three_leds_and_a_half():
    frame = draw(view_of(scores=[35, 0, 0, 35]))
    assert leds(frame, "score0") == [SEATS[0]] * 3 + [scaled(SEATS[0], 5, 10)] + [DARK] * 6
    # seat 0's row (row 9) runs right to left on the serpentine strip: the track's first LED, its
    # leftmost (column 6), is strip LED 9 * 16 + 15 - 6 = 153, and its fourth is LED 150
    assert cells.index(GRID, 6, 9) == 153 and track("score0")["at"] == [6, 9]
    assert list(frame[153 * 3:154 * 3]) == SEATS[0]
    assert list(frame[150 * 3:151 * 3]) == scaled(SEATS[0], 5, 10)
    assert list(frame[21 * 3:22 * 3]) == DARK
    assert leds(frame, "score3") == [SEATS[3]] * 3 + [scaled(SEATS[3], 5, 10)] + [DARK] * 6
    assert leds(frame, "score1") == [DARK] * 10


def test_scores_at_the_ends_of_the_track():
    frame = draw(view_of(scores=[0, 10, 99, 180]))
    assert leds(frame, "score0") == [DARK] * 10
    assert leds(frame, "score1") == [SEATS[1]] + [DARK] * 9
    assert leds(frame, "score2") == [SEATS[2]] * 9 + [scaled(SEATS[2], 9, 10)]
    assert leds(frame, "score3") == [SEATS[3]] * 10  # past the track: full, not wrapped


def test_level_caps_every_channel():
    frame = draw(view_of(scores=[35, 0, 0, 0]), level=100)
    assert leds(frame, "score0")[:4] == [scaled(SEATS[0], 100, 255)] * 3 + [scaled(SEATS[0], 100 * 5, 255 * 10)]
    assert max(frame) <= 100
    assert max(draw(view_of(scores=[50] * 4), level=0)) == 0


def test_services_show_the_holders_colour():
    frame = draw(view_of(control={"diplomatic": 2, "army": None, "navy": 0}))
    assert leds(frame, "diplomatic") == [SEATS[2]]
    assert leds(frame, "army") == [DARK]
    assert leds(frame, "navy") == [SEATS[0]]


def test_a_4_2_problem_shows_its_pips():
    problems = [[1, 1], [4, 2], [6, 5], [3, 3], [2, 6]]
    frame = draw(view_of(problems=problems, pending=[], step="B"))
    assert leds(frame, "p1d0") == [COLOURS["pip"]] * 4 + [DARK] * 2
    assert leds(frame, "p1d1") == [COLOURS["pip"]] * 2 + [DARK] * 4
    assert leds(frame, "p2d0") == [COLOURS["pip"]] * 6
    # problem 0's row (row 3) runs right to left on the strip: die 0's first pip, its leftmost
    # LED (column 3), is the highest strip index of its six; problem 1's (row 4) runs left to right
    first = track("p0d0")["idx"]
    assert first == list(range(60, 54, -1)) and cells.index(GRID, 3, 3) == 60
    assert list(frame[60 * 3:61 * 3]) == COLOURS["pip"]  # a 1: its first pip alone
    assert list(frame[55 * 3:56 * 3]) == DARK
    assert track("p1d0")["idx"] == list(range(67, 73))
    assert list(frame[70 * 3:71 * 3]) == COLOURS["pip"] and list(frame[71 * 3:72 * 3]) == DARK


def test_a_solved_problem_is_shown_distinctly():
    problems = [[1, 1], [4, 2], [6, 5], [3, 3], [2, 6]]
    frame = draw(view_of(problems=problems, pending=[], step="C", solved=["", "full", "part", "", ""],
                         aside=[-1, -1, 0, -1, -1]))
    assert leds(frame, "p1d0") == [COLOURS["solved"]] * 4 + [DARK] * 2
    assert leds(frame, "p1d1") == [COLOURS["solved"]] * 2 + [DARK] * 4
    assert leds(frame, "p2d0") == [DARK] * 6  # set aside: its value no longer counts
    assert leds(frame, "p2d1") == [COLOURS["part"]] * 5 + [DARK]
    assert COLOURS["solved"] != COLOURS["pip"] != COLOURS["part"]


def test_dice_waiting_for_a_roll_are_dim():
    problems = [[1, 1], [4, 2], [6, 5], [3, 3], [2, 6]]
    frame = draw(view_of(problems=problems, pending=[[1, 1]], step="roll"))
    assert leds(frame, "p1d1") == [COLOURS["waiting"]] * 6
    assert leds(frame, "p1d0") == [COLOURS["pip"]] * 4 + [DARK] * 2
    fresh = draw(view_of())  # before the first roll every die is 0 and pending
    assert leds(fresh, "p4d1") == [COLOURS["waiting"]] * 6
    assert sum(COLOURS["waiting"]) * 4 < sum(COLOURS["pip"])


def test_problems_and_seats_a_smaller_game_lacks_stay_dark():
    frame = draw(view_of(players=2, scores=[90, 90], problems=[[6, 6]] * 3, pending=[], queue=[[1, ""]],
                         step="C"))
    for name in ("p3d0", "p3d1", "p4d0", "p4d1", "score2", "score3"):
        assert leds(frame, name) == [DARK] * track(name)["length"], name
    assert leds(frame, "p2d1") == [COLOURS["pip"]] * 6


def test_step_chance_and_excuse():
    frame = draw(view_of(step="B", queue=[[2, "army"], [0, "navy"]], excuse=3))
    assert leds(frame, "step") == [DARK, DARK, COLOURS["step"], DARK, DARK]
    assert leds(frame, "chance") == [DARK, DARK, SEATS[2], DARK]
    assert leds(frame, "excuse") == [DARK, DARK, DARK, COLOURS["excuse"]]
    over = draw(view_of(step="over", queue=[], winners=[0, 3], excuse=None))
    assert leds(over, "step")[4] == COLOURS["step"]
    assert leds(over, "chance") == [SEATS[0], DARK, DARK, SEATS[3]]
    assert leds(over, "excuse") == [DARK] * 4


def test_unused_leds_are_cleared():
    layout = dict(LAYOUT, leds=LAYOUT["leds"] + 4)  # four LEDs past every track
    frame = bytearray(b"\xff" * render.frame_size(layout))
    render.render(view_of(scores=[100] * 4), layout, frame)
    assert frame[LAYOUT["leds"] * 3:] == bytes(12)


def test_missing_fields_and_unknown_tracks_do_not_crash():
    layout = dict(LAYOUT, tracks=list(LAYOUT["tracks"]) + [
        {"name": "odd", "label": "?", "start": 0, "length": 3, "dir": 1, "shows": "votes"}])
    assert max(draw({}, layout=layout)) == 0
    frame = draw({"scores": [35]}, layout=layout)  # another game: only a score
    assert leds(frame, "score0")[3] == scaled(SEATS[0], 5, 10)
    bare = {"game": "x", "leds": 5, "tracks": [{"name": "s", "start": 0, "length": 5, "dir": 1,
                                                 "shows": "scores", "seat": 0}]}
    assert max(draw(view_of(scores=[50] * 4), layout=bare)) == 0  # no colours: dark, not a crash


def test_a_short_frame_is_refused():
    with pytest.raises(ValueError):
        render.render(view_of(), LAYOUT, bytearray(render.frame_size(LAYOUT) - 1))


# ------------------------------------------------------------------ random views and layouts

def views(max_seats=4):
    seat = st.integers(0, max_seats - 1)

    @st.composite
    def build(draw_):
        n = draw_(st.integers(2, max_seats))
        p = n + 1
        v = {
            "scores": draw_(st.lists(st.integers(0, 160), min_size=n, max_size=n)),
            "control": {s: draw_(st.none() | seat) for s in SERVICES},
            "problems": draw_(st.lists(st.lists(st.integers(0, 6), min_size=2, max_size=2), min_size=p,
                                       max_size=p)),
            "solved": draw_(st.lists(st.sampled_from(["", "part", "full"]), min_size=p, max_size=p)),
            "aside": draw_(st.lists(st.integers(-1, 1), min_size=p, max_size=p)),
            "pending": draw_(st.lists(st.lists(st.integers(0, p - 1), min_size=2, max_size=2).map(
                lambda x: [x[0], x[1] % 2]), max_size=2 * p)),
            "step": draw_(st.sampled_from(STEPS)),
            "queue": draw_(st.lists(st.tuples(seat, st.sampled_from([""] + list(SERVICES))).map(list),
                                    max_size=n)),
            "excuse": draw_(st.none() | seat),
            "winners": draw_(st.lists(seat, max_size=n, unique=True)),
            "settings": {"players": n, "target": 100, "extended": True},
        }
        for key in draw_(st.lists(st.sampled_from(sorted(v)), max_size=3)):
            v.pop(key, None)  # a view that lacks some fields
        return v

    return build()


SHOWS = ["scores", "control", "problems", "step", "queue", "excuse", "votes"]


@st.composite
def layouts(draw_):
    """Any layout, well formed or not: tracks may overlap or run off either end."""
    n = draw_(st.integers(1, 40))
    colour = st.lists(st.integers(0, 255), min_size=3, max_size=3)
    tracks = []
    for _ in range(draw_(st.integers(0, 12))):
        if draw_(st.booleans()):  # on the bare strip
            place = {"start": draw_(st.integers(-8, n + 8)), "length": draw_(st.integers(0, 12)),
                     "dir": draw_(st.sampled_from([1, -1]))}
        else:  # the strip's indices of its LEDs, in any order, as a track across rows has them
            idx = draw_(st.lists(st.integers(-8, n + 8), max_size=12))
            place = {"idx": idx, "length": len(idx)}
        t = {"name": "t", "shows": draw_(st.sampled_from(SHOWS)),
             "seat": draw_(st.integers(0, 3)), "service": draw_(st.sampled_from(SERVICES)),
             "problem": draw_(st.integers(0, 4)), "die": draw_(st.integers(0, 1)), "unit": draw_(st.integers(1, 20)),
             "values": list(STEPS)}
        t.update(place)
        tracks.append(t)
    return {"leds": n, "tracks": tracks, "seat_colours": draw_(st.lists(colour, min_size=4, max_size=4)),
            "colours": {k: draw_(colour) for k in ("pip", "waiting", "part", "solved", "step", "excuse")}}


@settings(max_examples=300, deadline=None)
@given(views(), layouts(), st.integers(0, 255), st.integers(1, 16))
def test_render_never_writes_past_the_layouts_leds(view, layout, level, extra):
    size = render.frame_size(layout)
    frame = bytearray(b"\xa5" * (size + extra))
    assert render.render(view, layout, frame, level) is frame
    assert frame[size:] == b"\xa5" * extra
    assert max(frame[:size]) <= level  # the brightness cap holds for every byte


@settings(max_examples=200, deadline=None)
@given(views(), st.integers(0, 255), st.binary(min_size=768, max_size=768))
def test_render_is_deterministic_whatever_the_frame_held(view, level, junk):
    a = draw(view, level)
    b = bytearray(junk)
    render.render(view, LAYOUT, b, level)
    assert a == b == draw(view, level)


@settings(max_examples=150, deadline=None)
@given(views(), layouts(), st.integers(0, 255), st.integers(0, 8), st.randoms(use_true_random=False))
def test_the_boards_fast_path_renders_the_same(view, layout, level, extra, rnd):
    """The board clears the frame in C (from zero bytes, or itself before render: dark=False) and
    keeps the layout's plan(): the same frame as render's own clearing and working-out, the tail past the layout's
    LEDs untouched either way."""
    size = render.frame_size(layout)
    junk = bytes(rnd.randrange(256) for _ in range(size)) + b"\x5a" * extra
    plain = bytearray(junk)
    render.render(view, layout, plain, level, 1)
    fast = bytearray(junk)
    render.render(view, layout, fast, level, 1, bytes(len(fast)), render.plan(layout))
    assert fast == plain and fast[size:] == b"\x5a" * extra
    cleared = bytearray(size) + b"\x5a" * extra  # dark=False: the board cleared it (framebuf's fill)
    render.render(view, layout, cleared, level, 1, False, render.plan(layout))
    assert cleared == plain


def test_the_shared_view_the_board_renders_is_the_public_view():
    """view(state, None, True) holds the state's own lists instead of copies (the board only reads
    it, at once): its content is the public view's, and rendering it leaves the state as it was."""
    for game in ("chancellors", "kings_dilemma", "the_council", "yes_your_grace"):
        g = engine.game_module(game)
        state = engine.new_match(game, {}, 5)["state"]
        before = json.dumps(state, sort_keys=True)
        layout = load(game)
        frame = bytearray(render.frame_size(layout))
        render.render(g.view(state, None, True), layout, frame, 160, 1)
        assert g.view(state, None, True) == g.view(state, None)
        assert bytes(frame) == bytes(render.render(g.view(state, None), layout, bytearray(len(frame)), 160, 1))
        assert json.dumps(state, sort_keys=True) == before


# ------------------------------------------------------------------ the current limiter

frames = st.integers(1, 120).flatmap(lambda n: st.binary(min_size=3 * n, max_size=3 * n))


def test_estimate_figures():
    assert power.estimate_ma(bytearray(3 * 10)) == 10  # dark: 1 mA each
    assert power.estimate_ma(bytearray(b"\xff" * 3)) == 61  # one white LED at full
    assert power.estimate_ma(bytearray([255, 0, 0, 0, 0, 0])) == 22
    assert power.estimate_ma(bytearray([1, 0, 0])) == 2  # the lit part rounds up
    # every LED of a track white, and every LED of the panel drawing its chip's 1 mA
    assert power_cmd.lit_leds(LAYOUT) == 116 and LAYOUT["leds"] == 256
    assert power_cmd.worst_case_ma(LAYOUT) == 116 * 60 + 256
    assert power_cmd.worst_case_ma({"leds": 2}, level=128) == (2 * 3 * 128 * 20 + 254) // 255 + 2


@given(st.integers(1, 200), st.integers(0, 255))
def test_worst_case_is_the_estimate_of_an_all_white_frame(n, level):
    assert power_cmd.worst_case_ma({"leds": n}, level) == power.estimate_ma(bytearray([level] * 3 * n))


@settings(max_examples=400, deadline=None)
@given(frames, st.integers(0, 8000))
def test_limit_keeps_the_budget_never_brightens_and_is_idempotent(data, budget):
    frame = bytearray(data)
    before = power.estimate_ma(frame)
    used = power.limit(frame, budget)
    assert 0 <= used <= 255
    if before <= budget:
        assert used == 255 and frame == data
    if budget >= len(data) // 3:  # the idle current alone fits
        assert power.estimate_ma(frame) <= budget
    else:  # nothing can fit: the strip goes dark
        assert used == 0 and max(frame) == 0
    assert all(a <= b for a, b in zip(frame, data))
    assert all(a == b * used // 255 for a, b in zip(frame, data))
    again = bytearray(frame)
    assert power.limit(again, budget) in (used, 255) and again == frame


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 255).flatmap(lambda top: st.tuples(
    st.just(top), st.lists(st.integers(0, top), min_size=3, max_size=360).map(lambda xs: xs[:len(xs) // 3 * 3]))),
    st.integers(0, 8000))
def test_limit_with_the_frames_top_byte_is_limit_without_it(case, budget):
    """power.limit's `top` (no byte above it) skips summing a frame that fits at its top byte: the
    same level and bytes as without it, whatever the frame and budget. (Fails where the bound
    counts lit LEDs rather than non-zero bytes, or takes a frame over budget for one that fits.)"""
    top, data = case
    frame, plain = bytearray(data), bytearray(data)
    assert power.limit(frame, budget, top=top) == power.limit(plain, budget) and frame == plain


@pytest.mark.parametrize("layout_file", LAYOUTS, ids=lambda p: p.stem)
def test_no_byte_a_layout_renders_is_above_its_brightest(layout_file):
    """render.brightest(layout) bounds every byte of its frames, at any level: the limiter's
    shortcut rests on it. Every game's random play, and random views, at three levels."""
    game = layout_file.stem
    lay = load(game)
    g = engine.game_module(game)
    views = []
    for seed in (1, 2):
        most = [x["domain"]["max"] for x in g.SETTINGS if x["name"] == "players"]
        match = engine.new_match(game, {"players": most[0]} if most else {}, seed)
        state, rnd = match["state"], random.Random(seed)
        for _ in range(60):
            offered = g.legal(state, None)
            if g.is_over(state) or not offered:
                break
            act = random_act(rnd, rnd.choice(offered), g, state)
            try:
                state = engine.step(game, state, act)[2]
            except Exception:
                continue
            views.append(g.view(state, None))
    for level in (255, lay.get("level", 255), 7):
        top = render.brightest(lay, level)
        for view in views:
            frame = bytearray(render.frame_size(lay))
            render.render(view, lay, frame, level)
            assert max(frame) <= top, (game, level, max(frame), top)
    assert views


def random_act(rnd, schema, g, state):
    from random_game import Draw, action  # tests/mp/random_game.py: the tests' random actions

    return action(Draw(rnd.randrange(1 << 30)), schema, engine.seats(state), g.card_names(state))


def test_limit_scales_a_full_layout_to_the_default_budget():
    frame = draw(view_of(scores=[160] * 4, pending=[], problems=[[6, 6]] * 5, step="C",
                         control={"diplomatic": 0, "army": 1, "navy": 2}, queue=[[3, ""]], excuse=2))
    assert power.estimate_ma(frame) > LAYOUT["budget_ma"]
    used = power.limit(frame, LAYOUT["budget_ma"])
    assert 0 < used < 255 and power.estimate_ma(frame) <= LAYOUT["budget_ma"]
    # a limit this tight still leaves most of the budget in use
    assert power.estimate_ma(frame) > LAYOUT["budget_ma"] * 9 // 10


# ------------------------------------------------------------------ the layout files

def layout_problems(layout, grid=GRID):
    """What is wrong with a layout file (an empty list when nothing is), against the arrangement:
    every track placed on the grid, no LED used twice, and every track's LEDs in reading order on
    the sheet (left to right, then the next row down), through the strip's indices the board uses."""
    out = []

    def plain(v, where):
        if isinstance(v, bool) or isinstance(v, float) or v is None:
            out.append("%s: %r is not an int or a string" % (where, v))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                plain(x, "%s[%d]" % (where, i))
        elif isinstance(v, dict):
            for k in v:
                plain(v[k], "%s.%s" % (where, k))

    plain(layout, "layout")
    for key, kind in (("game", str), ("doc", str), ("order", str), ("level", int), ("budget_ma", int),
                      ("tracks", list), ("seat_colours", list)):
        if not isinstance(layout.get(key), kind):
            out.append("%s missing or not %s" % (key, kind.__name__))
    for key in ("leds", "pitch_um"):
        if key in layout:
            out.append("%s is the arrangement's (hardware/arrangement.json), not the layout's" % key)
    if out:
        return out
    if sorted(layout["order"]) != ["B", "G", "R"]:
        out.append("order %r is not a permutation of RGB" % layout["order"])
    colours = list(layout["seat_colours"]) + list(layout.get("colours", {}).values())
    for c in colours:
        if not (isinstance(c, list) and len(c) == 3 and all(0 <= x <= 255 for x in c)):
            out.append("colour %r is not [r, g, b] in 0..255" % (c,))
    owner = {}
    names = set()
    for t in layout["tracks"]:
        for key in ("name", "label", "caption", "at", "length", "shows"):
            if key not in t:
                out.append("track %r lacks %s" % (t.get("name"), key))
        for key in ("start", "dir", "idx"):
            if key in t:
                out.append("track %r has %s: a track is placed on the arrangement by at" % (t.get("name"), key))
        if out:
            return out
        if t["name"] in names:
            out.append("two tracks named %s" % t["name"])
        names.add(t["name"])
        if not (isinstance(t["at"], list) and len(t["at"]) == 2) or t["length"] < 1:
            out.append("track %s: at %r, length %r" % (t["name"], t["at"], t["length"]))
            continue
        seen = []
        for col, row in cells.cells(t):
            if not (0 <= col < grid["columns"] and 0 <= row < grid["rows"]):
                out.append("track %s: cell (%d, %d) is not on the %dx%d grid" % (t["name"], col, row,
                                                                                 grid["columns"], grid["rows"]))
                continue
            i = cells.index(grid, col, row)
            if not 0 <= i < cells.count(grid) or cells.cell(grid, i) != (col, row):
                out.append("track %s: cell (%d, %d) is LED %d, which is not that cell" % (t["name"], col, row, i))
            elif i in owner:
                out.append("tracks %s and %s both use LED %d" % (owner[i], t["name"], i))
            owner[i] = t["name"]
            seen.append(cells.cell(grid, i))
        for a, b in zip(seen, seen[1:]):
            if (b[1], b[0]) <= (a[1], a[0]):
                out.append("track %s: (%d, %d) comes after (%d, %d), out of reading order" % (t["name"], *b, *a))
    return out


def test_there_are_layouts():
    assert LAYOUT_DIR / "chancellors.json" in LAYOUTS


@pytest.mark.parametrize("path", LAYOUTS, ids=[p.name for p in LAYOUTS])
def test_layout_is_well_formed(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert layout_problems(raw) == []
    layout = hardware_files.layout(raw)
    assert render.frame_size(layout) == 3 * cells.count(GRID) == 3 * layout["leds"]
    # each track's LEDs are the strip's indices of its cells, first LED first
    for t in layout["tracks"]:
        assert [cells.cell(GRID, i) for i in t["idx"]] == [tuple(c) for c in cells.cells(t)], t["name"]


def test_the_layout_check_catches_mistakes():
    raw = json.loads((LAYOUT_DIR / "chancellors.json").read_text(encoding="utf-8"))
    overlap = json.loads(json.dumps(raw))
    overlap["tracks"][1]["at"] = [8, raw["tracks"][0]["at"][1]]  # on score0's row, over its LEDs
    assert any("both use LED" in p for p in layout_problems(overlap))
    off = json.loads(json.dumps(raw))
    off["tracks"][0]["at"] = [10, 9]  # ten LEDs from column 10 leave the grid
    assert any("not on the 16x16 grid" in p for p in layout_problems(off))
    old = json.loads(json.dumps(raw))
    old["tracks"][0].update(start=0, dir=-1)
    assert any("placed on the arrangement" in p for p in layout_problems(old))
    flt = json.loads(json.dumps(raw))
    flt["level"] = 16.5
    assert layout_problems(flt)
    with pytest.raises(ValueError, match="cell"):
        hardware_files.layout(overlap)


def test_the_arrangement_maps_every_cell_to_one_led():
    """hardware/arrangement.json: a 16x16 panel wired in serpentine rows from the top-left; every
    wiring a panel may have maps its cells one to one onto the strip."""
    assert cells.problems(GRID) == []
    assert (GRID["columns"], GRID["rows"], GRID["pitch_um"]) == (16, 16, 10000)
    assert [cells.index(GRID, c, 0) for c in (0, 15)] == [0, 15]
    assert [cells.index(GRID, c, 1) for c in (15, 0)] == [16, 31]  # the second row runs back
    assert cells.size_um(GRID) == (160000, 160000) and cells.centre_um(GRID, 0, 0) == (5000, 5000)
    for first in cells.CORNERS:
        for runs in cells.RUNS:
            for serpentine in (True, False):
                grid = dict(GRID, columns=5, rows=3, first=first, runs=runs, serpentine=serpentine)
                seen = sorted(cells.index(grid, c, r) for c in range(5) for r in range(3))
                assert seen == list(range(15))
                assert all(cells.index(grid, *cells.cell(grid, i)) == i for i in range(15))
                assert cells.cell(grid, 0)[0] == (0 if first.endswith("left") else 4)
                assert cells.cell(grid, 0)[1] == (0 if first.startswith("top") else 2)


def test_a_track_across_rows_renders_led_by_led():
    """A track that is not one run on the strip (it wraps onto the next row: render.plan gives it
    step 0 and its indices) lights its LEDs in its own order, the same with or without the plan."""
    grid = dict(GRID)
    layout = hardware_files.layout({"tracks": [{"name": "s", "shows": "scores", "seat": 0, "unit": 10,
                                                "at": [12, 2], "length": 8, "wrap": 4}],
                                    "seat_colours": [[200, 100, 50]]})
    t = layout["tracks"][0]
    assert [cells.cell(grid, i) for i in t["idx"]] == [(12, 2), (13, 2), (14, 2), (15, 2),
                                                       (12, 3), (13, 3), (14, 3), (15, 3)]
    kept = render.plan(layout)
    assert kept[0][3] == 0 and list(kept[0][2]) == t["idx"]
    a = render.render({"scores": [55]}, layout, bytearray(render.frame_size(layout)))
    b = render.render({"scores": [55]}, layout, bytearray(render.frame_size(layout)), 255, 0, None, kept)
    assert a == b
    lit = [i for i in range(layout["leds"]) if any(a[3 * i:3 * i + 3])]
    assert sorted(lit) == sorted(t["idx"][:6])  # five full and the sixth at half
    assert list(a[3 * t["idx"][5]:3 * t["idx"][5] + 3]) == [100, 50, 25]


def test_chancellors_layout_has_every_track_the_game_needs():
    by = {}
    for t in LAYOUT["tracks"]:
        by.setdefault(t["shows"], []).append(t)
    assert sorted((t["seat"], t["length"], t["unit"]) for t in by["scores"]) == [(s, 10, 10) for s in range(4)]
    assert sorted(t["service"] for t in by["control"]) == sorted(SERVICES)
    assert all(t["length"] == 1 for t in by["control"])
    assert sorted((t["problem"], t["die"], t["length"]) for t in by["problems"]) == [
        (p, d, 6) for p in range(5) for d in range(2)]
    assert [(t["length"], t["values"]) for t in by["step"]] == [(5, list(STEPS))]
    assert [t["length"] for t in by["queue"]] == [4] and [t["length"] for t in by["excuse"]] == [4]
    assert len(SEATS) == 4 and LAYOUT["leds"] == 256 and LAYOUT["order"] == "GRB"
    assert set(by) <= set(view_of())  # every track shows a field the view has
    assert len(LAYOUT["tracks"]) == sum(len(x) for x in by.values())


# ------------------------------------------------------------------ the same frames under MicroPython

def game_views(seed, players, extended, every):
    """Public views along a random play-out (every `every`-th state, and the last)."""
    acts = []
    playout.play_game(seed, players, extended, lambda i, act, ev, dg: acts.append(act))
    match = engine.new_match("chancellors", {"players": players, "extended": extended}, seed)
    out = [chancellors.view(match["state"])]
    for i, act in enumerate(acts):
        engine.apply(match, act)
        if i % every == 0 or i == len(acts) - 1:
            out.append(chancellors.view(match["state"]))
    return out


def mp_cases():
    """The cases both interpreters render: views from play-outs and random views,
    at several levels and budgets (some tight enough to limit, one too small)."""
    rnd = random.Random(7)
    vs = []
    for seed, players in ((3, 2), (4, 3), (5, 4), (6, 4)):
        vs.extend(game_views(seed, players, seed % 2 == 1, 7))
    for _ in range(60):
        n = rnd.randint(2, 4)
        p = n + 1
        vs.append(view_of(players=n, scores=[rnd.randint(0, 150) for _ in range(n)],
                          control={s: rnd.choice([None] + list(range(n))) for s in SERVICES},
                          problems=[[rnd.randint(0, 6), rnd.randint(0, 6)] for _ in range(p)],
                          solved=[rnd.choice(["", "part", "full"]) for _ in range(p)],
                          aside=[rnd.randint(-1, 1) for _ in range(p)],
                          pending=[[rnd.randrange(p), rnd.randint(0, 1)] for _ in range(rnd.randint(0, 3))],
                          step=rnd.choice(STEPS), queue=[[rnd.randrange(n), ""]] if rnd.random() < 0.5 else [],
                          excuse=rnd.choice([None] + list(range(n))), winners=[rnd.randrange(n)],
                          # The Council's fields, so its layout (and seats sharing an LED) is drawn too
                          ranks=[[rnd.randint(0, 6) for _ in range(6)] for _ in range(n)],
                          empire=[rnd.randint(0, 6) for _ in range(6)],
                          suits=[x for x in ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
                                 if rnd.random() < 0.3],
                          turn=rnd.choice([None] + list(range(n))),
                          # Yes, Your Grace's
                          annals=[rnd.choice(["triumph", "violence", "peace"]) for _ in range(rnd.randint(0, 12))],
                          face=rnd.choice(["loyalist", "usurper"]), king=rnd.randrange(n),
                          heir=rnd.choice([None] + list(range(n))),
                          damaged=[[rnd.randint(0, 1) for _ in range(4)] for _ in range(n)]))
    cases = []
    for i, v in enumerate(vs):
        cases.append({"view": v, "level": (255, 160, 77, 1, 0)[i % 5], "budget": (900, 400, 300, 200)[i % 4],
                      "phase": i % 3})
    return cases


@pytest.fixture(scope="module")
def cases_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("render") / "cases.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for case in mp_cases():
            f.write(json.dumps(case) + "\n")
    return path


_STUB = (
    "import sys\n"
    "from shared_rules import render\n"
    "if not render.__file__.endswith('.mpy'):\n"
    "    print('not from .mpy: ' + render.__file__)\n"
    "    sys.exit(3)\n"
    "import render_cases\n"
    "sys.exit(render_cases.main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize("path", LAYOUTS, ids=[p.name for p in LAYOUTS])
def test_frames_are_the_same_under_micropython(path, cases_file, micropython, mpy_build, tmp_path):
    out = io.StringIO()
    board_copy = tmp_path / "layout" / path.name
    deploy.board_layout(str(path), str(board_copy))  # as the board reads it: the tracks' strip indices
    path = board_copy
    with open(cases_file, encoding="utf-8") as f:
        count = render_cases.run(json.loads(path.read_text(encoding="utf-8")), f, out.write)
    expected = out.getvalue()
    assert count >= 80 and expected.count("\n") == count
    assert " level=255 " in expected and " level=0 " in expected and "| level=1" in expected  # limits happened
    # tmp_path as cwd: MicroPython puts the cwd first on sys.path, and it must find the .mpy build
    proc = mp.run_micropython(code=_STUB, args=[str(path), str(cases_file)], heap=heaps.BOARD, cwd=str(tmp_path),
                              path=[str(MP_DIR), str(mpy_build)], micropython=micropython)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    got = proc.stdout
    if got != expected:
        a, b = expected.splitlines(), got.splitlines()
        first = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        pytest.fail("frames differ from case %d (CPython, then MicroPython):\n%s\n%s" % (
            first, a[first][:300] if first < len(a) else "(none)", b[first][:300] if first < len(b) else "(none)"))


_HEAP = (
    "import gc\n"
    "import shared_rules, shared_rules.compat\n"  # the rules core has loaded these already
    "gc.collect()\n"
    "a = gc.mem_alloc()\n"
    "from shared_rules import render, power\n"
    "gc.collect()\n"
    "b = gc.mem_alloc()\n"
    "import json\n"
    "f = open(LAYOUT)\n"
    "layout = json.load(f)\n"
    "f.close()\n"
    "frame = bytearray(render.frame_size(layout))\n"
    "gc.collect()\n"
    "c = gc.mem_alloc()\n"
    "view = VIEW\n"
    "render.render(view, layout, frame, 200)\n"
    "gc.collect()\n"
    "gc.disable()\n"  # nothing is freed now: every allocation shows in mem_alloc
    "d = gc.mem_alloc()\n"
    "render.render(view, layout, frame, 200)\n"
    "power.limit(frame, 450)\n"
    "e = gc.mem_alloc()\n"
    "gc.enable()\n"
    "print(render.__file__, power.__file__, b - a, c - b, e - d, sum(1 for x in frame if x))\n"
)


def test_import_heap_under_micropython(micropython, mpy_build, tmp_path):
    """What render.py and power.py cost on the board (from .mpy), and the
    Chancellors layout and frame once loaded. Printed for the record; bounded
    so that growth is noticed."""
    busy = view_of(scores=[99, 75, 55, 160], pending=[], problems=[[6, 5]] * 5, step="B",
                   control={"diplomatic": 0, "army": 1, "navy": 2}, queue=[[0, "diplomatic"]], excuse=1)
    board_copy = tmp_path / "layout" / "chancellors.json"
    deploy.board_layout(str(LAYOUT_DIR / "chancellors.json"), str(board_copy))  # the file the board reads
    code = _HEAP.replace("LAYOUT", repr(str(board_copy))).replace("VIEW", json.dumps(busy).replace(
        "null", "None").replace("true", "True").replace("false", "False"))
    proc = mp.run_micropython(code=code, heap=heaps.BOARD, cwd=str(tmp_path), path=[str(mpy_build)],
                              micropython=micropython)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rfile, pfile, modules, data, per_frame, lit = proc.stdout.split()
    assert rfile.endswith("render.mpy") and pfile.endswith("power.mpy")
    print("render+power import: %s bytes; layout+frame: %s bytes; one render+limit allocates %s bytes" % (
        modules, data, per_frame))
    assert int(modules) < 8 * 1024  # 64-bit unix port: with brightest (the limiter's bound), reads and blank (Redraw)
    assert int(data) < 12 * 1024
    # a busy frame (most LEDs lit) must allocate nothing per LED
    assert int(lit) > 150 and int(per_frame) < 64

