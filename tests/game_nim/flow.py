"""Nim's decisions."""

from shared_rules.errors import RuleError


def decide(state, act, emit):
    if state["step"] == "over":
        raise RuleError("game_over", {})
    seat = act.get("seat")
    if seat is not None and seat != state["turn"]:
        raise RuleError("not_your_turn", {"seat": seat, "turn": state["turn"]})
    n = act["count"]
    if n > state["pile"]:
        raise RuleError("too_many", {"count": n, "pile": state["pile"]})
    seat, last = state["turn"], n == state["pile"]
    emit({"t": "took", "seat": seat, "count": n})  # folded at once: the state moves on
    if last:
        emit({"t": "over", "winners": [seat]})
