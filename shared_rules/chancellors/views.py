"""What a seat may do now (legal actions with narrowed domains) and what the board asks."""

from shared_rules import decktet
from shared_rules.chancellors import services, solving
from shared_rules.chancellors.actions import SCHEMAS
from shared_rules.chancellors.effects import settable
from shared_rules.chancellors.flow import open_problems


def actor(state):
    """The seat whose chance it is (steps B and C), else None."""
    if state["step"] in ("B", "C") and state["queue"]:
        return state["queue"][0][0]
    return None


def _narrow(schema, params):
    out = dict(schema)
    out["params"] = [params.get(p["name"], p) for p in schema["params"]]
    return out


def _with_domain(p, domain):
    q = dict(p)
    q["domain"] = domain
    return q


def _cards(state):
    """The names of cards that may still be played this turn (L23, L43)."""
    played = state["played"]
    return [c for c in decktet.names(state["settings"]["extended"])
            if c not in services.SERVICE_CARDS and c != decktet.EXCUSE and c not in played]


def legal(state, seat=None):
    """Action schemas usable now by `seat` (None: anyone at the table)."""
    step = state["step"]
    out = []
    schema = SCHEMAS.one  # builds the schema of one action type (actions._schema): only those offered now
    if step == "over":
        return out
    if step == "roll":
        s = schema("roll")
        n = len(state["pending"])
        values = _with_domain(s["params"][0], {"kind": "list", "of": {"kind": "int", "min": 1, "max": 6},
                                               "min": n, "max": n})
        out.append(_narrow(dict(s, params=s["params"][:2]), {"values": values}))  # not "dice" (actions.py)
    elif step == "A":
        cards = _cards(state)
        s = schema("reveal")
        out.append(_narrow(s, {"cards": _with_domain(s["params"][0], {
            "kind": "per_seat", "of": {"kind": "card", "deck": "decktet", "among": cards}})}))
        s = schema("assign")
        # each cursor on the service's holder: nobody matching its suits, control stays (chancellors.txt L39)
        params = {}
        for p in s["params"]:
            d = dict(p["domain"])
            d["start"] = state["control"][p["name"]]
            params[p["name"]] = _with_domain(p, d)
        out.append(_narrow(s, params))
    else:
        who = actor(state)
        if seat is None or seat == who:
            out.extend(_chance_actions(state, schema, who))
    if state["settings"]["extended"]:
        out.append(schema("excuse"))
    if seat is None:  # corrections and house rules (effects.py): the table enters them
        out.extend(_effects(state, schema))
    return out


def _effects(state, schema):
    """The corrections and house rules (effects.py), for the table."""
    out = [schema("score")]
    problems = []
    for p, _ in settable(state):
        if p not in problems:
            problems.append(p)
    if problems:  # none before the first roll: every die waits for it
        s = schema("die")
        out.append(_narrow(s, {"problem": _with_domain(s["params"][0], {
            "kind": "int", "min": 0, "max": len(state["problems"]) - 1, "among": problems})}))
    out.append(schema("service"))
    return out


def _chance_actions(state, schema, who):
    step = state["step"]
    problems = open_problems(state)
    prob = {"kind": "int", "min": 0, "max": len(state["problems"]) - 1, "among": problems}
    cards = _cards(state)
    excuse = step == "C" and state["excuse"] == who
    if step == "B":
        mine = services.controlled_by(state["control"], who)
        cards = [c for c in cards if solving.suits_ok(c, mine)]
    out = []
    s = schema("solve")
    params = {"problem": _with_domain(s["params"][0], prob),
              "cards": _with_domain(s["params"][1], {"kind": "list", "of": {"kind": "card", "deck": "decktet",
                                                                             "among": cards},
                                                     "min": 1, "max": 12, "distinct": True})}
    if not excuse:
        params["excuse"] = _with_domain(s["params"][2], {"kind": "enum", "values": [False]})
    out.append(_narrow(s, params))
    if step == "B" or excuse:
        s = schema("solve_part")
        params = {"problem": _with_domain(s["params"][0], prob),
                  "card": _with_domain(s["params"][1], {"kind": "card", "deck": "decktet", "among": cards})}
        # in step B the Excuse cannot help (its holder would control no service); in C it must
        params["excuse"] = _with_domain(s["params"][3], {"kind": "enum", "values": [step == "C"]})
        out.append(_narrow(s, params))
    s = schema("pass")
    if step == "C":
        out.append(_narrow(s, {"abdicate": _with_domain(s["params"][0], {"kind": "enum", "values": [False]})}))
    else:
        out.append(s)
    return out
