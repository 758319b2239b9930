"""Every game refuses before its first event (issue 44, part 3).

The core's promise (shared_rules/engine.py, decide): a refused action emits no event, so a
board that folds the events into its one state in place (in_place=True) is untouched by a
refusal. A game that emits an event and then refuses (a check made late, after part of the
action was applied) raises engine.Spoiled in place: the board survives that only by reloading
its journal. The property test "any input is refused with the state unchanged" cannot see it
(it steps on a copy), so this one steps in place.

For every registered game and setting of note: random reachable states (random legal play,
tests/mp/random_game.py, the board's part of a sealed ballot included), then each action
legal() offers, filled from its domain, with its LATER parts made bad: the last parameter, a
list's second or third element, an optional parameter given a wrong value, so that validation
fails after the first ones have passed. Each must be accepted or refused with RuleError, never
Spoiled, and a refusal must leave the state byte for byte as it was.
"""

import os
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import canon, engine, games
from shared_rules.errors import RuleError

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "mp"))
import random_game  # noqa: E402  (tests/mp runs under MicroPython too, so it is not a package)

CASES = [(g, {}) for g in games.GAMES] + [("kings_dilemma", {"voting": "sealed"}),
                                           ("chancellors", {"extended": True})]
BAD = (None, -1, 99, 10 ** 6, "x", "Nothing", True, [], [None], {"a": 1}, [99, 99])


def reach(game, given, seed, stop):
    """(state, seats, cards) after up to `stop` accepted actions of random legal play."""
    rnd = random_game.Draw(seed)
    g = engine.game_module(game)
    state = engine.new_match(game, given, seed)["state"]
    seats, cards, box, done = engine.seats(state), g.card_names(state), {}, 0
    tries = 0
    while done < stop and not g.is_over(state) and tries < 4 * stop + 10:
        tries += 1
        b = state.get("ballot")
        act = random_game.board_ballot(rnd, state, box) if b is not None and b["result"] is None else None
        if act is None:
            choices = g.legal(state, None)
            if not choices:
                break
            act = random_game.action(rnd, rnd.pick(choices), seats, cards)
        try:
            state = engine.step(game, state, act)[2]
            done += 1
        except RuleError:
            pass
    return state, seats, g.card_names(state)


def wide(domain):
    """The domain without what legal() narrowed it to (`among`): values the schema takes and the
    rules may still refuse (a card of the deck not in the hand, a seat not on turn)."""
    out = dict((k, v) for k, v in domain.items() if k != "among")
    if "of" in out:
        out["of"] = wide(out["of"])
    return out


def spoilt_late(rnd, schema, seats, cards, bad):
    """Fillings of `schema` whose later parts are bad: every parameter filled from its domain,
    then one past the first replaced (or a list's later element: `bad`, a copy of an earlier one,
    any value of the element's whole domain), or an optional one added bad."""
    good = random_game.action(rnd, schema, seats, cards)
    params = schema["params"]
    out = []
    for k, p in enumerate(params):
        name = p["name"]
        if k == 0 and len(params) > 1:
            continue  # the first stays good: the point is a check that comes late
        for value in (bad, random_game.fill(rnd, wide(p["domain"]), seats, cards)):
            act = dict(good)
            act[name] = value
            out.append(act)
        v = good.get(name)
        if isinstance(v, list) and len(v) > 1:
            of = p["domain"].get("of")
            for i in range(1, len(v)):
                later = [bad, v[0]] + ([random_game.fill(rnd, wide(of), seats, cards)] if of else [])
                for value in later:
                    act = dict(good)
                    act[name] = list(v)
                    act[name][i] = value
                    out.append(act)
    act = dict(good)
    act["bogus"] = bad  # an unknown parameter, after every known one
    out.append(act)
    return out


@pytest.mark.parametrize("game,given", CASES, ids=["%s%s" % (g, "".join("-%s=%s" % kv for kv in s.items()))
                                                    for g, s in CASES])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2 ** 30), stop=st.integers(0, 80), bad=st.sampled_from(BAD))
def test_a_late_bad_part_is_refused_before_any_event(game, given, seed, stop, bad):
    """(Fails with Chancellors' reveal emitting each card's event as it checks it: a bad second
    card is refused after the first card's event, Spoiled in place.)"""
    state, seats, cards = reach(game, given, seed, stop)
    g = engine.game_module(game)
    rnd = random_game.Draw(seed ^ 0x5A5A)
    b = state.get("ballot")
    schemas = list(g.legal(state, None))
    if b is not None and b["open"]:
        from shared_rules import ballot

        schemas += [s for s in ballot.SCHEMAS if s["type"] in ("ballot_cast", "ballot_close")]
    for schema in schemas:
        for act in spoilt_late(rnd, schema, seats, cards, bad):
            work = canon.copy(state)
            before = canon.encode(work)
            try:
                engine.decide(game, work, act, True)
            except RuleError:
                assert canon.encode(work) == before, "%s: refused, but the state changed" % canon.encode(act)
            except engine.Spoiled as e:
                raise AssertionError("%s: %s emitted an event, then refused (%r)" % (game, canon.encode(act),
                                                                                     e.cause))
