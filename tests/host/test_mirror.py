"""The mirror (Textual) on the simulated board: keys press the board's buttons, commands
act, the LED tracks are drawn from the shared render function, nothing hidden is shown."""

import asyncio

import heaps  # tests/helpers/heaps.py: the unix port's heap, in one place
import paths
import pytest

from chancery.board.link import Link
from chancery.board.simboard import SimBoard
from chancery.hardware import arrangement as cells
from chancery.hardware import files as hardware_files
from chancery.hardware import overlay
from chancery.mirror.app import CELL, MirrorApp, board_text, key_press, load_layout, panels, strip_text
from shared_rules import engine, matches, render

ROOT = paths.ROOT


def test_keys_map_to_pads_and_holds():
    assert key_press("q") == (0, 0, "short")
    assert key_press("A") == (0, 1, "long")
    assert key_press("b") == (4, 2, "short")
    assert key_press("enter") == (5, 1, "short")
    assert key_press("asterisk") == (5, 1, "long")
    assert key_press("backspace") == (5, 3, "short")
    assert key_press("k") is None


def test_strip_text_draws_every_led_of_every_track():
    match = engine.new_match("chancellors", {"players": 4}, 1)
    engine.apply(match, {"type": "roll"})
    layout = load_layout("chancellors")
    frame = render.render(matches.view(match), layout, bytearray(render.frame_size(layout)))
    text = strip_text(frame, layout)
    rows = text.plain.splitlines()
    assert len(rows) == len(layout["tracks"]) + 1  # and what one LED of a score is
    width = len("Whose chance it is ")  # the longest name in words, then a space: the cells line up
    for row, track in zip(rows, layout["tracks"]):
        assert len(row) == width + track["length"]
    assert rows[0].startswith("Seat 0 score ") and rows[10].startswith("Problem 0, die 0 ")
    lit = sum(1 for i in range(layout["leds"]) if any(frame[3 * i:3 * i + 3]))
    assert text.plain.count("\u25cf") == lit > 0


@pytest.mark.parametrize("game", ["chancellors", "kings_dilemma", "the_council", "yes_your_grace"])
def test_the_mirror_draws_the_board_as_it_looks(game):
    """Issue 46: the mirror draws the panel as it is on the table: each LED in its cell (row and
    column of hardware/arrangement.json), lit as the strip is; each track's caption left of it and,
    under each LED, the overlay's words for it, so a track reads left to right as on the sheet."""
    grid = hardware_files.arrangement()
    layout = load_layout(game)
    most = [s for s in engine.game_module(game).SETTINGS if s["name"] == "players"][0]["domain"]["max"]
    match = engine.new_match(game, {"players": most}, 1)  # every seat's track on the panel
    try:
        engine.apply(match, {"type": "roll"})
    except Exception:
        pass  # a game that does not start with a roll
    view = matches.view(match)
    frame = render.render(view, layout, bytearray(render.frame_size(layout)), layout["level"])
    lines = board_text(frame, layout, view).plain.split("\n")
    # the text's lines: one per row with LEDs and one for its words, a blank where rows are skipped
    used = sorted({cells.cell(grid, i)[1] for t in layout["tracks"] for i in t["idx"]})
    line_of = {}
    n = 0
    for k, row in enumerate(used):
        if k and row > used[k - 1] + 1:
            n += 1
        line_of[row] = n
        n += 2
    for t in layout["tracks"]:
        for k, i in enumerate(t["idx"]):
            col, row = cells.cell(grid, i)
            led, words = lines[line_of[row]], lines[line_of[row] + 1]
            lit = any(frame[3 * i:3 * i + 3])
            assert led[col * CELL + 1] in ("\u25cf", "\u25cb") if lit else led[col * CELL + 1] == "\u00b7"
            assert words[col * CELL:col * CELL + 3].strip() == overlay.led_label(t, k).replace("- ", "")[:3] or \
                overlay.led_label(t, k).startswith("Seat "), (t["name"], k, words)
        if t.get("caption"):
            col, row = cells.cell(grid, t["idx"][0])
            assert lines[line_of[row]][:col * CELL].rstrip().endswith(t["caption"]), (t["name"], lines[line_of[row]])
    assert lines[-2].startswith("Seats ")
    board = "".join(lines[:-2])  # the LEDs, without the seats' key
    assert board.count("\u25cf") + board.count("\u25cb") == sum(
        1 for i in range(layout["leds"]) if any(frame[3 * i:3 * i + 3]))


