"""Every game refuses before its first event: a refused action emits no event and changes nothing.

The core's contract (shared_rules/engine.py decide, docs/adding-a-game.md): an action goes in,
events come out, each folded at once; a refusal is a RuleError raised before the first event. On
the board the events fold into the state itself, so a game that emits an event and only then finds
a later part of the action wrong has already changed the state (engine.Spoiled: the board reloads
its journal). Comparing states after a refusal does not see it (the caller's copy is dropped, the
board reloads), and random input rarely gets past the first checks: it is the *later* parts of an
action that a game checks after it has begun to emit.

So: random reachable states of every registered game (its switches drawn too: bool and enum
settings; a sealed ballot played with the board's part, as tests/mp/random_game.py does), then at
some of them, for each action type on offer (legal(); the board's ballot reveal when one is due,
a cast and a close while a ballot is on, now and then a new ballot), a filling the rules accept,
and from it every action that differs from it in one part: the 2nd, 3rd, ... item of a list (and
of a list in a list), a later parameter, a value at or past its domain's edges, of the wrong
type, a repeat of another item, another card, seat or option, a parameter left out or added.
Those the schema lets through (schema.check refuses the rest before any rule runs) are stepped in
place, as a board steps, with every event the engine folds watched: each is accepted, or refused
with a RuleError before any event and with the state's digest as it was. Any other exception is
a failure too.

A Chancellors `reveal` that emitted each card's event as it checked it (a repeated card refused
after the cards before it had been played) passed the property tests of tests/rules/test_properties.py;
this one fails on it at once.
"""

import sys

import paths
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_rules import ballot, canon, engine, games, schema
from shared_rules.errors import RuleError

sys.path.insert(0, paths.MP)
import random_game  # noqa: E402  (tests/mp runs under MicroPython too, so it is not a package)

GAMES = list(games.GAMES)
WRONG_TYPES = [None, "x", 1.5, True, [], {}]


def _settings_of(g, draw):
    """The game's settings with the players and every bool and enum setting drawn (the switches
    that change which rules run: Chancellors' extended, The King's Dilemma's sealed voting, ...)."""
    out = {}
    for s in g.SETTINGS:
        d = s["domain"]
        if s["name"] == "players":
            out["players"] = d["min"] + draw.below(d["max"] - d["min"] + 1)
        elif d["kind"] == "bool":
            out[s["name"]] = draw.below(2) == 1
        elif d["kind"] == "enum":
            out[s["name"]] = draw.pick(d["values"])
    return out


def _new(game, g, draw, seed):
    given_ = _settings_of(g, draw)
    try:
        return engine.new_match(game, given_, seed)["state"]
    except RuleError:  # switches that do not go together: the defaults with the drawn seat count
        return engine.new_match(game, {"players": given_["players"]}, seed)["state"]


def _rules(g, type_):
    """Whose action type it is, as the engine routes it: the sealed ballot's, or the game's."""
    return ballot if type_.startswith("ballot_") else g


def _full_schema(g, type_):
    """The type's schema as declared (legal() narrows its domains to what is allowed now)."""
    return schema.find(_rules(g, type_).SCHEMAS, type_)


def _values(domain, value, seats, cards, draw, siblings):
    """Values of `domain`'s kind other than `value`: in the domain but maybe not allowed now, at
    and past its edges, of the wrong type, and the other items of the same list (a repeat)."""
    kind = domain["kind"]
    out = list(siblings)
    if kind == "int":
        lo, hi = domain["min"], schema.int_max(domain, seats)
        out += [lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, 0, -1]
        if isinstance(value, int):
            out += [value - 1, value + 1]
        out += domain.get("among") or []
    elif kind == "seat":
        out += list(range(-1, seats + 1))
    elif kind == "card":
        some = [draw.pick(cards) for _ in range(8)] if cards else []
        out += some + list(domain.get("among") or []) + ["Nothing"]
    elif kind == "enum":
        out += list(domain["values"]) + ["bogus"]
    elif kind == "bool":
        out += [True, False, 0, 1]
    elif kind == "text":
        out += ["t1", "", "x" * (domain["max"] + 1), 5]
    elif kind in ("list", "per_seat"):
        if isinstance(value, list):
            out += [value[:-1], value + value[-1:], value + [value[0]] if value else [], list(reversed(value))]
    out += WRONG_TYPES
    return [v for v in out if not _same(v, value)]


def _same(a, b):
    return type(a) is type(b) and a == b


def _variants(domain, value, seats, cards, draw, depth=0, siblings=()):
    """(where, value) for each value of `domain` that differs from `value` in one place: the value
    as a whole, or, for a list, one of its items (the later ones first), recursively."""
    out = [((), v) for v in _values(domain, value, seats, cards, draw, siblings)]
    if domain["kind"] in ("list", "per_seat") and isinstance(value, list) and depth < 2:
        for i in reversed(range(len(value))):
            others = [value[j] for j in range(len(value)) if j != i]
            for where, v in _variants(domain["of"], value[i], seats, cards, draw, depth + 1, others):
                changed = list(value)
                changed[i] = v
                out.append(((i,) + where, changed))
    return out


