"""Random games of any game, built only from its legal() schemas, on either interpreter.

    micropython random_game.py GAME FIRST_SEED COUNT [SETTINGS_JSON [offered]]

For each seed: a match with 3 + seed % 3 players (within the game's range) and
the settings given, then actions drawn with shared_rules.prng (so both
interpreters draw the same ones) from what legal(state, None) offers, every
parameter filled from its narrowed domain. While a sealed ballot is open the
runner also plays the board's part (firmware/ballot_box.py): it casts for a
voter with a drawn choice (and count) kept in its own box, sometimes closes
the ballot, and reveals the box when it is due. An action is accepted, or refused
with a rule error and the state unchanged; anything else is a failure. One
line per game: seed, players, actions accepted and refused, the end, and the
final digest. The gate compares CPython's lines with MicroPython's. With "offered", every
seventh state is also checked: each action type legal() offers has a filling the rules accept.
"""

import json
import sys

from shared_rules import canon, engine, prng
from shared_rules.errors import RuleError

CAP = 3000  # actions per game at most: a game still running then is reported as "cap"


class Draw:
    def __init__(self, seed):
        self.s = prng.seed_state(seed)

    def below(self, n):
        v, self.s = prng.draw(self.s, n)
        return v

    def pick(self, items):
        return items[self.below(len(items))]


def fill(rnd, domain, seats, cards):
    kind = domain["kind"]
    among = domain.get("among")
    if kind == "int":
        if among is not None:
            return rnd.pick(among) if among else domain["min"]
        lo, hi = domain["min"], domain["max"]
        if lo <= 0 <= hi:  # near nothing: rules take small numbers more often than large
            lo, hi = max(lo, -3), min(hi, 3)
        else:
            hi = min(hi, lo + 9)
        return lo + rnd.below(hi - lo + 1)
    if kind == "enum":
        return rnd.pick(domain["values"])
    if kind == "bool":
        return rnd.below(10) < 3
    if kind == "seat":
        if domain.get("none") and rnd.below(4) == 0:
            return None
        return rnd.below(seats)
    if kind == "card":
        return rnd.pick(among if among else cards)
    if kind == "text":
        return "t%d" % rnd.below(10)
    if kind == "per_seat":
        return [fill(rnd, domain["of"], seats, cards) for _ in range(seats)]
    if kind == "list":
        hi = min(domain["max"], domain["min"] + 3)
        n = domain["min"] + rnd.below(hi - domain["min"] + 1)
        return [fill(rnd, domain["of"], seats, cards) for _ in range(n)]
    raise ValueError("no filler for domain kind " + kind)


def action(rnd, schema, seats, cards):
    act = {"type": schema["type"]}
    for p in schema["params"]:
        if not p.get("optional") or rnd.below(2):
            act[p["name"]] = fill(rnd, p["domain"], seats, cards)
    return act


def board_ballot(rnd, state, box):
    """The board's action on an unrevealed sealed ballot, or None to let the game act:
    the reveal when due, else mostly a cast with a drawn choice, now and then a close."""
    b = state["ballot"]
    if b["open"]:
        waiting = [s for s in b["voters"] if s not in b["voted"]]
        r = rnd.below(20)
        if r < 4:
            return None
        if r == 4:
            return {"type": "ballot_close"}
        seat = rnd.pick(waiting)
        if b.get("multi"):  # any set of the options, maybe none
            choice = [o for o in b["options"] if rnd.below(3) == 0]
        else:
            choice = rnd.pick(b["options"])
        count = 1 + rnd.below(b["max"]) if choice in (b.get("counted") or []) else None
        box[seat] = [choice, count]
        return {"type": "ballot_cast", "seat": seat}
    kept = [box.get(s) if s in b["voted"] else None for s in b["voters"]]
    act = {"type": "ballot_reveal", "choices": [k[0] if k else None for k in kept]}
    if b.get("counted"):
        act["amounts"] = [k[1] if k else None for k in kept]
    return act


