"""The terminal's hints say the form the parser takes (issue 43, part 4): at random states of every
game, each action legal() offers is listed as a hint (commands.usage, as `chancery play` prints
it); an action of that type the rules accept is typed in the hint's form (a value where the hint
shows a value, name=value where it shows name=, a bare name for a flag) and read back by the parser
against the game's whole schema: it must be the same action. The Council's bid narrowed to one
suit was hinted `bid [0-1]`, and `bid 1` went to the first suit, refused."""

import sys

import paths
import pytest

ROOT = paths.ROOT
sys.path.insert(0, paths.MP)

from random_game import Draw, action  # noqa: E402

from chancery.words import commands  # noqa: E402
from shared_rules import engine, games  # noqa: E402
from shared_rules import schema as schemas  # noqa: E402
from shared_rules.errors import RuleError  # noqa: E402


def typed(act, shown, hint_words, seats):
    """`act` typed in the hint's form."""
    out = [commands.word_for(act["type"])]
    for p in shown["params"]:
        name = p["name"]
        if name not in act:
            continue
        value, d = act[name], p["domain"]
        if d["kind"] == "bool" or (d["kind"] == "enum" and d["values"] in ([True], [False])):
            if value:
                out.append(name)
            continue
        text = commands.value_text(d, value)
        keyed = [w for w in hint_words if w.lstrip("[").startswith(name + "=")]
        out.append("%s=%s" % (name, text) if keyed else text)
    return " ".join(out)


@pytest.mark.parametrize("game", games.GAMES)
def test_every_hint_types_an_action_the_parser_reads_back(game):
    g = engine.game_module(game)
    checked = 0
    for seed in range(1, 5):
        rnd = Draw(seed)
        state = engine.new_match(game, {}, seed)["state"]
        seats, cards = engine.seats(state), g.card_names(state)
        for _ in range(60):
            if g.is_over(state):
                break
            offered = g.legal(state, None)
            for shown in offered:
                full = schemas.find(g.SCHEMAS, shown["type"])
                if full is None or shown["type"].startswith("ballot_"):
                    continue
                hint = commands.usage(shown, seats, full)
                for _ in range(30):
                    act = action(rnd, shown, seats, cards)
                    try:
                        engine.step(game, state, act)
                    except RuleError:
                        continue
                    line = typed(act, shown, hint.split(), seats)
                    try:
                        got = commands.parse(line, g.SCHEMAS, seats, cards)
                    except commands.ParseError as e:
                        raise AssertionError("hint %r: %r did not parse: %s" % (hint, line, e))
                    try:
                        engine.step(game, state, got)  # accepted as typed
                    except RuleError as e:
                        raise AssertionError("hint %r: %r reads as %r, refused: %s %s" % (hint, line, got, e.code,
                                                                                           e.detail))
                    defaults = dict([(p["name"], p.get("default")) for p in full["params"] if p.get("optional")])
                    for k, v in act.items():
                        if k in got or k not in defaults or v not in (defaults[k], False):
                            assert got.get(k) == v, (hint, line, act, got)
                    checked += 1
                    break
            b = state.get("ballot")
            if b is not None and b["result"] is None:
                break  # a sealed ballot: its casts are the board's (the terminal's own test covers them)
            choice = action(rnd, rnd.pick(offered), seats, cards)
            try:
                state = engine.step(game, state, choice)[2]
            except RuleError:
                pass
    assert checked > 20, checked
