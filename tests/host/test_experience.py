"""The table's experience, played as a player would (issue 16): the mirror on a simulated
board (the firmware under the MicroPython unix port), driven by Textual's pilot with the keys
a player presses, and only the screen read back: where the keys go after a command, the
board's display never left over (after a refusal then a good action, after a new game of
another game), refusals in words on the board's display and in the mirror's events."""

import asyncio

from test_mirror import board  # noqa: F401  (a fixture: the linked simulated board)

from chancery.mirror.app import MirrorApp


def text(app, widget):
    return str(app.query_one(widget).render())


def events(app):
    """The events pane's text, its wrapped lines joined again."""
    return " ".join(" ".join(line.text.split()) for line in app.query_one("#events").lines)


async def until(pilot, app, test, what, tries=60):
    """Pause until test() holds (the board answers over its pty), or fail saying what was awaited."""
    for _ in range(tries):
        if test():
            return
        await pilot.pause(0.1)
    raise AssertionError("%s did not happen; the display:\n%s\nthe events:\n%s" % (
        what, text(app, "#board"), events(app)[-1500:]))


async def command(pilot, line):
    await pilot.press("colon")
    await pilot.press(*line)
    await pilot.press("enter")


def test_a_session_at_the_table_through_the_mirror(board):  # noqa: F811
    sim, link = board

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            display = lambda: text(app, "#board")  # noqa: E731  (the board's display, as the mirror shows it)

            # the display as the board shows it, from the first look: where the game is, what the keys do
            await until(pilot, app, lambda: display().split()[:1] == ["#0"], "the board's display at the hello")
            assert "hold push: roll" in display() and "a pad: its menu" in display()

            # the table's push held: the board rolls, and its display says where the game is
            await pilot.press("asterisk")
            await until(pilot, app, lambda: "#1 roll" in display(), "the board's roll on its display")
            assert "hold push: roll" not in display()  # nothing left to roll

            # the table's menu, as a player finds it: push opens it, the knob moves, push picks
            await pilot.press("enter")
            await until(pilot, app, lambda: "table action?" in display(), "the table's menu")
            # score, seat 0; the amount starts at 0: the knob held right jumps a ten ahead, 0 -> 10
            # -> 20, then round to -20; the reason, optional, is left at its default: the confirm
            for key in ("right", "right", "enter", "enter", "greater_than_sign", "greater_than_sign",
                        "greater_than_sign", "enter"):
                await pilot.press(key)
            await until(pilot, app, lambda: "push: send" in display(), "the score's confirm screen")
            assert "amount: -20" in display()
            await pilot.press("enter")  # sent: seat 0 has no points to take
            await until(pilot, app, lambda: "Not allowed:" in display(), "the refusal on the display")
            shown = " ".join(display().split())
            assert "seat 0 has 0 points: taking 20 would leave it below 0" in shown  # words, not a code
            assert "score_below_zero" not in shown
            await until(pilot, app, lambda: "Refused by the rules: seat 0 has 0 points" in events(app),
                        "the refusal in the mirror's events")

            # a good action typed after it: the display shows the game as it is now
            await command(pilot, "score 0 3")
            await until(pilot, app, lambda: "#2 score" in display(), "the score on the display")
            assert "Not allowed" not in display() and "amount: -20" not in display()  # nothing left over
            assert "#2 Seat 0 gains 3 points" in events(app)
            # the keys are the board's buttons again at once, and the status line says so
            assert app.focused is None and "[keys: the board's buttons" in text(app, "#status")
            await pilot.press("enter")  # not typed into the command line: it opens the board's menu
            await until(pilot, app, lambda: "table action?" in display(), "the table's menu after a command")
            assert app.query_one("#command").value == ""

            # another game: every screen starts afresh
            await command(pilot, "new kings_dilemma")
            await until(pilot, app, lambda: link.mirror.match["game"] == "kings_dilemma"
                        and "table action?" not in display(), "the new game on the board")
            await until(pilot, app, lambda: display().split()[:1] == ["#0"], "the new game's status on the display")
            assert "score" not in display() and "reveal" not in display()  # no Chancellors menu left over
            await until(pilot, app, lambda: "a new game: kings_dilemma" in events(app), "the events' new game line")
            assert app.focused is None

            # The King's Dilemma: a House bids more Power than it has, on its own pad
            await pilot.press("asterisk")  # the board rolls the Resource markers
            await until(pilot, app, lambda: "#1 roll" in display(), "The King's Dilemma's roll")
            seat = link.mirror.match["state"]["turn"]
            up = "qwert"[seat]
            for _ in range(30):  # AYE, 30 Power: more than any House holds
                await pilot.press(up)
            await pilot.press(up.upper())  # held: the vote
            await until(pilot, app, lambda: "Not allowed:" in display(), "the House's refusal on the display")
            assert "House %d lacks 30 Power" % seat in " ".join(display().split())
            await until(pilot, app, lambda: "Refused by the rules: House %d does not have 30 Power" % seat in events(app)
                        or "does not have 30 Power" in events(app), "the House's refusal in the events")

    asyncio.run(run())
    assert sim.alive(), sim.stderr_text()


def test_a_board_fault_reads_as_one_in_the_mirror_and_a_refusal_as_a_refusal(board):  # noqa: F811
    """Issue 45: running out of memory is the board's fault, said as one ("Board fault: ..." and what the
    table can do), a rule's refusal is "Refused by the rules: ...", and a frame the board could not
    take "Not understood by the board: ...": the mirror said "Board says no" for all three."""
    sim, link = board

    async def run():
        app = MirrorApp(link, connect=False)
        async with app.run_test(size=(140, 45)) as pilot:
            await pilot.pause(0.2)
            app.on_link_event("error", {"re": 9, "code": "no_memory", "message": "board fault: the board ran out "
                                        "of memory; it let that input go and reloaded the game from its journal "
                                        "(nothing entered is lost): try it again"})
            app.on_link_event("error", {"re": 10, "code": "wrong_step", "message": "not now"})
            app.on_link_event("error", {"re": 11, "code": "internal", "message": "OSError: 5"})
            app.on_link_event("error", {"re": 12, "code": "bad_range", "message": "get needs 0 <= i <= j <= 3"})
            await pilot.pause(0.2)
            said = events(app)
            assert "Board fault: " in said and "nothing entered is lost" in said, said
            assert "board fault: board fault" not in said.lower(), said
            assert "Refused by the rules: " in said.split("Board fault: ")[1], said  # the refusal stays a refusal
            # a fault without words of its own is given what the table can do
            assert "Board fault: OSError: 5. The board let that input go" in said, said
            assert "Not understood by the board: get needs" in said, said  # a frame it could not take

    asyncio.run(run())