def mutants(g, act, seats, cards, draw):
    """Actions that differ from the accepted `act` in one later part, as (what changed, action)."""
    full = _full_schema(g, act["type"])
    params = list(full["params"])
    if full["who"] == "seat":
        params = [schema.param("seat", {"kind": "seat"}, optional=True)] + params
    out = []
    for p in params:
        name = p["name"]
        if name in act:
            changed = dict(act)
            del changed[name]
            out.append(("%s left out" % name, changed))
            for where, v in _variants(p["domain"], act[name], seats, cards, draw):
                changed = dict(act)
                changed[name] = v
                item = v
                for i in where:
                    item = item[i]
                out.append(("%s%s = %s" % (name, "".join("[%d]" % i for i in where), _short(item)), changed))
        else:  # an optional parameter the filling left out: given, with each value
            for where, v in _variants(p["domain"], None, seats, cards, draw):
                changed = dict(act)
                changed[name] = v
                out.append(("%s = %s" % (name, _short(v)), changed))
    return out


def _short(v):
    text = repr(v)
    return text if len(text) < 60 else text[:57] + "..."


def attempt(game, state, act, what=""):
    """Step `act` in place on a copy of `state`, as the board does, watching every event the
    engine folds. Returns None (accepted) or the refusal's code; fails the test on an event
    before a refusal, a changed state, or an exception that is not a RuleError (`what`: how
    `act` differs from an accepted one, for the message)."""
    seen = []
    real = engine.fold

    def watched(g, work, event):
        seen.append(canon.copy(event))
        real(g, work, event)

    work = canon.copy(state)
    before = canon.digest(state)
    engine.fold = watched
    try:
        try:
            engine.decide(game, work, canon.copy(act), True)
            return None
        except RuleError as e:
            assert not seen, "%s refused %r [%s] (%s) after %d event(s): %r" % (
                game, act, what, e.code, len(seen), seen)
            assert canon.digest(work) == before, "%s refused %r [%s] (%s) and changed the state" % (
                game, act, what, e.code)
            return e.code
        except engine.Spoiled as e:
            raise AssertionError("%s: %r [%s] failed (%r) after %d event(s) had been folded in: %r"
                                 % (game, act, what, e.cause, len(seen), seen))
    finally:
        engine.fold = real


def accepted_fillings(game, g, state, seats, cards, draw, box):
    """One accepted action of each type on offer now (legal(), the board's ballot reveal when one
    is due, a new ballot when none is open): each type's first filling the rules accept."""
    out = []
    b = state.get("ballot")
    if b is not None and b["result"] is None and (not b["open"] or len(b["voted"]) == len(b["voters"])):
        kept = [box.get(s) if s in b["voted"] else None for s in b["voters"]]
        act = {"type": "ballot_reveal", "choices": [k[0] if k else None for k in kept]}
        if b.get("counted"):
            act["amounts"] = [k[1] if k else None for k in kept]
        out.append(act)
    offered = list(g.legal(state, None))
    if b is not None:  # a seat's vote, the table's close: whether the game's legal() offers them or not
        offered += [_full_schema(g, "ballot_cast"), _full_schema(g, "ballot_close")]
    if (b is None or b["result"] is not None) and draw.below(4) == 0:  # now and then, a new ballot
        offered.append(_full_schema(g, "ballot_open"))
    for s in offered:
        for _ in range(12):
            act = random_game.action(draw, s, seats, cards)
            try:
                engine.step(game, state, act)
            except RuleError:
                continue
            out.append(act)
            break
    return out


def refusals_at(game, g, state, draw, box):
    """Every mutant of every accepted filling at `state`: accepted, or refused before any event.
    A mutant its schema refuses is refused by engine.decide before the game's rules see it (no
    event can come before it), so only those the schema lets through are stepped: the ones
    that the game's rules themselves must refuse late."""
    seats = engine.seats(state)
    cards = g.card_names(state)
    tried = 0
    for act in accepted_fillings(game, g, state, seats, cards, draw, box):
        rules = _rules(g, act["type"])
        for what, changed in mutants(g, act, seats, cards, draw):
            try:
                schema.check(changed, rules.SCHEMAS, seats, cards)
            except RuleError:
                continue
            attempt(game, state, changed, what)
            tried += 1
    return tried


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 31 - 1), stop=st.integers(0, 150), every=st.integers(5, 15))
def test_every_game_refuses_before_its_first_event(game, seed, stop, every):
    """Play `stop` actions of a random game, checking the mutants at every `every`-th state."""
    g = engine.game_module(game)
    draw = random_game.Draw(seed)
    state = _new(game, g, draw, seed)
    seats = engine.seats(state)
    box = {}  # the open ballot's choices, kept as the board keeps them
    played = refused = 0
    checked = -1
    while not g.is_over(state) and played <= stop and refused < 1000:
        if checked < played and (played % every == every - 1 or played == stop):
            refusals_at(game, g, state, random_game.Draw(seed + played), box)
            checked = played
        b = state.get("ballot")
        act = random_game.board_ballot(draw, state, box) if b is not None and b["result"] is None else None
        if act is None:
            act = random_game.action(draw, draw.pick(g.legal(state, None)), seats, g.card_names(state))
        try:
            state = engine.step(game, state, act)[2]
            played += 1
        except RuleError:
            refused += 1
