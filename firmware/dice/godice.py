"""The GoDice protocol (Particula's GoDice), bytes only: it runs under MicroPython and CPython.

A die offers the Nordic UART service: it notifies on RX and takes commands on TX. Its
messages, as the maker's Python API (the `godice` package on PyPI, godice/dice.py) reads them:
  b"R"                    rolling
  b"S" x y z              stable after a roll; x, y, z signed bytes, the accelerometer's axes
  b"FS" x y z             "fake stable": at rest again, not from a roll (a short shake)
  b"MS" x y z             "move stable": at rest again after being moved by hand
  b"TS" x y z             "tilt stable": at rest, but not flat
  b"Bat" level            battery percent
  b"Col" code             the pips' colour, COLOURS[code]
The face up is the shell's face whose vector is nearest (x, y, z) (godice/xyzinterpret.py
has the maker's vectors; the tables below are written from them, as integers). A D6 reads
its own vectors; D20, D10 and D10X the D20's; D4, D8 and D12 a 24-vector table, then the
face printed on that shell.
"""

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
TX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"  # commands to the die (write)
RX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"  # its messages (notify)
NAME_PREFIX = "GoDice"  # what a GoDice advertises as its name

SHELLS = ("D6", "D20", "D10", "D10X", "D4", "D8", "D12")  # the maker's shell numbers, in order
COLOURS = ("black", "red", "green", "blue", "yellow", "orange")

# Vectors, x y z after each other for the face 1, 2, 3..., each axis + 64 as a byte (bytes
# stay in flash when frozen; a tuple of ints is built in RAM)
_D6 = b"\x00\x40\x40\x40\x40\x80\x40\x80\x40\x40\x00\x40\x40\x40\x00\x80\x40\x40"
_D20 = (b"\x00\x40\x2a\x6a\x16\x68\x40\x56\x00\x40\x56\x80\x16\x16\x6a\x56\x80\x40\x16\x16\x16\x80\x40\x2a"
        b"\x2a\x80\x40\x6a\x16\x16\x16\x6a\x6a\x56\x00\x40\x00\x40\x56\x6a\x6a\x6a\x2a\x00\x40\x6a\x6a\x16"
        b"\x40\x2a\x00\x40\x2a\x80\x16\x6a\x16\x80\x40\x56")
_D24 = (b"\x54\x04\x2c\x54\x40\x7c\x18\x18\x68\x04\x40\x54\x68\x54\x68\x2c\x04\x2c\x54\x7c\x54\x18\x54\x18"
        b"\x18\x68\x68\x2c\x40\x7c\x2c\x04\x54\x7c\x40\x54\x04\x40\x2c\x54\x7c\x2c\x54\x40\x04\x68\x2c\x18"
        b"\x2c\x7c\x2c\x18\x18\x18\x68\x2c\x68\x54\x04\x54\x7c\x40\x2c\x68\x54\x18\x2c\x40\x04\x2c\x7c\x54")
# What a shell prints on the face its table found (index: that face - 1)
_ON_D10 = b"\x08\x02\x06\x01\x04\x03\x09\x00\x07\x05\x05\x07\x00\x09\x03\x04\x01\x06\x02\x08"
_ON_D4 = b"\x03\x01\x04\x01\x04\x04\x01\x04\x02\x03\x01\x01\x01\x04\x02\x03\x03\x02\x02\x02\x04\x01\x03\x02"
_ON_D8 = b"\x03\x03\x06\x01\x02\x08\x01\x01\x04\x07\x05\x05\x04\x04\x02\x05\x07\x07\x08\x02\x08\x03\x06\x06"


def _nearest(table, x, y, z):
    """The face (1..) whose vector is nearest (x, y, z), by squared distance (ints only)."""
    best, best_d = 0, -1
    for i in range(0, len(table), 3):
        dx, dy, dz = x + 64 - table[i], y + 64 - table[i + 1], z + 64 - table[i + 2]
        d = dx * dx + dy * dy + dz * dz
        if best_d < 0 or d < best_d:
            best, best_d = i // 3 + 1, d
    return best


def face(shell, x, y, z):
    """The face up on a die in `shell` whose axes read x, y, z (signed). D10 reads 0-9,
    D10X 0-90 by tens, as printed; the others 1 to their sides."""
    if shell == "D6":
        return _nearest(_D6, x, y, z)
    if shell in ("D20", "D10", "D10X"):
        f = _nearest(_D20, x, y, z)
        if shell == "D20":
            return f
        return _ON_D10[f - 1] * (10 if shell == "D10X" else 1)
    if shell in ("D4", "D8", "D12"):
        f = _nearest(_D24, x, y, z)
        if shell == "D12":
            return (f - 1) % 12 + 1
        return (_ON_D4 if shell == "D4" else _ON_D8)[f - 1]
    raise ValueError("no GoDice shell %r (known: %s)" % (shell, ", ".join(SHELLS)))


def _signed(b):
    return b - 256 if b > 127 else b


class Reader:
    """One GoDice's messages as events (firmware/dice/__init__.py). `die` is its id (its
    address, or a name the table gave it), `shell` one of SHELLS."""

    def __init__(self, die, shell="D6"):
        face(shell, 0, 0, 0)  # an unknown shell is refused here, not at the first roll
        self.die = die
        self.shell = shell

    def feed(self, data):
        data = bytes(data)
        if data[:1] == b"R":
            return ("rolling", self.die)
        if data[:3] == b"Bat" and len(data) >= 4:
            return ("battery", self.die, data[3])
        if data[:3] == b"Col" and len(data) >= 4:
            return ("colour", self.die, COLOURS[data[3]] if data[3] < len(COLOURS) else "colour %d" % data[3])
        if data[:1] == b"S":
            kind, axes = "settled", data[1:4]
        elif data[1:2] == b"S" and data[:1] in (b"F", b"M"):
            kind, axes = "moved", data[2:5]
        elif data[:2] == b"TS":
            kind, axes = "tilted", data[2:5]
        else:
            return None
        if len(axes) < 3:
            return None
        return (kind, self.die, face(self.shell, _signed(axes[0]), _signed(axes[1]), _signed(axes[2])))

    def lost(self):
        return ("lost", self.die)


def ask_battery():
    """The command (to TX) that has the die answer with its battery (b"Bat" level). The other
    commands (LEDs, colour) are godice_commands.py's: a board reading dice sends only this."""
    return b"\x03"
