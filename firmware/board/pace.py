"""The scan's timer on a board whose pins' IRQs wake its scan (mpboard.py): it wakes the scan
when no edge will, every IDLE_MS (the strip's phase), or sooner when a held button's long press
or a lockout's end is due (Buttons.settling; not every few ms through a hold: each wake
allocates).

A hold's long instant completes an input, as a tap's release does, and its entry is timed from
that instant. asyncio's sleep wakes up to a ms past its tick, and a flag's wake of the scan loop
costs half a ms more: so for what is due, the timer sleeps to a tick before it, waits out the
rest, and scans itself.
"""

import asyncio

from shared_rules.compat import const

IDLE_MS = const(100)  # the scan's timer at the most (a pin edge wakes it): the strip's phase
# how long before a due instant the timer wakes, to wait out the rest: asyncio's wake comes late
# by a tick, and by what another task (the host's link, a page of the display) runs meanwhile
_EARLY_MS = const(5)


async def run(buttons, flag, scan):
    """flag: the scan loop's (set: a scan soon, and the pieces that wait for one); scan(): one now."""
    clock = buttons.clock
    while True:
        left = buttons.settling(IDLE_MS) or IDLE_MS
        if left >= IDLE_MS:
            await asyncio.sleep_ms(left)
        else:
            due = clock.ticks_add(clock.ticks_ms(), left)
            if left > _EARLY_MS:
                await asyncio.sleep_ms(left - _EARLY_MS)
            while clock.ticks_diff(due, clock.ticks_ms()) > 0:
                pass  # the rest
            scan()
        flag.set()
