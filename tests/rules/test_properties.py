"""Invariants of the rules core, checked on random states and random (mostly bad) input.

- Errors are answers: whatever is thrown at the engine (a wrong type, an
  unknown card, a value out of range, an illegal move), it either accepts it
  or raises RuleError with a code and a readable message, and the state is
  exactly as it was.
- State is the fold of events: folding an entry's events into the old state
  gives the new state, the digest chains on the one before, and stepping in
  place (as the board does) gives the same entry and refuses the same input
  without touching the state.
- Views never show the PRNG state; legal() only offers what step() accepts
  for its simplest filling.
"""

import json
import sys

import paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import canon, decktet, engine, games, matches
from shared_rules.chancellors.effects import settable
from shared_rules.chancellors.fold import fold
from shared_rules.errors import RuleError

sys.path.insert(0, paths.MP)
import playout  # noqa: E402  (tests/mp runs under MicroPython too, so it is not a package)


def state_after(seed, players, extended, stop):
    """A state reached by the random driver after `stop` actions (or at the end)."""
    match = engine.new_match("chancellors", {"players": players, "extended": extended}, seed)
    entries = []

    def keep(index, act, events, digest):
        entries.append(act)

    playout.play_game(seed, players, extended, keep)
    for act in entries[:stop]:
        engine.apply(match, act)
    return match


scalar = st.one_of(st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from(
    ["", "x", "Pact", "Castle", "Diplomat", "Excuse", "Watchman", "board", "manual", "B"]),
    st.floats(allow_nan=True))
value = st.recursive(scalar, lambda inner: st.lists(inner, max_size=6), max_leaves=8)
card_list = st.lists(st.sampled_from(decktet.NAMES + ("Nothing",)), max_size=5)
action = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["roll", "reveal", "assign", "solve", "solve_part", "pass",
                                                      "excuse", "score", "die", "service", "undo", 7])},
                          optional={"seat": value, "problem": value, "cards": st.one_of(card_list, value),
                                    "card": st.one_of(st.sampled_from(decktet.NAMES), value), "aside": value,
                                    "values": st.one_of(st.lists(st.integers(0, 7), max_size=11), value),
                                    "source": value, "abdicate": value, "excuse": value, "holder": value,
                                    "diplomatic": value, "army": value, "navy": value, "bogus": value,
                                    "amount": value, "die": value, "value": value, "service": value,
                                    "reason": value}),
    value,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 31), players=st.sampled_from([2, 3, 4]), extended=st.booleans(),
       stop=st.integers(0, 60), act=action)
def test_any_input_is_accepted_or_refused_with_the_state_unchanged(seed, players, extended, stop, act):
    match = state_after(seed, players, extended, stop)
    before = canon.encode(match["state"])
    entries = len(match["entries"])
    prev = engine.last_digest(match)
    # the board's way: the same action folded into the state itself
    board = json.loads(before)
    try:
        board_entry = engine.decide("chancellors", board, canon.copy(act), True)
    except RuleError as e:
        board_entry = e.code
    try:
        entry = engine.apply(match, act)
    except RuleError as e:
        assert e.code and isinstance(e.code, str)
        assert isinstance(games.message(e), str) and games.message(e) and not games.message(e).startswith(e.code + " {")
        assert canon.encode(match["state"]) == before
        assert len(match["entries"]) == entries
        assert board_entry == e.code and canon.encode(board) == before  # refused before any change in place too
        return
    # accepted: the entry is well formed, its digest chains on the one before, and the
    # new state is the fold of its events (in place, as the board steps, the same)
    assert entry["digest"] == canon.chain(prev, canon.encode(entry["action"]), canon.encode(entry["events"]))
    assert canon.encode(board_entry[1]) == canon.encode(entry["events"]) and board_entry[2] is board
    assert canon.encode(board) == canon.encode(match["state"])
    state = json.loads(before)
    for ev in entry["events"]:
        fold(state, canon.copy(ev))
    assert canon.encode(state) == canon.encode(match["state"])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 31), players=st.sampled_from([2, 3, 4]), extended=st.booleans(),
       stop=st.integers(0, 80))
def test_views_hide_the_prng_and_the_log_replays(seed, players, extended, stop):
    match = state_after(seed, players, extended, stop)
    for seat in [None] + list(range(players)):
        assert "rng" not in matches.view(match, seat)
    again = matches.replay(json.loads(json.dumps(matches.log_of(match))))
    assert canon.encode(again["state"]) == canon.encode(match["state"])


EFFECTS = ("score", "die", "service")


def _effect_fillings(state, legal):
    """One filling of each effect legal() offers that should be accepted: a point for seat 0, the
    first die on offer set to another value, the Army moved to another holder."""
    out = [{"type": "score", "seat": 0, "amount": 1}, {"type": "service", "service": "army",
                                                       "holder": 0 if state["control"]["army"] is None else None}]
    die = [a for a in legal if a["type"] == "die"]
    if die:
        p = die[0]["params"][0]["domain"]["among"][0]
        d = [x for q, x in settable(state) if q == p][0]
        out.append({"type": "die", "problem": p, "die": d, "value": 1 + state["problems"][p][d] % 6})
    return out


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2 ** 31), players=st.sampled_from([2, 3, 4]), stop=st.integers(0, 80))
def test_every_legal_action_type_has_a_way_through(seed, players, stop):
    """For each action type legal() offers, some filling of it is accepted: legal() never
    offers a dead end (e.g. pass is always accepted in steps B and C). The table is offered
    the effects until the game is over: a score and a service always, a die when one is in play."""
    match = state_after(seed, players, False, stop)
    legal = matches.legal(match, None)
    types = [a["type"] for a in legal]
    step = match["state"]["step"]
    effects = [t for t in types if t in EFFECTS]
    types = [t for t in types if t not in EFFECTS]
    if step != "over":
        assert effects == (["score", "die", "service"] if settable(match["state"]) else ["score", "service"])
        for act in _effect_fillings(match["state"], legal):
            engine.step("chancellors", match["state"], act)  # accepted (RuleError otherwise)
    if step == "roll":
        assert types == ["roll"]
        engine.apply(match, {"type": "roll"})
    elif step == "A":
        assert types == ["reveal", "assign"]
        engine.apply(match, {"type": "assign", "diplomatic": None, "army": None, "navy": None})
    elif step in ("B", "C"):
        assert "pass" in types
        engine.apply(match, {"type": "pass"})
    else:
        assert step == "over" and types == [] and effects == []
