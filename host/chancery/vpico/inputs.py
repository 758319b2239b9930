"""Buttons and the encoder as level changes on pins, in board time (what the chip's `pins` takes).

A press is a list of (offset_ns, pin, level) steps: the contact bounces as it closes, the
button is held, and it bounces again as it opens. Offsets are from the moment the press starts.
"""

# Contact bounce of a small tactile switch: (offset_us, closed) pairs after each edge; the last
# pair leaves the contact as the edge meant. Mirrored (closed -> open) when the button is let go.
BOUNCE = ((0, True), (90, False), (210, True), (480, False), (620, True))
# One detent of a quadrature encoder (steps_per_detent 4), as (A, B) levels from rest (both
# contacts open: high): clockwise A closes first. firmware/buttons.py's Encoder counts this as +1
# (the table's right, as tests/fakes/drive_board.py turns it).
CLOCKWISE = ((0, 1), (0, 0), (1, 0), (1, 1))
ANTICLOCKWISE = ((1, 0), (0, 0), (0, 1), (1, 1))


def press_steps(pin, active_low=True, hold_ms=80, bounce=BOUNCE):
    """The steps of one press of a button on `pin`, held for hold_ms after its first contact."""
    bounce = tuple(bounce or ((0, True),))
    if bounce[-1][1] is not True:
        raise ValueError(f"a press's bounce must end with the contact closed: {bounce!r}")
    hold_ns = int(hold_ms * 1e6)
    last = bounce[-1][0] * 1000
    if hold_ns <= last:
        raise ValueError(f"hold_ms={hold_ms} is shorter than the bounce ({bounce[-1][0]} us)")

    def level(closed):
        return 0 if closed == active_low else 1

    steps = [(us * 1000, pin, level(closed)) for us, closed in bounce]
    steps += [(hold_ns + us * 1000, pin, level(not closed)) for us, closed in bounce]
    return steps


def quadrature(a, b, detents, step_ms=2.0, active_low=True):
    """The steps of turning an encoder by `detents` (positive: clockwise), a contact change every step_ms."""
    seq = CLOCKWISE if detents > 0 else ANTICLOCKWISE
    steps, t = [], 0
    for _ in range(abs(detents)):
        for la, lb in seq:
            t += int(step_ms * 1e6)
            if not active_low:
                la, lb = 1 - la, 1 - lb
            steps += [(t, a, la), (t, b, lb)]
    return steps