def _edge(schema, last, seats):
    """An action of `schema` with each parameter's first (or last) value of its domain."""
    act = {"type": schema["type"]}
    others = list(range(seats))
    if last:
        others.reverse()
    for p in schema["params"]:
        d = p["domain"]
        if d["kind"] == "int":
            act[p["name"]] = d.get("among", [d["max"] if last else d["min"]])[0]
        elif d["kind"] == "enum":
            act[p["name"]] = d["values"][-1 if last else 0]
        elif d["kind"] == "seat" and others:
            act[p["name"]] = others.pop(0)
        elif d["kind"] == "list" and not d.get("min"):
            act[p["name"]] = []
        elif not p.get("optional"):
            return None
    return act


# Refusals that rest on what legal() may not know: a House's Power is behind its screen (The King's
# Dilemma), so a vote is offered to a House that may have none
HIDDEN = ("not_enough_power",)


def never_accepted(rnd, game, g, state, seats, cards, tries=40):
    """The action types legal(state, None) offers for which no filling is accepted: random ones
    from the narrowed domains, and each domain's first and last values. An offered action is
    never refused outright: a type listed here is a rules bug (or a domain narrowed too little),
    unless every refusal rests on hidden information (HIDDEN)."""
    out = []
    for schema in g.legal(state, None):
        acts = [_edge(schema, False, seats), _edge(schema, True, seats)]
        acts += [action(rnd, schema, seats, cards) for _ in range(tries)]
        codes = []
        for act in acts:
            if act is None:
                continue
            try:
                engine.step(game, state, act)
                codes = None
                break
            except RuleError as e:
                codes.append(e.code)
        if codes is not None and [c for c in codes if c not in HIDDEN]:
            out.append("%s (%s)" % (schema["type"], ",".join(sorted(set(codes)))))
    return out


def play(game, seed, settings, offered=False):
    rnd = Draw(seed)
    g = engine.game_module(game)
    given = dict(settings)
    if "players" not in given:
        dom = [s for s in g.SETTINGS if s["name"] == "players"][0]["domain"]
        given["players"] = min(dom["max"], max(dom["min"], 3 + seed % 3))
    state = engine.new_match(game, given, seed)["state"]
    seats = engine.seats(state)
    cards = g.card_names(state)
    accepted = refused = 0
    box = {}  # seat: [choice, count] of the open ballot, as the board keeps them
    while not g.is_over(state) and accepted < CAP:
        b = state.get("ballot")
        act = board_ballot(rnd, state, box) if b is not None and b["result"] is None else None
        if offered and accepted % 7 == 0:  # every seventh state: each offered type has an accepted filling
            bad = never_accepted(Draw(seed * 7919 + accepted), game, g, state, seats, cards)
            if bad:
                return "seed %d: after %d actions, offered and never accepted: %s" % (seed, accepted, "; ".join(bad))
        if act is None:
            choices = g.legal(state, None)
            if not choices:
                return "seed %d: no legal action in a game not over" % seed
            act = action(rnd, rnd.pick(choices), seats, cards)
        before = canon.digest(state)
        try:
            state = engine.step(game, state, act)[2]
            accepted += 1
        except RuleError:
            if canon.digest(state) != before:
                return "seed %d: a refusal changed the state" % seed
            refused += 1
    ending = "over" if g.is_over(state) else "cap"
    return "seed %d players %d accepted %d refused %d %s %s" % (seed, seats, accepted, refused, ending,
                                                                 canon.digest(state))


def main(argv):
    game, first, count = argv[0], int(argv[1]), int(argv[2])
    settings = json.loads(argv[3]) if len(argv) > 3 else {}
    offered = len(argv) > 4 and argv[4] == "offered"  # also check that every offered type is accepted
    bad = 0
    for seed in range(first, first + count):
        line = play(game, seed, settings, offered)
        if " players " not in line:
            bad += 1
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
