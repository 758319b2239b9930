"""The King's Dilemma's decisions: check an action, emit its events, run the round on.

Each step refuses with a RuleError before emitting anything that depends on a
failed check; the engine works on a copy, so a refused action changes nothing.
Round (L1674-1684): a card is drawn and read (physical), the Vote of the
Council (voting.py), Vote Resolution, Dilemma Resolution (dilemma.py).
"""

from shared_rules import prng
from shared_rules.errors import RuleError
from shared_rules.kings_dilemma import dilemma, voting
from shared_rules.kings_dilemma.rulings import RULINGS
from shared_rules.schema import ruling

_STEPS = {
    "roll": "roll", "vote": "vote", "pass": "vote", "add": "vote", "stay": "vote",
    "decide": "side", "appoint": "leader", "outcome": "outcome",
    "record": "after", "place": "after",
}


_EFFECTS = tuple(["pool", "stability", "momentum", "agenda_value", "drawn"])

# The steps of a vote, from the first voting turn to the end of Vote Resolution: when Coins
# change hands with the setting bargain = vote (K7: "During the Voting Phase", L1934; the
# Moderator bargains over the Leader token and a tie, L2082-2083, L2118-2130)
VOTE_STEPS = tuple(["vote", "side", "leader"])


def bargain_open(state):
    """Whether Coins may change hands now (K7, a table's ruling: bargain = vote or any)."""
    return state["step"] in VOTE_STEPS or ruling(state, "bargain", RULINGS) == "any"


def situation(state):
    """The few facts that say where the game stands (for messages and prompts)."""
    now = {"step": state["step"], "round": state["round"]}
    step = state["step"]
    if step == "roll":
        now["dice"] = state["pending"]
    elif step == "vote":
        now["seat"] = state["turn"]
        now["choice"] = state["choice"][state["turn"]]
    elif step in ("side", "leader"):
        now["seat"] = state["moderator"]
        now["tied"] = state["tied"]
    elif step == "over":
        now["ending"], now["winners"] = state["ending"], state["winners"]
    return now


def _roll(state, act, emit):
    """The random side of each Resource marker (L781-783): odd = white (up),
    even = black (down), so a d6 or a coin entered as 1 (white) / 2 (black)."""
    k = state["pending"]
    values = act.get("values")
    source = act.get("source", "board")
    if values is None:
        if source != "board":
            raise RuleError("bad_roll", {"why": "no_values", "source": source, "dice": k})
        values = prng.dice(state["rng"], k)[0]
    elif len(values) != k:
        raise RuleError("bad_roll", {"why": "count", "dice": k, "got": len(values)})
    ids = act.get("dice")
    if ids is not None and (source != "smart" or values is None or len(ids) != len(values)):
        raise RuleError("bad_roll", {"why": "ids", "dice": k, "got": len(ids), "source": source})
    for r in range(k):
        emit({"t": "momentum", "resource": r, "side": 1 if values[r] % 2 else -1, "die": values[r],
              "source": source})
    voting.start(state, emit)


def decide(state, act, emit):
    kind = act["type"]
    if state["step"] == "over":
        raise RuleError("game_over", {"now": situation(state)})
    if kind == "coins":  # bargaining (L1932-1942, R16): only Coins change hands, while a vote is on (K7)
        giver, taker, amount = act["giver"], act["taker"], act["amount"]
        if not bargain_open(state):
            raise RuleError("no_bargain", {"now": situation(state)})
        if giver == taker:
            raise RuleError("same_house", {"seat": giver})
        have = state["coins"][giver]
        if amount > have:
            raise RuleError("not_enough_coins", {"seat": giver, "asked": amount})  # not how many it has
        emit({"t": "coins", "giver": giver, "taker": taker, "amount": amount})
        return
    if kind in _EFFECTS:  # a printed card's effect (effects.py): any time but the setup roll
        if state["step"] == "roll":
            raise RuleError("wrong_step", {"what": kind, "now": situation(state)})
        from shared_rules.kings_dilemma import effects

        effects.apply(state, act, emit)
        return
    if state["step"] != _STEPS[kind]:
        raise RuleError("wrong_step", {"what": kind, "now": situation(state)})
    if kind == "roll":
        _roll(state, act, emit)
    elif _STEPS[kind] == "vote":
        if state["settings"].get("voting") == "sealed":
            raise RuleError("sealed_vote", {"what": kind})
        voting.turn(state, act, emit)
    elif kind == "decide":
        voting.decide_side(state, act, emit)
    elif kind == "appoint":
        voting.appoint(state, act, emit)
    elif kind == "outcome":
        dilemma.outcome(state, act, emit)
    elif kind == "place":
        dilemma.place(state, act, emit)
    else:
        dilemma.record(state, act, emit)
