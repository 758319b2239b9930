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
    table = Table(Journal(folder), lambda kind, body: None, lambda n: bytes(n), GAME, {"players": 3}).boot()
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
    return out


if __name__ == "__main__":
    for line in run(sys.argv[1]):
        print(line)
