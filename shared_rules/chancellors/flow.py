"""Chancellors' decisions: validate an action, emit its events, run the turn on.

Each `decide` checks the action against the rules first and raises RuleError
before emitting anything that depends on a failed check; the engine works on a
copy, so a refused action changes nothing. Turn order (L29): A control, B
solve with control, C solve without help, D escalate, E draw.
"""

from shared_rules import decktet, prng
from shared_rules.chancellors import effects, services, solving
from shared_rules.errors import RuleError


def open_problems(state):
    return [p for p in range(len(state["problems"])) if state["solved"][p] == ""]


def _next_step_after_b(state, emit):
    """Step C: seats with no service, clockwise from the left of the most
    recent solver (L63; ruling C1 when nobody has solved yet: seat 0 starts)."""
    n = state["settings"]["players"]
    last = state["last_solver"]
    start = 0 if last is None else (last + 1) % n
    queue = []
    for k in range(n):
        seat = (start + k) % n
        if not services.controlled_by(state["control"], seat):
            queue.append([seat, ""])
    emit({"t": "step", "step": "C", "queue": queue if open_problems(state) else []})


def _escalate(state, emit):
    """Step D.2 (L74): every problem not wholly solved this turn (partly solved
    ones too, ruling D1) raises its lower die; a 6-6 ends the game at once."""
    probs = state["problems"]
    for p in range(len(probs)):
        if state["solved"][p] != "full" and probs[p][0] == 6 and probs[p][1] == 6:
            _end(state, emit, "catastrophe", p)
            return
    for p in range(len(probs)):
        if state["solved"][p] != "full":
            a, b = probs[p]
            d = 1 if b < a else 0  # the lower die; on a double, the first (L74 "either one")
            emit({"t": "escalate", "problem": p, "die": d, "value": probs[p][d] + 1})
    full = [p for p in range(len(probs)) if state["solved"][p] == "full"]
    if full and max(state["scores"]) < state["settings"]["target"]:
        dice = []
        for p in full:
            dice.append([p, 0])
            dice.append([p, 1])
        emit({"t": "await_roll", "for": "solved", "dice": dice})  # D.3 (L76)
    # (when the target is reached the game ends with this turn: no new problems to roll)
    else:
        _end_of_turn(state, emit)


def _end(state, emit, ending, problem=None):
    scores = state["scores"]
    best = min(scores) if ending == "catastrophe" else max(scores)
    ev = {"t": "end", "ending": ending, "winners": [s for s in range(len(scores)) if scores[s] == best]}
    if problem is not None:
        ev["problem"] = problem
    emit(ev)


def _end_of_turn(state, emit):
    """L84: a seat at or over the target ends the game at the end of the turn;
    the highest score wins, ties share (ruling E1)."""
    if max(state["scores"]) >= state["settings"]["target"]:
        _end(state, emit, "target")
        return
    emit({"t": "draw_cards"})  # step E is physical (L78): the board reminds
    emit({"t": "turn", "turn": state["turn"] + 1})


def advance(state, emit):
    """Run the turn on until someone has to act (or the game ends)."""
    while True:
        step = state["step"]
        if step in ("B", "C") and state["queue"] and not open_problems(state):
            # nothing left to solve this turn: the remaining chances lapse
            emit({"t": "step", "step": step, "queue": []})
        if step == "B" and not state["queue"]:
            _next_step_after_b(state, emit)
            continue
        if step == "C" and not state["queue"]:
            part = [[p, state["aside"][p]] for p in range(len(state["problems"])) if state["aside"][p] >= 0]
            if part:
                emit({"t": "await_roll", "for": "partial", "dice": part})  # D.1 (L72)
            else:
                _escalate(state, emit)
            continue
        return


def _roll(state, act, emit):
    pending = state["pending"]
    values = act.get("values")
    source = act.get("source", "board")
    if values is None:
        if source != "board":
            raise RuleError("bad_roll", {"why": "no_values", "source": source, "dice": pending})
        values = prng.dice(state["rng"], len(pending))[0]
    else:
        # values with source "board" are the board's own roll (its PRNG seeded from
        # os.urandom), so the log holds the faces and no secret predicts the next ones
        if len(values) != len(pending):
            raise RuleError("bad_roll", {"why": "count", "dice": pending, "got": len(values)})
    ids = act.get("dice")
    if ids is not None and (source != "smart" or values is None or len(ids) != len(values)):
        raise RuleError("bad_roll", {"why": "ids", "dice": pending, "got": len(ids), "source": source})
    roll_for = state["roll_for"]
    for i in range(len(pending)):
        p, d = pending[0]
        emit({"t": "die", "problem": p, "die": d, "value": values[i], "source": source})
    if roll_for == "setup":
        emit({"t": "turn", "turn": 1})
    elif roll_for == "partial":
        _escalate(state, emit)
    else:
        _end_of_turn(state, emit)


def _check_step(state, wanted, what):
    step = state["step"]
    if step not in wanted:
        raise RuleError("wrong_step", {"what": what, "now": situation(state)})


def situation(state):
    """The few facts that say where the game stands (for messages and prompts)."""
    now = {"step": state["step"], "turn": state["turn"]}
    if state["step"] == "roll":
        now["dice"] = state["pending"]
    elif state["step"] in ("B", "C") and state["queue"]:
        now["seat"], now["service"] = state["queue"][0]
    elif state["step"] == "over":
        now["ending"], now["winners"] = state["ending"], state["winners"]
    return now