def test_the_board_says_the_scores_and_the_seats_names():
    match = engine.new_match("chancellors", {"players": 3}, 1)
    engine.apply(match, {"type": "roll"})
    match["state"]["scores"] = [0, 37, 5]
    layout = load_layout("chancellors")
    view = matches.view(match)
    frame = render.render(view, layout, bytearray(render.frame_size(layout)), layout["level"])
    lines = board_text(frame, layout, view, ["Ann", None, "Bob"]).plain.split("\n")
    at = [i for i in range(len(lines)) if lines[i].strip().startswith("Ann score")][0]
    assert lines[at].endswith(" 0")
    assert lines[at + 2].strip().startswith("Seat 1 score") and lines[at + 2].endswith(" 37")
    assert lines[at + 2].count("\u25cf") == 4  # three whole LEDs and a part, from the left
    assert lines[at + 2].index("\u25cf") < lines[at + 2].index("\u00b7")
    assert lines[at + 1].split() == [str(10 * k) for k in range(1, 11)]
    assert lines[-2].split() == ["Seats", "\u25cf0", "Ann", "\u25cf1", "\u25cf2", "Bob"]


@pytest.fixture()
def board(micropython, firmware_build, tmp_path, request):
    """A simulated board with 3 seats, linked and hello'd; the game by indirect parameter (a name,
    or (name, its other settings))."""
    game = getattr(request, "param", "chancellors")
    game, settings = game if isinstance(game, tuple) else (game, None)
    b = SimBoard(data_dir=str(tmp_path / "flash"), game=game, players=3, seed=2, heap=heaps.BOARD,
                 settings=settings, micropython=micropython, code_path=[firmware_build])
    b.open_pty()
    link = Link(b.port_name)
    link.open()
    b.start()
    link.hello(wait=10.0)
    yield b, link
    link.close()
    b.stop()


def test_the_mirror_acts_presses_and_redraws(board):
    sim, link = board

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.press("colon")
            await pilot.press(*"roll")
            await pilot.press("enter")
            await pilot.pause(0.5)
            assert len(link.mirror.match["entries"]) == 1
            assert link.mirror.match["state"]["step"] == "A"
            app.set_focus(None)  # keys go to the board's buttons again
            await pilot.pause(0.1)
            await pilot.press("enter")  # the table's push: the table menu opens on the board
            for _ in range(30):
                await pilot.pause(0.1)
                shown = str(app.query_one("#board").render())
                if "(the board's display)" not in shown:
                    break
            assert "(the board's display)" not in shown and shown.strip()
            strip = str(app.query_one("#strip").render())
            assert strip.count("\u25cf") > 0  # the rolled dice are lit
            status = str(app.query_one("#status").render())
            assert "live" in status and "entries 1" in status

    asyncio.run(run())
    assert sim.alive(), sim.stderr_text()


@pytest.mark.parametrize("board", ["kings_dilemma"], indirect=True)
def test_the_mirror_shows_a_kings_dilemma_game_without_the_houses_pools(board):
    sim, link = board

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.press("colon")
            await pilot.press(*"roll")
            await pilot.press("enter")
            await pilot.pause(0.5)
            assert len(link.mirror.match["entries"]) == 1
            state = str(app.query_one("#state").render())
            # the game in words; the Houses' Power and Coins stay behind their screens
            assert "Round 1, Vote of the Council" in state and "House 0 votes" in state and "null" not in state
            assert str(app.query_one("#strip").render()).strip()

    asyncio.run(run())


