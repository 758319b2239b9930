"""Seeded random play-outs of Chancellors, for CPython and MicroPython alike.

    micropython tests/mp/playout.py --games N --first-seed S [--players P]
                                    [--extended] [--log DIR] [--cap A]

Plays N complete games with game seeds S, S+1, ... (P seats; without
--players the seat count cycles 2, 3, 4 with the seed). Each action is picked
at random from what the game's `legal(state, None)` offers, its parameters
filled from the narrowed domains; a refused action is answered by another
choice. Invariants are checked after every action. One canonical line per
game goes to stdout (the tests compare these lines between the two
interpreters); with --log each game's log is streamed to DIR as JSON lines
(a header line, then one line per entry), never held in memory.

The code here is MicroPython-safe on purpose: no typing, dataclasses,
functools, itertools, floats or `random` (the driver's own choices come from
shared_rules.prng, seeded apart from the game), no reliance on dict order or
on sort stability. Exit status: 0 if every game ended within the cap with all
invariants holding, else 1.
"""

import binascii
import gc
import sys

from shared_rules import canon, engine, prng
from shared_rules.errors import RuleError

GAME = "chancellors"
_MICRO = sys.implementation.name == "micropython"
CAP = 400          # actions per game; reaching it is a failure
ATTEMPTS = 24      # random tries per action before the safe fallback
STEPS = ("roll", "A", "B", "C", "over")
SERVICES = ("army", "diplomatic", "navy")


class PlayoutFailure(Exception):
    """A broken invariant or a game that did not end within the cap."""


class Dice:
    """The driver's own choices: xorshift32 from the core, seeded apart from the game."""

    def __init__(self, seed):
        self.s = prng.seed_state((seed * 0x9E3779B1 + 0x7F4A7C15) & 0xFFFFFFFF)

    def below(self, n):
        v, self.s = prng.draw(self.s, n)
        return v

    def chance(self, num, den):
        return self.below(den) < num

    def pick(self, items):
        return items[self.below(len(items))]

    def shuffled(self, items):
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def _value(card, ranks, dice):
    """What a card is worth on a problem (the driver's own estimate, to aim its picks)."""
    r = ranks[card]
    if r >= 10:
        return dice[0] if dice[0] > dice[1] else dice[1]
    return r


def card_ranks(cards):
    """{card name: rank} for the cards of this game (looked up once per game)."""
    from shared_rules import decktet

    out = {}
    for c in cards:
        out[c] = decktet.rank(c)
    return out


# ---------------------------------------------------------------- random values

def _generic(rnd, domain, seats, cards):
    """A random value from a domain (schema.py's kinds); may be illegal only where
    the domain is not narrowed (the rules then refuse and the driver tries again)."""
    kind = domain["kind"]
    if kind == "int":
        among = domain.get("among")
        if among is not None:
            return rnd.pick(among) if among else domain["min"]
        return domain["min"] + rnd.below(domain["max"] - domain["min"] + 1)
    if kind == "enum":
        return rnd.pick(domain["values"])
    if kind == "bool":
        return rnd.below(2) == 1
    if kind == "seat":
        if domain.get("none") and rnd.below(seats + 1) == seats:
            return None
        return rnd.below(seats)
    if kind == "card":
        among = domain.get("among")
        return rnd.pick(among if among else cards)
    if kind == "list" or kind == "per_seat":
        if kind == "per_seat":
            n = seats
        else:
            hi = domain["max"] if domain["max"] < domain["min"] + 3 else domain["min"] + 3
            n = domain["min"] + rnd.below(hi - domain["min"] + 1)
        of = domain["of"]
        if of["kind"] == "card":
            # distinct cards: a card exists once at the table
            pool = rnd.shuffled(of.get("among") or cards)
            return pool[:n]
        return [_generic(rnd, of, seats, cards) for _ in range(n)]
    raise PlayoutFailure("unknown domain kind %r" % (kind,))


def _param(schema, name):
    for p in schema["params"]:
        if p["name"] == name:
            return p
    return None


def _aimed_cards(rnd, allowed, ranks, dice, need):
    """Cards meant to reach `need` on a problem: high cards first, with some luck.

    Sometimes deliberately short (the rules must refuse with too_low)."""
    if not allowed:
        return []
    if rnd.chance(1, 12):
        pool = rnd.shuffled(allowed)
        return pool[:1 + rnd.below(2)]
    pool = rnd.shuffled(allowed)
    # a full key (value, then name) so the order does not hang on sort stability
    pool = sorted(pool, key=lambda c: (-_value(c, ranks, dice), c))
    out = []
    total = 0
    i = 0
    while total < need and i < len(pool) and len(out) < 12:
        card = pool[i]
        i += 1
        # skip some high cards so subsets vary
        if rnd.chance(1, 3) and i < len(pool):
            continue
        out.append(card)
        total += _value(card, ranks, dice)
    if not out:
        out.append(pool[0])
    return rnd.shuffled(out)


