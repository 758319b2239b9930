"""A step that fails after its first event, on either interpreter.

    micropython tests/mp/spoiled_step.py FOLDER

The board folds an action's events into its one state in place (engine.decide with
in_place=True): a failure after the first event (here a refusal the rules raise late)
must come out as engine.Spoiled carrying the cause, and the board's table must reload
its state from the journal and answer with the cause, its state and count as before.
Prints one line per check; the test compares CPython's lines with MicroPython's.
"""

import sys

from shared_rules import canon, engine
from shared_rules.errors import RuleError

GAME = "chancellors"


def late_refusal(g, real):
    """g.decide for one call: the rules' own events fold in first, then a refusal comes too late."""
    def decide(state, act, emit):
        g.decide = real  # once: the table's reload replays its journal with the real rules
        real(state, act, emit)
        raise RuleError("late", {"after": "events"})
    return decide


def an_action(state):
    """An action the rules accept now with events, drawn as the random games draw them."""
    import random_game as rg

    g = engine.game_module(GAME)
    rnd = rg.Draw(1)
    for _ in range(200):
        act = rg.action(rnd, rnd.pick(g.legal(state, None)), engine.seats(state), g.card_names(state))
        try:
            if engine.decide(GAME, state, act)[1]:
                return act
        except RuleError:
            pass
    raise RuntimeError("no action found")


def run(folder):
    from firmware.journal import Journal
    from firmware.table import Table

    out = []
    g = engine.game_module(GAME)
    real = g.decide
    table = Table(Journal(folder), lambda n: bytes(n), GAME, {"players": 3}).boot()
    roll = {"type": "roll", "values": [3] * g.dice_wanted(table.state)}
    table.act(roll)  # one good entry on the journal first
    move = an_action(table.state)
    try:
        state = canon.copy(table.state)
        before = canon.digest(state)
        try:
            g.decide = late_refusal(g, real)
            engine.decide(GAME, canon.copy(state), move, False)
        except engine.Spoiled:
            out.append("copy spoiled")
        except RuleError as e:
            out.append("copy refused %s" % e.code)
        work = canon.copy(state)
        try:
            g.decide = late_refusal(g, real)
            engine.decide(GAME, work, move, True)
            out.append("in place: no failure")
        except engine.Spoiled as e:
            out.append("in place spoiled %s %s changed %d" % (type(e.cause).__name__, e.cause.code,
                                                              canon.digest(work) != before))
        count = table.count
        try:
            g.decide = late_refusal(g, real)
            table.act(move)
            out.append("table: no failure")
        except RuleError as e:
            out.append("table refused %s count %d state kept %d" % (e.code, table.count - count,
                                                                   canon.digest(table.state) == before))
    finally:
        g.decide = real
    table.act(move)  # and the table plays on from the reloaded state
    out.append("then played count %d" % table.count)
    out += short_of_memory(table)
    return out


def failing(times, real):
    """real, but raising MemoryError for its first `times` calls (a board's heap running short)."""
    left = [times]

    def call(*args):
        if left[0] > 0:
            left[0] -= 1
            raise MemoryError("memory allocation failed")
        return real(*args)
    return call


def short_of_memory(table):
    """The board's heap running short in a step's journal write, then in the reload after it:
    the entry is refused whole, the state comes back from the journal (without the menu,
    when the first reload runs short too), and with a second short reload the table has no
    state until the next status, key or action reloads it."""
    from firmware.controls import Controls
    from firmware.menu import Menu

    keys = Controls(table)  # the pads' keys, as the board layer makes them
    out = []
    journal = table.journal
    write, resume = journal.write, journal.resume
    for shorts in (0, 1, 2):
        move = an_action(table.state)
        before, count = canon.digest(table.state), table.count
        keys.menu = Menu(keys.legal, table.card_names)
        keys.menu.start(table.state, None)
        journal.write, journal.resume = failing(1, write), failing(shorts, resume)
        try:
            table.act(move)
            out.append("short %d: no failure" % shorts)
        except MemoryError:
            out.append("short %d: refused" % shorts)
        finally:
            journal.write = write
        if table.state is None:  # the second reload ran short: the next status reloads
            out.append("short %d: no state until the status" % shorts)
            keys.status()
        journal.resume = resume
        out.append("short %d: count %d state kept %d menu %s" % (
            shorts, table.count - count, canon.digest(table.state) == before,
            "kept" if keys.menu is not None else "gone"))
        table.act(move)
        out.append("short %d: then played %d" % (shorts, table.count - count))
    return out


if __name__ == "__main__":
    for line in run(sys.argv[1]):
        print(line)
