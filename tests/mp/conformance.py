"""Every game of the registry, played at random on either interpreter, against the contract
every game keeps (docs/adding-a-game.md).

    micropython tests/mp/conformance.py GAME FIRST_SEED COUNT [CAP]

GAME is a registry name, or a test's own game (game_GAME on the path, registered here as
its one line would be). For each seed, a match of 2 + seed % 3 seats (within the game's
range) at its default settings, played with actions drawn from what legal() offers
(tests/mp/random_game.py: the same draws on both interpreters, the board's part of a
sealed ballot played as the board plays it), at most CAP actions. After every action:

* accepted: the state is the fold of the entry's events (folded alone, from the state
  before), and no view (the public's, each seat's) holds the PRNG;
* refused: with a rule error, and the state unchanged (anything else is a failure).

At the end the log replays (shared_rules/matches.py: every entry's events and digest
again) to the same state. One line per game: seed, seats, actions accepted and refused,
the end ("over" or "cap") and the final digest; a broken promise is a line that says
which, and the exit status is 1.
"""

import sys

import random_game

from shared_rules import canon, engine, games, matches
from shared_rules.errors import RuleError


def _views(g, state, seats):
    for seat in [None] + list(range(seats)):
        if "rng" in g.view(state, seat):
            return "the view of %s holds the PRNG" % ("the public" if seat is None else "seat %d" % seat)
    return None


def play(game, seed, cap):
    rnd = random_game.Draw(seed)
    g = engine.game_module(game)
    dom = [s for s in g.SETTINGS if s["name"] == "players"][0]["domain"]
    players = min(dom["max"], max(dom["min"], 2 + seed % 3))
    m = engine.new_match(game, {"players": players}, seed)
    seats = engine.seats(m["state"])
    cards = g.card_names(m["state"])
    accepted = refused = 0
    box = {}
    bad = _views(g, m["state"], seats)
    while bad is None and not g.is_over(m["state"]) and accepted < cap:
        state = m["state"]
        b = state.get("ballot")
        act = random_game.board_ballot(rnd, state, box) if b is not None and b["result"] is None else None
        if act is None:
            choices = g.legal(state, None)
            if not choices:
                bad = "no legal action in a game not over"
                break
            act = random_game.action(rnd, rnd.pick(choices), seats, cards)
        before = canon.digest(state)
        try:
            entry = engine.apply(m, act)
        except RuleError:
            if canon.digest(state) != before:
                bad = "a refusal changed the state"
            refused += 1
            continue
        accepted += 1
        folded = canon.copy(state)
        for event in entry["events"]:
            engine.fold(g, folded, event)
        if canon.digest(folded) != canon.digest(m["state"]):
            bad = "entry %d: the state is not the fold of its events" % (accepted - 1)
        else:
            bad = _views(g, m["state"], seats)
    if bad is None:
        try:
            again = matches.replay(matches.log_of(m))
            if canon.digest(again["state"]) != canon.digest(m["state"]):
                bad = "the log replays to another state"
        except Exception as e:  # a LogError names the entry that differs
            bad = "the log does not replay: %s" % e
    if bad is not None:
        return "seed %d: %s" % (seed, bad)
    return "seed %d players %d accepted %d refused %d %s %s" % (
        seed, seats, accepted, refused, "over" if g.is_over(m["state"]) else "cap", canon.digest(m["state"]))


def main(argv):
    game, first, count = argv[0], int(argv[1]), int(argv[2])
    cap = int(argv[3]) if len(argv) > 3 else 600
    if game not in games.GAMES:  # a test's own game: its folder's one line
        games.register(game, __import__("game_" + game))
    status = 0
    for seed in range(first, first + count):
        line = play(game, seed, cap)
        if " players " not in line:
            status = 1
        print(line)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