def _effect(rnd, by_type, seats, cards):
    """A correction the table enters (the effects: score, die, service), its values drawn from
    the offered domains; no reason, as on a pad (a text is typed on the host). Some are refused
    (a score below 0, a die already showing the value, a service where it is)."""
    kinds = [k for k in ("score", "die", "service") if k in by_type]
    s = by_type[rnd.pick(kinds)]
    out = {"type": s["type"]}
    for p in s["params"]:
        if not p.get("optional"):
            out[p["name"]] = _generic(rnd, p["domain"], seats, cards)
    return out


def _choose(rnd, state, schemas, seats, cards, ranks, effects=False):
    """One random action from the schemas `legal` returned; effects=True: now and then one of the
    table's effects (off, the driver draws what it drew before they existed: the seeded games
    other tests pin stay the same)."""
    step = state["step"]
    by_type = {}
    for s in schemas:
        by_type[s["type"]] = s
    if "excuse" in by_type and rnd.chance(1, 25):
        holder = None if rnd.chance(1, 4) else rnd.below(seats)
        return {"type": "excuse", "holder": holder}
    if effects and "score" in by_type and rnd.chance(1, 15):
        return _effect(rnd, by_type, seats, cards)
    if step == "roll":
        n = len(state["pending"])
        r = rnd.below(20)
        if r < 15:
            return {"type": "roll"}
        if r < 18:
            return {"type": "roll", "source": "manual", "values": [1 + rnd.below(6) for _ in range(n)]}
        if r < 19:
            return {"type": "roll", "source": "smart", "values": [1 + rnd.below(6) for _ in range(n)]}
        return {"type": "roll", "source": "manual"}  # refused: bad_roll
    if step == "A":
        if "assign" in by_type and rnd.chance(1, 5):
            s = by_type["assign"]
            out = {"type": "assign"}
            for name in SERVICES:
                out[name] = _generic(rnd, _param(s, name)["domain"], seats, cards)
            return out
        s = by_type["reveal"]
        return {"type": "reveal", "cards": _generic(rnd, _param(s, "cards")["domain"], seats, cards)}
    # steps B and C: the actor's chance
    actor = state["queue"][0][0]
    r = rnd.below(10)
    if r < 5 and "solve" in by_type:
        s = by_type["solve"]
        problem = _generic(rnd, _param(s, "problem")["domain"], seats, cards)
        dice = state["problems"][problem]
        allowed = _param(s, "cards")["domain"]["of"].get("among") or cards
        excuse_p = _param(s, "excuse")
        use_excuse = False
        if excuse_p["domain"]["kind"] == "bool" and rnd.chance(1, 2):
            use_excuse = True
        helped = step == "B" or use_excuse
        need = dice[0] + dice[1]
        if not helped:
            need *= 2
        out = {"type": "solve", "problem": problem, "cards": _aimed_cards(rnd, allowed, ranks, dice, need)}
        if use_excuse:
            out["excuse"] = True
        elif rnd.chance(1, 4):
            out["excuse"] = False
    elif r < 7 and "solve_part" in by_type:
        s = by_type["solve_part"]
        problem = _generic(rnd, _param(s, "problem")["domain"], seats, cards)
        dice = state["problems"][problem]
        low = dice[0] if dice[0] < dice[1] else dice[1]
        allowed = _param(s, "card")["domain"].get("among") or cards
        fitting = [c for c in allowed if _value(c, ranks, dice) <= low]
        pool = fitting if fitting and not rnd.chance(1, 10) else allowed
        out = {"type": "solve_part", "problem": problem, "card": rnd.pick(pool), "aside": rnd.below(2)}
        ex = _param(s, "excuse")["domain"]
        if ex["kind"] == "enum" and ex["values"] == [True]:
            out["excuse"] = True
    else:
        out = {"type": "pass"}
        if step == "B" and rnd.chance(1, 8):
            out["abdicate"] = True
    if rnd.chance(1, 3):
        out["seat"] = actor
    elif rnd.chance(1, 40):
        out["seat"] = (actor + 1) % seats  # refused: not_your_turn (or bad_param)
    return out


def _fallback(state):
    """An action that is always legal in this step."""
    step = state["step"]
    if step == "roll":
        return {"type": "roll"}
    if step == "A":
        return {"type": "assign", "diplomatic": None, "army": None, "navy": None}
    return {"type": "pass"}


# ---------------------------------------------------------------- invariants

def _fail(where, what):
    raise PlayoutFailure("%s: %s" % (where, what))


def _seat_ok(v, seats):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < seats


