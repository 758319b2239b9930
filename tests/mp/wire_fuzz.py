"""Fuzz the link's frame reader, the same cases on CPython and on MicroPython.

    micropython wire_fuzz.py [--cases N] [--seed S]
    micropython wire_fuzz.py --lines FILE

Every case is drawn from shared_rules.prng, so both interpreters build the same
bytes: a valid frame of some kind with a random body (strings with control
characters, quotes, backslashes and non-ASCII), then mutated: bit flips,
truncations, insertions and deletions of random bytes, splices of two frames,
fields changed inside valid JSON (with the old CRC or a new one), lines of
random bytes, lines far over MAX_FRAME, or no change at all. The case goes to
one wire.Reader in random chunks, followed by a newline and a valid sentinel
frame. Each case must end with the reader idle and the sentinel decoded
whole (a bad line never swallows the next), every frame decoded from a case
must be the one its bytes were made from (anything else is a CRC collision,
counted), an unchanged frame must decode and an overlong line must give
exactly one too_long.

Prints the count of each outcome (decode error codes; "same": decoded to the
frame it was made from; "other": decoded to anything else), the number of
failed cases and a CRC of every outcome in order, which the test compares
between the interpreters. Exit status 1 if a case failed or a frame other
than its own got through.

--lines FILE decodes each line of FILE and prints "ok " and its re-encoding,
or "err " and the error code: the test's fixed cases, on both interpreters.
MicroPython-safe: no floats, no dict order, no random.
"""

import binascii
import sys

from shared_rules import canon, prng, wire

CASES = 10000
SEED = 1
POOL = 52  # base frames: every kind four times
HUGE_MAX = 20000
_ODD = b'"{}[]:,\\0123456789-tfn \x00\x03\x04\r\n\x7f\x80\xff'
_CHARS = ('"', "\\", "/", "\x00", "\x03", "\x04", "\x1b", "\x7f", "\n", "\r", "\t", "\u00e9", "\u20ac", "\u2028",
          "\U0001f600", "\ufeff", "c", "k", "n", ":", ",", "{", "]")


class Rand:
    """The fuzzer's choices: xorshift32 from the core, so both interpreters draw alike."""

    def __init__(self, seed):
        self.s = prng.seed_state(seed)

    def below(self, n):
        v, self.s = prng.draw(self.s, n)
        return v

    def pick(self, items):
        return items[self.below(len(items))]

    def blob(self, n):
        out = bytearray(n)
        for i in range(n):
            out[i] = self.below(256)
        return bytes(out)


def text(r, longest):
    out = []
    for _ in range(r.below(longest + 1)):
        if r.below(3) == 0:
            out.append(r.pick(_CHARS))
        else:
            out.append(chr(0x61 + r.below(26)))
    return "".join(out)


def value(r, depth):
    t = r.below(8 if depth < 3 else 5)
    if t == 0:
        return r.below(2001) - 1000
    if t == 1:
        return (r.below(1 << 30) * r.below(1 << 30)) * (1 if r.below(2) else -1)  # beyond 32 bits
    if t == 2:
        return r.pick((True, False, None))
    if t in (3, 4):
        return text(r, 12)
    if t in (5, 6):
        return [value(r, depth + 1) for _ in range(r.below(4))]
    out = {}
    for _ in range(r.below(4)):
        out[text(r, 6)] = value(r, depth + 1)
    return out


def base_frame(r, kind):
    """(line bytes without newline, canonical text of the object without c)."""
    while True:
        body = {}
        for name in wire.fields(kind):
            body[name] = value(r, 1)
        if r.below(4) == 0:
            body["x" + text(r, 3)] = value(r, 2)  # fields beyond the table are carried along
        seq = r.below(wire.MAX_SEQ + 1)
        try:
            line = wire.encode(seq, kind, body)
        except wire.FrameError:  # too long: draw again
            continue
        obj = dict(body)
        obj["k"] = kind
        obj["n"] = seq
        return line[:-1].encode(), canon.encode(obj)


def _forge(r, obj):
    """obj changed inside valid JSON: bad n or k, a field gone, a field before c, not an object, too deep."""
    t = r.below(8)
    if t == 0:
        obj["n"] = r.pick((-1, wire.MAX_SEQ + 1, "7", True, None, [], 1 << 40))
    elif t == 1:
        obj["k"] = r.pick(("", 5, None, "zzz", "PING", []))
    elif t == 2:
        del obj[r.pick(("k", "n"))]
    elif t == 3:
        keys = sorted(k for k in obj if k not in ("k", "n"))
        if keys:
            del obj[r.pick(keys)]
    elif t == 4:
        obj[r.pick(("a", "b", "C", "_"))] = 1
    elif t == 5:
        return [obj["k"], obj["n"]]
    elif t == 6:
        deep = 0
        for _ in range(wire.MAX_DEPTH + r.below(4)):
            deep = [deep]
        obj["zz"] = deep
    else:
        obj["c"] = "00000000"  # a c of its own, so the real one is no longer first
    return obj


