"""The host's end of the link to a virtual Pico, for tests that cut its power.

Frames go out on the board's USB serial (vp.port) as chancery.board.link sends them, and every
frame that comes back goes to one handler (ENTRY frames are the host's acknowledgements).
A wait gives up with PowerCut as soon as the chip reports a power cut, so a test can arm a
cut at a random instant and carry on as if nothing were coming.
"""

import time

import serial

from shared_rules import wire


class PowerCut(Exception):
    """The virtual Pico's power went while the host waited: `event` is the chip's cut event."""

    def __init__(self, event):
        super().__init__("power cut at %d ns (torn: %r)" % (event["t"], event.get("torn")))
        self.event = event


class ChipLink:
    """One serial session with the board on a VirtualPico. handle(seq, kind, body) hears every
    frame, in order; noise keeps the last lines that were not frames (a traceback)."""

    def __init__(self, vp, handle):
        self.vp = vp
        self.handle = handle
        self.ser = serial.Serial(vp.port, 115200, timeout=0)
        self.reader = wire.Reader()
        self.seq = 0
        self.noise = []
        self.cuts_seen = len(vp.cuts)

    def close(self):
        self.ser.close()

    def send(self, kind, body=None):
        self.seq = wire.next_seq(self.seq)
        self.ser.write(wire.encode(self.seq, kind, body).encode())
        return self.seq

    def fresh(self):
        """Forget a half-read line (the power went in the middle of one)."""
        self.reader = wire.Reader()

    def new_cut(self):
        """The chip's first cut event the link has not reported yet, or None."""
        cuts = self.vp.cuts
        if len(cuts) > self.cuts_seen:
            self.cuts_seen += 1
            return cuts[self.cuts_seen - 1]
        return None

    def pump(self):
        """Hand every frame that has arrived to the handler; True if bytes came."""
        waiting = self.ser.in_waiting
        if not waiting:
            return False
        for item in self.reader.feed(self.ser.read(waiting)):
            if isinstance(item, wire.FrameError):
                self.noise = (self.noise + [item.line or str(item)])[-20:]
            else:
                self.handle(*item)
        return True

    def wait(self, ready, timeout, what):
        """Pump frames until ready() is true; raises PowerCut if the power goes first."""
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            if ready():
                return
            cut = self.new_cut()
            if cut is not None:
                raise PowerCut(cut)
            if not self.vp.alive():
                raise AssertionError("the virtual Pico stopped while waiting for %s: %s" % (
                    what, self.vp.log_text()[-1500:]))
            if time.monotonic() > deadline:
                raise AssertionError("no %s within %d s; the board's last lines that were not frames: %r" % (
                    what, timeout, self.noise[-5:]))
            time.sleep(0.003)

    def drain(self, quiet=0.25):
        """After a cut: take what the board had sent before it, until the line has been quiet
        for `quiet` s (the chip reports a cut on another pipe than its serial's)."""
        last = time.monotonic()
        while time.monotonic() - last < quiet:
            if self.pump():
                last = time.monotonic()
            time.sleep(0.005)