def test_undo_help_and_where_the_keys_go_in_the_mirror(board):
    sim, link = board

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            for command in ("roll", "undo"):
                await pilot.press("colon")
                await pilot.press(*command)
                await pilot.press("enter")
                await pilot.pause(0.5)
            assert len(link.mirror.match["entries"]) == 0
            log = "\n".join(str(line) for line in app.query_one("#events").lines)
            assert "#1 taken back: roll" in log
            assert "entries 0" in str(app.query_one("#status").render())
            await pilot.press("colon")
            await pilot.press(*"undo")
            await pilot.press("enter")
            await pilot.pause(0.2)
            log = "\n".join(str(line) for line in app.query_one("#events").lines)
            assert "undo: the game has no entry yet" in log
            # after each command the keys are the board's again, and the status line says so
            assert app.focused is None and "[keys: the board's buttons" in str(app.query_one("#status").render())
            await pilot.press("colon")
            assert "[keys: typing a command" in str(app.query_one("#status").render())
            await pilot.press(*"help")
            await pilot.press("enter")
            await pilot.pause(0.2)
            log = "\n".join(str(line) for line in app.query_one("#events").lines)
            assert ":undo" in log and "seat pads 0-4" in log and app.focused is None

    asyncio.run(run())
    assert sim.alive(), sim.stderr_text()


def test_the_strip_says_what_its_leds_mean():
    """Waiting dice are hollow cells, not a rolled six; a score track says its score; a key
    gives each seat's colour (issue 16)."""
    match = engine.new_match("chancellors", {"players": 3}, 1)
    layout = load_layout("chancellors")
    view = matches.view(match)
    frame = render.render(view, layout, bytearray(render.frame_size(layout)), layout["level"])
    rows = strip_text(frame, layout, view).plain.splitlines()
    die = [r for r in rows if r.startswith("Problem 0, die 0")][0]
    assert die.endswith("\u25cb" * 6) and "\u25cf" not in die  # waiting to be rolled
    engine.apply(match, {"type": "roll"})
    match["state"]["scores"] = [0, 37, 5]  # as if seat 1 had scored (a view only reads it)
    view = matches.view(match)
    frame = render.render(view, layout, bytearray(render.frame_size(layout)), layout["level"])
    rows = strip_text(frame, layout, view).plain.splitlines()
    assert rows[1].endswith(" 37") and rows[1].count("\u25cf") == 4  # 3 whole LEDs and a part
    assert "\u25cb" not in [r for r in rows if r.startswith("Problem 0, die 0")][0]
    assert rows[-1].split() == ["Seats", "\u25cf0", "\u25cf1", "\u25cf2"]


def _strip_rows(game, players, names=None):
    layout = load_layout(game)
    match = engine.new_match(game, {"players": players}, 1)
    view = matches.view(match)
    frame = render.render(view, layout, bytearray(render.frame_size(layout)), layout["level"])
    return strip_text(frame, layout, view, names).plain.splitlines()


def test_tracks_that_share_a_name_are_named_as_the_overlay_heads_them():
    """Issue 45: The King's Dilemma had three rows named "Balance" (the overlay says AYE, the middle
    pool, NAY)."""
    from chancery.hardware import overlay

    rows = _strip_rows("kings_dilemma", 4)
    names = [r.split("  ")[0] for r in rows if r.startswith("Balance")]
    assert names == ["Balance: AYE Power", "Balance: the middle pool", "Balance: NAY Power"], rows
    headings = overlay.overlay_svg("kings_dilemma")
    assert all(n in headings for n in names)


