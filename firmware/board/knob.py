"""The table's rotary encoder on its two pins (mpboard.py), read in the pins' IRQs.

Each edge of A or B runs edge() at once (a hard IRQ where the port has one), which
reads both levels and steps the quadrature state (buttons.Encoder). A detent it
completes is counted and wakes the scan, which delivers it as a press of the
table's left or right. The scan itself never reads the encoder's levels while
the IRQs are set: a redraw that keeps the scan away for tens of ms (a key's
entry) would lose the steps that came and went meanwhile (an encoder turned at
10 detents a second changes a contact every 25 ms).

edge() allocates nothing (a hard IRQ may not): ints, attribute stores, method
calls. Only the IRQ writes `turned` and only the scan writes `taken`, so neither
needs the IRQs off to read the other. Without IRQs (a test that calls the scan
itself), take() reads the levels as the scan used to.
"""

from firmware.buttons import Encoder


class Knob:
    def __init__(self, a, b, steps_per_detent=4):
        self.a, self.b = a, b
        self.enc = Encoder(a.value(), b.value(), steps_per_detent)  # built at rest
        self.turned = 0  # detents the IRQ counted, clockwise positive
        self.taken = 0  # ... of which the scan has delivered these
        self.wake = _nothing  # the scan's flag.set, once the IRQs are set
        self.listening = False

    def listen(self, wake, trigger):
        """Count detents in the pins' IRQs from now on; wake() after each one."""
        self.wake = wake
        self.listening = True
        for p in (self.a, self.b):
            try:
                p.irq(self.edge, trigger, hard=True)
            except TypeError:  # a port without hard pin IRQs: a soft one, scheduled soon after
                p.irq(self.edge, trigger)

    def edge(self, _pin):
        d = self.enc.update(self.a.value(), self.b.value())
        if d:
            self.turned += d
            self.wake()

    def take(self):
        """The detents since the last take, clockwise positive."""
        if not self.listening:
            return self.enc.update(self.a.value(), self.b.value())
        d = self.turned - self.taken
        self.taken += d
        return d


def _nothing():
    pass
