"""A game log for tools/chip/board_steps.py: random play of any game, drawn as the tests'
random games draw it (tests/mp/random_game.py), with each entry's chained digest.

    python tools/chip/make_log.py GAME SEED PLAYERS MAX_ACTIONS OUT.jsonl
"""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests", "mp")]

import random_game as rg  # noqa: E402

from shared_rules import canon, engine  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402


def make(game, seed, players, cap, settings=None, typed_rolls=False):
    """(header, [{"action", "digest"}, ...]) of one random game (settings: beside the players).
    typed_rolls: every roll of the game's dice carries its values (else the board's rolls have
    none, and a board replaying the log rolls its own: its game then differs from run to run)."""
    rnd = rg.Draw(seed)
    g = engine.game_module(game)
    m = engine.new_match(game, dict(settings or {}, players=players), seed)
    state, last = m["state"], m["start"]
    seats, cards, box, out = engine.seats(state), g.card_names(state), {}, []
    header = {"game": m["game"], "settings": m["settings"], "seed": seed, "start": m["start"]}
    while not g.is_over(state) and len(out) < cap:
        b = state.get("ballot")
        act = rg.board_ballot(rnd, state, box) if b is not None and b["result"] is None else None
        if act is None:
            act = rg.action(rnd, rnd.pick(g.legal(state, None)), seats, cards)
            if typed_rolls and act["type"] == "roll" and not act.get("values") and g.dice_wanted(state):
                act["values"] = [1 + rnd.below(6) for _ in range(g.dice_wanted(state))]
        try:
            act, _, state, last = engine.step(game, state, act, last)
        except RuleError:
            continue
        out.append({"action": act, "digest": last})
    return header, out


def most_players(game):
    """The most seats `game` takes (its players setting's maximum)."""
    for s in engine.game_module(game).SETTINGS:
        if s["name"] == "players":
            return s["domain"]["max"]
    return 4


def log_text(game, seed, cap, settings=None, tries=1, typed_rolls=False):
    """(the log's bytes, its entry count) of a random game at the most seats: of `tries` seeds
    from `seed`, the first that reaches `cap` actions, else the longest (a random Chancellors
    game can end in a few actions)."""
    best = None
    for s in range(seed, seed + tries):
        header, entries = make(game, s, most_players(game), cap, settings, typed_rolls)
        if best is None or len(entries) > len(best[1]):
            best = header, entries
        if len(entries) >= cap:
            break
    header, entries = best
    return ("\n".join([canon.encode(header)] + [canon.encode(e) for e in entries]) + "\n").encode(), len(entries)


def main(argv):
    game, seed, players, cap, path = argv[0], int(argv[1]), int(argv[2]), int(argv[3]), argv[4]
    header, entries = make(game, seed, players, cap)
    with open(path, "w") as f:
        f.write(canon.encode(header) + "\n")
        for e in entries:
            f.write(canon.encode(e) + "\n")
    print(game, "actions", len(entries))


if __name__ == "__main__":
    main(sys.argv[1:])