def test_no_row_for_a_seat_the_game_does_not_have():
    """Issue 45: a 3-seat Yes, Your Grace showed Seat 3's and Seat 4's Damaged Holdings."""
    rows = _strip_rows("yes_your_grace", 3)
    assert [r.split("  ")[0] for r in rows if "Damaged" in r] == [
        "Seat 0's Damaged Holdings", "Seat 1's Damaged Holdings", "Seat 2's Damaged Holdings"]
    assert len([r for r in _strip_rows("yes_your_grace", 5) if "Damaged" in r]) == 5
    assert not [r for r in _strip_rows("chancellors", 3) if r.startswith("Seat 3 score")]
    assert [r for r in _strip_rows("chancellors", 4) if r.startswith("Seat 3 score")]
    # the panel as it looks, which the mirror draws: those LEDs stay dark and unnamed there too
    for game, players, absent in (("yes_your_grace", 3, "Seat 3 damaged"), ("chancellors", 3, "Seat 3 score")):
        match = engine.new_match(game, {"players": players}, 1)
        layout = load_layout(game)
        frame = bytearray(render.frame_size(layout))
        assert absent not in panels(match, layout, frame, [])[0].plain
        match = engine.new_match(game, {"players": players + 1}, 1)
        assert absent in panels(match, layout, frame, [])[0].plain


def test_the_strip_says_what_one_led_of_a_count_is():
    """Issue 45: a score LED is 10 points and nothing said so; a Balance LED is 2 Power."""
    rows = _strip_rows("chancellors", 3, ["Ann", None, None])
    assert rows[-2].split(None, 3)[3] == "10 points (each seat's score)" and rows[-2].startswith("One LED is ")
    rows = _strip_rows("kings_dilemma", 3)
    assert [r for r in rows if r.startswith("One LED is ")][0].split(None, 3)[3] == "2 Power (Balance)"
    assert not [r for r in _strip_rows("the_council", 3) if r.startswith("One LED is")]  # one LED, one of it


def _cells(text):
    """(character, rgb) of each character of a rich Text drawn in an rgb colour."""
    out = []
    for span in text.spans:
        colour = span.style.color if hasattr(span.style, "color") else None
        if colour is None:
            from rich.style import Style

            colour = Style.parse(span.style).color
        rgb = colour.get_truecolor()
        out += [(ch, (rgb.red, rgb.green, rgb.blue)) for ch in text.plain[span.start:span.end]]
    return out


@pytest.mark.parametrize("game", ["chancellors", "kings_dilemma", "the_council", "yes_your_grace"])
def test_the_strip_is_legible_on_its_own_dark_background(game):
    """Issue 16: every lit LED, the words and the key stand out from the strip's background
    (WCAG's 3:1 for graphics), which is its own whatever the terminal's; an LED that is off
    is fainter, but seen. Colours that differ on the strip differ on the screen."""
    from chancery.mirror import app as mirror

    layout = load_layout(game)
    match = engine.new_match(game, {"players": 5 if game != "chancellors" else 4}, 3)
    try:
        engine.apply(match, {"type": "roll"})
    except Exception:
        pass  # a game that does not start with a roll: its first frame is enough
    view = matches.view(match)
    frame = render.render(view, layout, bytearray(render.frame_size(layout)), layout["level"])
    drawn = _cells(mirror.strip_text(frame, layout, view)) + _cells(mirror.board_text(frame, layout, view))
    assert drawn
    for ch, rgb in drawn:
        if not ch.strip():
            continue
        least = 2.0 if ch == "\u00b7" else mirror.LEGIBLE  # an LED that is off
        assert mirror.contrast(rgb, mirror.STRIP_BG) >= least, (ch, rgb)
    colours = [tuple(c) for c in layout["colours"].values()] + [tuple(c) for c in layout["seat_colours"]]
    for a in colours:
        assert mirror.contrast(mirror.legible(a), mirror.STRIP_BG) >= mirror.LEGIBLE, a
        for b in colours:
            assert a == b or mirror.legible(a) != mirror.legible(b), (a, b)