def mutate(r, pool):
    """(bytes of one case, canonical text a decoded frame must have, expected outcomes or None)."""
    line, orig = pool[r.below(len(pool))]
    n = len(line)
    op = r.below(16)
    if op <= 2:
        b = bytearray(line)
        for _ in range(1 + r.below(3)):
            b[r.below(n)] ^= 1 << r.below(8)
        return bytes(b), orig, None
    if op == 3:
        return line[:r.below(n)], orig, None
    if op == 4:
        return line[1 + r.below(n - 1):], orig, None
    if op == 5:
        at = r.below(n + 1)
        return line[:at] + r.blob(1 + r.below(8)) + line[at:], orig, None
    if op == 6:
        at = r.below(n)
        return line[:at] + line[at + 1 + r.below(8):], orig, None
    if op == 7:
        b = bytearray(line)
        for _ in range(1 + r.below(3)):
            b[r.below(n)] = _ODD[r.below(len(_ODD))]
        return bytes(b), orig, None
    if op == 8:
        other, other_text = pool[r.below(len(pool))]
        data = line[:r.below(n)] + other[r.below(len(other)):]
        return data, other_text if data == other else orig, None  # an empty head leaves the other frame whole
    if op == 9:
        return r.blob(1 + r.below(300)), orig, None
    if op == 10:
        block = r.blob(1 + r.below(64)).replace(b"\n", b"!")
        size = wire.MAX_FRAME + 2 + r.below(HUGE_MAX)
        return (block * (size // len(block) + 1))[:size], orig, ["too_long"]
    if op in (11, 12):
        obj = _forge(r, _parse_back(line))
        text0 = canon.encode(obj)
        if isinstance(obj, dict) and "c" not in obj:
            crc = canon.crc32_hex(text0) if op == 12 else line[6:14].decode()
            return ('{"c":"' + crc + '",' + text0[1:]).encode(), text0, None
        return text0.encode(), text0, None
    if op == 13:
        return line, orig, ["same"]
    if op == 14:
        return line + line, orig, ["too_long" if 2 * n > wire.MAX_FRAME else "not_json"]  # two objects, one line
    at = r.below(n - 1)
    b = bytearray(line)
    b[at], b[at + 1] = b[at + 1], b[at]
    return bytes(b), orig, None


def _parse_back(line):
    seq, kind, body = wire.decode(line)
    body["k"] = kind
    body["n"] = seq
    return body


def feed(reader, r, data, largest):
    out = []
    pos = 0
    while pos < len(data):
        step = 1 + r.below(largest)
        for item in reader.feed(data[pos:pos + step]):
            out.append(item)
        pos += step
    return out


def run(cases, seed, say):
    r = Rand(seed)
    names = [k[0] for k in wire.kinds()]
    pool = []
    for i in range(POOL):
        pool.append(base_frame(r, names[i % len(names)]))
    sentinel = wire.encode(wire.MAX_SEQ, wire.PING)
    reader = wire.Reader()
    counts = {}
    failed = 0
    crc = 0
    for case in range(cases):
        data, expect, want = mutate(r, pool)
        items = feed(reader, r, data + b"\n" + sentinel.encode(), 8192 if len(data) > wire.MAX_FRAME else 96)
        codes = []
        ok = bool(items) and items[-1] == (wire.MAX_SEQ, wire.PING, {}) and reader.idle()
        for item in items[:-1]:
            if isinstance(item, wire.FrameError):
                codes.append(item.code)
                continue
            obj = dict(item[2])
            obj["k"] = item[1]
            obj["n"] = item[0]
            codes.append("same" if canon.encode(obj) == expect else "other")
        if want is not None and codes != want:
            ok = False
        for code in codes:
            counts[code] = counts.get(code, 0) + 1
            crc = binascii.crc32(code.encode(), crc)
        crc = binascii.crc32(b"|", crc)
        if not ok:
            failed += 1
            if failed <= 5:
                say("FAIL case %d: %r -> %s" % (case, data[:120], canon.encode(codes)))
    for code in sorted(counts):
        say("%s %d" % (code, counts[code]))
    say("cases %d failed %d outcomes %d crc %08x" % (cases, failed, sum(counts.values()), crc & 0xFFFFFFFF))
    return 1 if failed or counts.get("other") else 0


def lines(path, say):
    f = open(path, "rb")
    data = f.read()
    f.close()
    for line in data.split(b"\n"):
        if not line:
            continue
        try:
            seq, kind, body = wire.decode(line)
            say("ok " + wire.encode(seq, kind, body)[:-1])
        except wire.FrameError as e:
            say("err " + e.code + " " + ("-" if e.seq is None else str(e.seq)))


def _say(text):
    sys.stdout.write(text + "\n")


def main(argv, say=_say):
    cases = CASES
    seed = SEED
    i = 0
    while i < len(argv):
        if argv[i] == "--lines":
            lines(argv[i + 1], say)
            return 0
        if argv[i] == "--cases":
            cases = int(argv[i + 1])
        elif argv[i] == "--seed":
            seed = int(argv[i + 1])
        i += 2
    return run(cases, seed, say)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