def check_invariants(before, after, seats, where, act=None):
    """act: the action that led from `before` to `after` (a score effect may lower a score)."""
    step = after["step"]
    if step not in STEPS:
        _fail(where, "bad step %r" % (step,))
    probs = after["problems"]
    if len(probs) != seats + 1:
        _fail(where, "%d problems for %d seats" % (len(probs), seats))
    pending = after["pending"] if step == "roll" else []
    for p in range(len(probs)):
        for d in (0, 1):
            v = probs[p][d]
            if v == 0:
                if [p, d] not in pending:
                    _fail(where, "problem %d die %d is 0 but not waiting for a roll" % (p, d))
            elif not (isinstance(v, int) and 1 <= v <= 6):
                _fail(where, "problem %d die %d is %r" % (p, d, v))
    control = after["control"]
    if sorted(control) != ["army", "diplomatic", "navy"]:
        _fail(where, "control has keys %s" % canon.encode(sorted(control)))
    for name in SERVICES:
        v = control[name]
        if v is not None and not _seat_ok(v, seats):
            _fail(where, "the %s is controlled by %r" % (name, v))
    scores = after["scores"]
    if len(scores) != seats:
        _fail(where, "%d scores for %d seats" % (len(scores), seats))
    for s in range(seats):
        if scores[s] < 0 or (scores[s] < before["scores"][s] and (act is None or act["type"] != "score")):
            _fail(where, "seat %d's score fell from %d to %d" % (s, before["scores"][s], scores[s]))
    if after["turn"] < before["turn"]:
        _fail(where, "the turn went back from %d to %d" % (before["turn"], after["turn"]))
    for item in after["queue"]:
        if not _seat_ok(item[0], seats):
            _fail(where, "queue holds seat %r" % (item[0],))
    if step in ("B", "C") and not after["queue"]:
        _fail(where, "step %s with an empty queue" % step)
    ex = after["excuse"]
    if ex is not None and (not after["settings"]["extended"] or not _seat_ok(ex, seats)):
        _fail(where, "the Excuse is held by %r" % (ex,))
    for p in range(len(probs)):
        if after["solved"][p] not in ("", "part", "full"):
            _fail(where, "problem %d solved %r" % (p, after["solved"][p]))
        if after["aside"][p] not in (-1, 0, 1):
            _fail(where, "problem %d aside %r" % (p, after["aside"][p]))
    played = after["played"]
    for i in range(len(played)):
        if played[i] in played[i + 1:]:
            _fail(where, "%s played twice this turn" % played[i])
    if step == "over":
        winners = after["winners"]
        if not winners:
            _fail(where, "the game is over with no winner")
        if after["ending"] == "target":
            best = max(scores)
            if best < after["settings"]["target"]:
                _fail(where, "target ending below the target")
        elif after["ending"] == "catastrophe":
            best = min(scores)
        else:
            _fail(where, "the game is over with ending %r" % (after["ending"],))
        want = [s for s in range(seats) if scores[s] == best]
        if winners != want:
            _fail(where, "winners %s, expected %s" % (canon.encode(winners), canon.encode(want)))
    elif after["ending"] or after["winners"]:
        _fail(where, "an ending before the game is over")


# ---------------------------------------------------------------- one game

def play_game(seed, players, extended=False, on_entry=None, cap=CAP, effects=False):
    """Play one game; returns a result dict (see `line`). effects=True: the table enters an
    effect (score, die, service) now and then (_choose).

    on_entry(index, action, events, digest) is called for each accepted action.
    Raises PlayoutFailure on a broken invariant; a game still running at `cap`
    actions is returned with ending "cap".
    """
    g = engine.game_module(GAME)
    match = engine.new_match(GAME, {"players": players, "extended": bool(extended)}, seed)
    state = match["state"]
    last = match["start"]
    del match
    rnd = Dice(seed)
    cards = list(g.card_names(state))
    ranks = card_ranks(cards)
    crc = 0
    count = 0
    refused = 0
    while state["step"] != "over" and count < cap:
        schemas = g.legal(state, None)
        if not schemas:
            _fail("action %d" % count, "no legal action in step %s" % state["step"])
        result = None
        before = canon.digest(state)
        for attempt in range(ATTEMPTS + 1):
            act = _choose(rnd, state, schemas, players, cards, ranks, effects) if attempt < ATTEMPTS else \
                _fallback(state)
            try:
                result = engine.step(GAME, state, act, last)
                break
            except RuleError as e:
                refused += 1
                if attempt == ATTEMPTS:
                    _fail("action %d" % count, "the fallback %s was refused: %s" % (canon.encode(act), e))
                if canon.digest(state) != before:
                    _fail("action %d" % count, "a refused action changed the state")
        schemas = None
        act, events, new_state, digest = result
        result = None
        check_invariants(state, new_state, players, "action %d" % count, act)
        if on_entry is not None:
            on_entry(count, act, events, digest)
        crc = binascii.crc32(digest.encode(), crc) & 0xFFFFFFFF
        state = new_state
        last = digest
        count += 1
    ending = state["ending"] if state["step"] == "over" else "cap"
    return {"seed": seed, "players": players, "extended": bool(extended), "actions": count,
            "refused": refused, "turn": state["turn"], "digest": last, "state": canon.digest(state), "crc": crc,
            "ending": ending, "winners": list(state["winners"]), "scores": list(state["scores"])}


