"""The core's own PRNG, so one seed gives the same dice on every interpreter.

MicroPython's `random` is another generator than CPython's, and the rules core
must not hide chance behind a module anyway: the generator's whole state is one
int kept in the game state, every step is a pure function of it, and each value
drawn becomes an event. xorshift32 (Marsaglia 2003): tiny, fast on 32-bit
ports, and good enough for dice (draws are unbiased by rejection).
"""

_MASK = 0xFFFFFFFF


def seed_state(seed):
    """A valid (non-zero, 32-bit) generator state from any int seed."""
    s = (seed ^ 0x9E3779B9) & _MASK
    # mix once so that nearby seeds give unrelated first draws
    s = ((s ^ (s >> 16)) * 0x45D9F3B) & _MASK
    s = ((s ^ (s >> 16)) * 0x45D9F3B) & _MASK
    s ^= s >> 16
    return s or 0x6D2B79F5


def next_state(s):
    s ^= (s << 13) & _MASK
    s ^= s >> 17
    s ^= (s << 5) & _MASK
    return s


def draw(s, n):
    """(value in 0..n-1, next state); rejection sampling keeps it unbiased."""
    limit = (_MASK + 1) - ((_MASK + 1) % n)
    while True:
        s = next_state(s)
        if s < limit:
            return s % n, s


def die(s, sides=6):
    """(face in 1..sides, next state)."""
    value, s = draw(s, sides)
    return value + 1, s


def dice(s, n, sides=6):
    """([n faces in 1..sides], next state): a roll of n dice, in order."""
    faces = []
    for _ in range(n):
        v, s = die(s, sides)
        faces.append(v)
    return faces, s
