"""Chancellors' decisions: validate an action, emit its events, run the turn on.

Each `decide` checks the action against the rules first and raises RuleError
before emitting anything that depends on a failed check; the engine works on a
copy, so a refused action changes nothing. Turn order (L29): A control, B
solve with control, C solve without help, D escalate, E draw.
"""

from shared_rules import decktet, prng
from shared_rules.chancellors import services, solving
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
            raise RuleError("bad_roll", "a %s roll needs the values read from the dice (%d of them)" % (
                source, len(pending)))
        rng = state["rng"]
        values = []
        for _ in pending:
            v, rng = prng.die(rng)
            values.append(v)
    else:
        if source == "board":
            raise RuleError("bad_roll", "the board rolls its own dice: give no values, or say source "
                            "\"manual\" (a physical die) or \"smart\" (a smart die)")
        if len(values) != len(pending):
            raise RuleError("bad_roll", "%d dice to roll (%s), got %d values" % (
                len(pending), _slots(pending), len(values)))
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


def _slots(pending):
    return ", ".join(["problem %d die %d" % (p, d) for p, d in pending])


def _check_step(state, wanted, what):
    step = state["step"]
    if step not in wanted:
        raise RuleError("wrong_step", "%s is not possible now: %s" % (what, describe_step(state)))


def describe_step(state):
    step = state["step"]
    if step == "over":
        return "the game is over"
    if step == "roll":
        n = len(state["pending"])
        return "%d %s waiting to be rolled (%s)" % (n, "die is" if n == 1 else "dice are", _slots(state["pending"]))
    if step == "A":
        return "step A: the cards played for control must be revealed (reveal) or control assigned (assign)"
    seat, service = state["queue"][0]
    if step == "B":
        return "step B: seat %d's chance with the %s (solve, solve_part or pass)" % (
            seat, services.TITLE[service])
    return "step C: seat %d's chance to solve without help (solve or pass)" % seat


def _playable(state, card):
    if card in services.SERVICE_CARDS:
        raise RuleError("illegal_card", "%s is a royal service card, not in play (L23)" % card)
    if card == decktet.EXCUSE:
        raise RuleError("illegal_card", "the Excuse is not played as a card; it lies in front of its "
                        "holder (record it with the excuse action)")
    if card in state["played"]:
        raise RuleError("illegal_card", "%s was already played this turn" % card)


def _reveal(state, act, emit):
    cards = act["cards"]
    for seat in range(len(cards)):
        _playable(state, cards[seat])
        if cards[seat] in cards[:seat]:
            raise RuleError("illegal_card", "%s is played by two seats; each card exists once" % cards[seat])
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
        raise RuleError("not_your_turn", "it is seat %d's chance, not seat %d's" % (seat, act["seat"]), [seat])
    return seat, service


def _help(state, act, seat, service):
    """How this solve is helped: "service" (step B), "excuse" or "none" (step C)."""
    if state["step"] == "B":
        if act.get("excuse"):
            raise RuleError("bad_excuse", "the Excuse helps only a seat that controls no service (L104)")
        return "service"
    if act.get("excuse"):
        if state["excuse"] != seat:
            raise RuleError("bad_excuse", "seat %d does not hold the Excuse (%s)" % (
                seat, "nobody does" if state["excuse"] is None else "seat %d does" % state["excuse"]))
        return "excuse"
    return "none"


def _check_problem(state, p):
    if p >= len(state["problems"]):
        raise RuleError("bad_problem", "there are only %d problems (0 to %d)" % (
            len(state["problems"]), len(state["problems"]) - 1), open_problems(state))
    if state["solved"][p] != "":
        raise RuleError("problem_solved", "problem %d was already %s solved this turn; open problems: %s" % (
            p, "wholly" if state["solved"][p] == "full" else "partly",
            ", ".join([str(x) for x in open_problems(state)]) or "none"), open_problems(state))


def _check_cards(state, cards, seat, help_):
    for card in cards:
        _playable(state, card)
    if help_ == "service":
        mine = services.controlled_by(state["control"], seat)
        for card in cards:
            if not solving.suits_ok(card, mine):
                raise RuleError("wrong_suit", "%s shares no suit with a service seat %d controls (%s) (L49)" % (
                    decktet.label(card), seat, ", ".join([services.CARD[s] for s in mine])))


def _solve(state, act, emit, part):
    _check_step(state, ("B", "C"), "solving")
    seat, service = _actor(state, act)
    help_ = _help(state, act, seat, service)
    p = act["problem"]
    _check_problem(state, p)
    dice = state["problems"][p]
    if part:
        if help_ == "none":
            raise RuleError("no_part_without_help", "without a service (or the Excuse) only a whole problem "
                            "can be solved (L65)")
        cards = [act["card"]]
        _check_cards(state, cards, seat, help_)
        if not solving.part_ok(cards[0], dice):
            raise RuleError("too_high", "%s is worth %d on problem %d (%d-%d); a partial solve needs one card "
                            "worth at most the lower die, %d (L57)" % (
                                decktet.label(cards[0]), solving.card_value(cards[0], dice), p, dice[0], dice[1],
                                min(dice)))
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
            raise RuleError("too_low", "the cards add up to %d; problem %d (%d-%d) needs at least %d%s" % (
                total, p, dice[0], dice[1], need, " (twice the dice, without help: L65)" if help_ == "none" else ""))
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
        raise RuleError("bad_abdicate", "only a seat passing with a service in step B can abdicate (L61)")
    emit({"t": "pass", "seat": seat, "abdicate": service if abdicate else None})
    advance(state, emit)


def decide(state, act, emit):
    kind = act["type"]
    if state["step"] == "over":
        raise RuleError("game_over", "the game is over; %s" % describe_step(state))
    if kind == "roll":
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
            raise RuleError("no_excuse", "the Excuse is in the extended deck, which this game does not use "
                            "(setting extended)")
        emit({"t": "excuse", "seat": act["holder"], "why": "drawn"})
