"""A fake `machine` for driving the board backends off the board (tests only).

Runs under CPython and the MicroPython unix port; there it shadows the port's
own `machine` (a file on the path wins over that built-in), and Pin subclasses
umachine.PinBase, so it is a real pin object to MicroPython's C code too.

Tests set the level of a GPIO in LEVELS; a pin nobody set reads as its pull
would leave it (pull-up: 1). Every Pin made and every I2C write is recorded.
"""

try:
    from umachine import PinBase
except ImportError:  # CPython
    PinBase = object

LEVELS = {}  # GPIO -> level the test applies
DEVICES = []  # I2C addresses that answer a scan
MADE = []  # every Pin constructed, in order
WRITES = []  # every I2C write: (address, bytes)
STRIPS = {}  # GPIO -> the fake NeoPixel driven from it (neopixel.py's)


class Irq:
    """A pin's irq object: flags() are the edges latched since its handler last ran (the rp2's
    flags; tests set `latched`)."""

    def __init__(self):
        self.latched = 0

    def flags(self):
        return self.latched


class Pin(PinBase):
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1):
        self.id = id
        self.mode = mode
        self.pull = pull
        self._irq = Irq()
        MADE.append(self)

    def irq(self, handler=None, trigger=None, hard=False):
        return self._irq

    def value(self, v=None):
        if v is None:
            return LEVELS.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
        LEVELS[self.id] = v
        return None


class I2C:
    def __init__(self, id, sda=None, scl=None, freq=400000):
        self.id, self.sda, self.scl, self.freq = id, sda, scl, freq

    def scan(self):
        return list(DEVICES)

    def writeto(self, addr, buf, stop=True):
        WRITES.append((addr, bytes(buf)))
        return len(buf)

    def writevto(self, addr, bufs, stop=True):
        data = b"".join(bytes(b) for b in bufs)
        WRITES.append((addr, data))
        return len(data)


class _Mem32:
    """machine.mem32 for the one word the rp2 backend reads: the SIO's GPIO_IN (bit n, GPIO n's
    level: LEVELS, else the pull of the pin made on it)."""

    def __getitem__(self, addr):
        if addr != 0xD0000004:
            raise ValueError("fake mem32: no register at 0x%x" % addr)
        word = 0
        for p in MADE:
            if p.id < 30 and LEVELS.get(p.id, 1 if p.pull == Pin.PULL_UP else 0):
                word |= 1 << p.id
        return word


mem32 = _Mem32()


def unique_id():
    return b"\xde\xad\xbe\xef\x01\x02\x03\x04"


def bitstream(pin, encoding, timing, buf):
    """As the port's: buf's bits out on the pin. The fake strip there takes them as a WS2812
    chain does: the LEDs the frame reaches take its colours, those past its end keep theirs."""
    STRIPS[pin.id].took(bytes(buf))