def _playable(state, card):
    if card in services.SERVICE_CARDS:
        raise RuleError("illegal_card", {"card": card, "why": "service"})
    if card == decktet.EXCUSE:
        raise RuleError("illegal_card", {"card": card, "why": "excuse"})
    if card in state["played"]:
        raise RuleError("illegal_card", {"card": card, "why": "played"})


def _reveal(state, act, emit):
    cards = act["cards"]
    for seat in range(len(cards)):
        _playable(state, cards[seat])
        if cards[seat] in cards[:seat]:
            raise RuleError("illegal_card", {"card": cards[seat], "why": "twice"})
    for seat in range(len(cards)):
        emit({"t": "played", "seat": seat, "card": cards[seat]})
    for service, seat, why in services.adjudicate(cards, state["control"], state["scores"]):
        emit({"t": "control", "service": service, "seat": seat, "why": why})
    _start_b(state, emit)


def _start_b(state, emit):
    queue = []
    for service in services.ORDER:
        seat = state["control"][service]
        if seat is not None:
            queue.append([seat, service])
    emit({"t": "step", "step": "B", "queue": queue})
    advance(state, emit)


def _actor(state, act):
    seat, service = state["queue"][0]
    if act.get("seat", seat) != seat:
        raise RuleError("not_your_turn", {"seat": seat, "asked": act["seat"]}, [seat])
    return seat, service


def _help(state, act, seat, service):
    """How this solve is helped: "service" (step B), "excuse" or "none" (step C)."""
    if state["step"] == "B":
        if act.get("excuse"):
            raise RuleError("bad_excuse", {"why": "has_service", "seat": seat})
        return "service"
    if act.get("excuse"):
        if state["excuse"] != seat:
            raise RuleError("bad_excuse", {"why": "not_holder", "seat": seat, "holder": state["excuse"]})
        return "excuse"
    return "none"


def _check_problem(state, p):  # p is a problem (0..seats: the schema's seats_max)
    if state["solved"][p] != "":
        raise RuleError("problem_solved", {"problem": p, "how": state["solved"][p], "open": open_problems(state)},
                        open_problems(state))


def _check_cards(state, cards, seat, help_):
    for card in cards:
        _playable(state, card)
    if help_ == "service":
        mine = services.controlled_by(state["control"], seat)
        for card in cards:
            if not solving.suits_ok(card, mine):
                raise RuleError("wrong_suit", {"card": card, "seat": seat, "services": mine})


def _solve(state, act, emit, part):
    _check_step(state, ("B", "C"), "solving")
    seat, service = _actor(state, act)
    help_ = _help(state, act, seat, service)
    p = act["problem"]
    _check_problem(state, p)
    dice = state["problems"][p]
    if part:
        if help_ == "none":
            raise RuleError("no_part_without_help", {"seat": seat})
        cards = [act["card"]]
        _check_cards(state, cards, seat, help_)
        if not solving.part_ok(cards[0], dice):
            raise RuleError("too_high", {"card": cards[0], "value": solving.card_value(cards[0], dice),
                                         "problem": p, "dice": dice})
        points = solving.part_points(dice)
        aside = act["aside"]
    else:
        cards = act["cards"]
        _check_cards(state, cards, seat, help_)
        total = 0
        for card in cards:
            total += solving.card_value(card, dice)
        need = solving.whole_need(dice, help_)
        if total < need:
            raise RuleError("too_low", {"total": total, "problem": p, "dice": dice, "need": need, "help": help_})
        points = solving.whole_points(dice)
        aside = -1
    emit({"t": "solve", "seat": seat, "problem": p, "cards": cards, "part": part, "aside": aside,
          "points": points, "help": help_})
    if help_ == "excuse":  # L104: used, it passes to the seat on the left
        emit({"t": "excuse", "seat": (seat + 1) % state["settings"]["players"], "why": "used"})
    advance(state, emit)


def _pass(state, act, emit):
    _check_step(state, ("B", "C"), "passing")
    seat, service = _actor(state, act)
    abdicate = act.get("abdicate", False)
    if abdicate and state["step"] != "B":
        raise RuleError("bad_abdicate", {"seat": seat})
    emit({"t": "pass", "seat": seat, "abdicate": service if abdicate else None})
    advance(state, emit)


_EFFECTS = tuple(["score", "die", "service"])


def decide(state, act, emit):
    kind = act["type"]
    if state["step"] == "over":
        raise RuleError("game_over", {"now": situation(state)})
    if kind in _EFFECTS:  # a correction or house rule (effects.py)
        if effects.apply(state, act, emit):
            advance(state, emit)
    elif kind == "roll":
        _check_step(state, ("roll",), "rolling")
        _roll(state, act, emit)
    elif kind == "reveal":
        _check_step(state, ("A",), "revealing control cards")
        _reveal(state, act, emit)
    elif kind == "assign":
        _check_step(state, ("A",), "assigning control")
        for service in services.ORDER:
            emit({"t": "control", "service": service, "seat": act[service], "why": "assigned"})
        _start_b(state, emit)
    elif kind == "solve":
        _solve(state, act, emit, False)
    elif kind == "solve_part":
        _solve(state, act, emit, True)
    elif kind == "pass":
        _pass(state, act, emit)
    elif kind == "excuse":
        if not state["settings"]["extended"]:
            raise RuleError("no_excuse", {})
        emit({"t": "excuse", "seat": act["holder"], "why": "drawn"})