def test_the_mirror_follows_a_light_terminal_and_keeps_the_strips_background():
    from chancery.mirror import app as mirror

    assert mirror.terminal_theme({"COLORFGBG": "0;15"}) == "textual-light"
    assert mirror.terminal_theme({"COLORFGBG": "15;0"}) == "textual-dark"
    assert mirror.terminal_theme({"COLORFGBG": "0;default;15"}) == "textual-light"  # rxvt's three fields
    assert mirror.terminal_theme({}) == "textual-dark"

    class NoLink:
        ser = mirror = display = None
        state = "closed"
        on_event = None

    async def run(theme):
        app = MirrorApp(NoLink(), connect=False)
        app.theme = theme
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause(0.1)
            strip = app.query_one("#strip")
            bg = strip.styles.background
            assert (bg.r, bg.g, bg.b) == mirror.STRIP_BG, theme
            fg = strip.styles.color
            assert mirror.contrast((fg.r, fg.g, fg.b), mirror.STRIP_BG) >= 4.5
            screen = app.screen.styles.background
            return (screen.r, screen.g, screen.b)

    light, dark = asyncio.run(run("textual-light")), asyncio.run(run("textual-dark"))
    assert mirror.luminance(light) > 0.5 > mirror.luminance(dark)  # the themes do differ; the strip does not


@pytest.mark.parametrize("board", [("kings_dilemma", {"voting": "sealed"})], indirect=True)
def test_the_mirror_casts_a_seats_sealed_vote_with_its_choice_unshown(board):
    """:cast SEAT turns the command line into a password field for that seat's choice, which goes
    to the board's private box with the cast (the log has the cast only); once every seat has voted
    the board reveals. Nothing of a choice shows before the reveal (issue 43, part 3)."""
    _sim, link = board

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            async def line(text):
                await pilot.press("colon")
                await pilot.press(*text)
                await pilot.press("enter")
                await pilot.pause(0.5)

            await line("roll 1 2 1 2 1")
            for seat, choice in ((0, "aye 2"), (1, "gather"), (2, "nay 1")):
                await line("cast %d" % seat)
                field = app.query_one("#command")
                assert field.password and ("seat %d's choice" % seat) in field.placeholder
                await pilot.press(*choice)
                assert field.password and field.value == choice
                await pilot.press("enter")
                for _ in range(30):
                    await pilot.pause(0.1)
                    if seat in link.mirror.match["state"]["ballot"]["voted"] or (
                            link.mirror.match["state"]["ballot"]["result"] is not None):
                        break
                assert not field.password
                if seat < 2:  # before the reveal, no choice anywhere in the events pane
                    assert choice not in "\n".join(str(x) for x in app.query_one("#events").lines)
            for _ in range(30):
                await pilot.pause(0.1)
                if link.mirror.match["state"].get("ballot", {}).get("result"):
                    break

    asyncio.run(run())
    b = link.mirror.match["state"]["ballot"]
    assert b["result"]["choices"] == ["aye", "gather", "nay"] and b["result"]["amounts"] == [2, None, 1]


def test_a_lost_link_says_what_the_table_can_do():
    """Issue 45 part 5: a board fault, a lost link among them, says what the table can do; an input
    the link could not deliver says how to tell whether the board has it."""
    from chancery.board.link import LinkError
    from chancery.mirror import app as mirror

    class Stub:
        def __init__(self):
            self.said = []

        def log_line(self, text):
            self.said.append(text)

    def lost(*args):
        raise LinkError("no answer to act 5")

    stub = Stub()
    assert MirrorApp.ask(stub, lost, {"type": "pass"}) is False
    assert stub.said == ["Not delivered: no answer to act 5. " + mirror.UNDELIVERED_ADVICE]
    assert "before entering it again" in mirror.UNDELIVERED_ADVICE
    assert "keeps its game on flash" in mirror.LINK_ADVICE