def line(r):
    """The canonical one-line summary of a game (compared across interpreters)."""
    return "seed=%d players=%d ext=%d actions=%d refused=%d turns=%d digest=%s state=%s crc=%08x ending=%s " \
           "winners=%s scores=%s" % (
               r["seed"], r["players"], 1 if r["extended"] else 0, r["actions"], r["refused"], r["turn"],
               r["digest"], r["state"], r["crc"], r["ending"], canon.encode(r["winners"]), canon.encode(r["scores"]))


def players_for(seed, players):
    """The seat count of a game: fixed, or cycling 2, 3, 4 with the seed."""
    return players if players else 2 + seed % 3


# ---------------------------------------------------------------- logs

class LogWriter:
    """Streams one game's log as JSON lines: a header, then one entry per line."""

    def __init__(self, directory, seed, players, extended):
        name = "game-%d-%d%s.jsonl" % (seed, players, "-x" if extended else "")
        self.f = open(directory + "/" + name, "w")
        match = engine.new_match(GAME, {"players": players, "extended": bool(extended)}, seed)
        self.f.write(canon.encode({"game": match["game"], "settings": match["settings"], "seed": seed,
                                   "start": match["start"]}))
        self.f.write("\n")

    def entry(self, index, act, events, digest):
        # the canonical encoding of {"action", "digest", "events"} (keys in order),
        # written event by event: one big string is what a small heap lacks
        f = self.f
        f.write('{"action":')
        f.write(canon.encode(act))
        f.write(',"digest":"%s","events":[' % digest)
        for i in range(len(events)):
            if i:
                f.write(",")
            f.write(canon.encode(events[i]))
        f.write("]}\n")

    def close(self):
        self.f.close()


# ---------------------------------------------------------------- command line

USAGE = ("usage: playout.py --games N --first-seed S [--players P] [--extended | --mixed] [--log DIR] "
         "[--cap A] [--time]")


def _ms():
    """A millisecond clock on either interpreter (for --time only; never in the results)."""
    import time

    if hasattr(time, "ticks_ms"):
        return time.ticks_ms()
    return time.monotonic_ns() // 1000000


def _ms_since(t0):
    import time

    if hasattr(time, "ticks_diff"):
        return time.ticks_diff(time.ticks_ms(), t0)
    return _ms() - t0


def _args(argv):
    opts = {"games": 1, "first-seed": 0, "players": 0, "extended": False, "log": None, "cap": CAP,
            "time": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--time":
            opts["time"] = True
            i += 1
            continue
        if a == "--extended":
            opts["extended"] = True
            i += 1
            continue
        if a == "--mixed":  # extended on odd seeds
            opts["extended"] = None
            i += 1
            continue
        if not a.startswith("--") or a[2:] not in opts or i + 1 >= len(argv):
            raise ValueError(a)
        key = a[2:]
        opts[key] = argv[i + 1] if key == "log" else int(argv[i + 1])
        i += 2
    return opts


def main(argv):
    try:
        opts = _args(argv)
    except ValueError as e:
        sys.stdout.write("bad argument %s\n%s\n" % (e, USAGE))
        return 2
    failed = 0
    actions = 0
    t0 = _ms()
    for k in range(opts["games"]):
        seed = opts["first-seed"] + k
        players = players_for(seed, opts["players"])
        extended = (seed % 2 == 1) if opts["extended"] is None else opts["extended"]
        log = None
        if opts["log"]:
            log = LogWriter(opts["log"], seed, players, extended)
        try:
            r = play_game(seed, players, extended, log.entry if log else None, opts["cap"])
            actions += r["actions"]
            text = line(r)
            if r["ending"] == "cap":
                failed += 1
                text += " FAIL: no end within %d actions" % opts["cap"]
        except PlayoutFailure as e:
            failed += 1
            text = "seed=%d players=%d ext=%d FAIL: %s" % (seed, players, 1 if extended else 0, e)
        finally:
            if log:
                log.close()
        sys.stdout.write(text + "\n")
        r = None
        if _MICRO:
            gc.collect()  # between games: keeps the heap measure steady (on CPython only slow)
    sys.stdout.write("games=%d failed=%d\n" % (opts["games"], failed))
    if opts["time"]:
        sys.stdout.write("time actions=%d ms=%d\n" % (actions, _ms_since(t0)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
