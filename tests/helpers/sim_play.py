"""Random legal play of any game from the host, over the link to a (simulated) board, until
the game ends: the game's actions drawn from legal() (tests/mp/random_game.py), and each
open sealed ballot cast seat by seat with a drawn choice, which the board keeps in its
private box. Used by tests/board/test_simboard_games.py and tools/bench_board.py."""

import random_game

from shared_rules import canon, engine, wire


def ballot_cast(rnd, b):
    """A cast with its choice (the board keeps it in its private box) for the next voter."""
    seat = [s for s in b["voters"] if s not in b["voted"]][0]
    if b.get("multi"):
        move = {"type": "ballot_cast", "choice": [o for o in b["options"] if rnd.below(3) == 0]}
    else:
        move = {"type": "ballot_cast", "choice": rnd.pick(b["options"])}
        if move["choice"] in (b.get("counted") or []):
            move["count"] = 1 + rnd.below(b["max"])
    return move, seat


def play_to_end(link, seed, most=600, enough=None):
    """Play the linked board's game at random until it is over (at most `most` actions, and
    until enough(entries) is true, when given); returns how many the board accepted. A
    refusal must change nothing; the board running out of memory raises AssertionError, a
    board that does not answer LinkError."""
    rnd = random_game.Draw(seed)
    g = engine.game_module(link.mirror.match["game"])
    players = link.mirror.match["settings"]["players"]
    accepted = 0
    for _ in range(most):
        state = link.mirror.match["state"]
        if g.is_over(state) or (enough is not None and enough(link.mirror.match["entries"])):
            break
        b = state.get("ballot")
        if b is not None and b["open"]:
            move, seat = ballot_cast(rnd, b)
        else:
            move, seat = random_game.action(rnd, rnd.pick(g.legal(state, None)), players, g.card_names(state)), None
        before = canon.digest(state)
        kind, body = link.act(move, seat)
        assert kind in (wire.OK, wire.ERROR), (kind, body)
        if kind == wire.ERROR:
            assert body["code"] != "no_memory", "the board ran out of memory"
            assert canon.digest(link.mirror.match["state"]) == before
        else:
            accepted += 1
    return accepted
