"""The link frames between board and host: one canonical JSON object per line.

    {"c":"1a2b3c4d","k":"ping","n":7}

`k` is the frame's kind, `n` the sender's sequence number, `c` the CRC-32 (8
lowercase hex digits) of the canonical encoding (shared_rules.canon) of the
object without `c`. Every body field name sorts after "c", so `c` is always
the first member and a line always starts with '{"c":"' and 8 hex digits and
'",': the CRC covers "{" followed by the line from byte 16, and a receiver
checks it on the bytes as they came, without re-encoding anything.

canon escapes every character outside printable ASCII, so a line holds bytes
0x20-0x7E and its newline only: never Ctrl-C (0x03, which would interrupt the
board's firmware) or Ctrl-D (0x04, which mpremote reads as end of output).
encode refuses anything that would break that.

decode accepts only canonical text: MicroPython's json.loads accepts much that
is not JSON ('01', '[1,]', '{"a" 1}'), so every parsed line is encoded again
and must come out byte for byte, and the same line gets the same answer on
both interpreters. Pure, no I/O; docs/protocol.md is the protocol.
"""

import binascii
import json

from shared_rules import canon
from shared_rules.compat import const

PROTO = const(1)            # protocol version, sent in hello and welcome
MAX_FRAME = const(1024)     # bytes of a line without its line ending
MAX_SEQ = const(0x3FFFFFFF)  # seq numbers stay small ints on a 32-bit board
MAX_DEPTH = const(10)       # nesting of lists and objects, the frame itself counted

# sent by the host
HELLO = "hello"
GET = "get"
ACT = "act"
PRESS = "press"
PING = "ping"
# sent by the board
WELCOME = "welcome"
ENTRY = "entry"
STATE = "state"
FRAME = "frame"
DISPLAY = "display"
ERROR = "error"
PONG = "pong"
OK = "ok"

# Each kind and the fields it carries (more are allowed and passed along); the
# first _HOST_KINDS are sent by the host, the rest by the board. One string:
# a tuple of these took 2.8 KB more of a board's heap, a tuple of strings
# 0.9 KB (64-bit unix port; MicroPython keeps each string of a constant tuple
# as an object of its own).
# The finished games a board keeps (pull, ack, kept, old: firmware/kept.py) have no constant
# here: each would be an identifier every boot interns, for frames only a catch-up sends.
_KINDS = ("hello proto|get i j|act seat move|press pad key hold|ping|pull id i j|ack id|"
          "welcome fw proto game settings len digest id|entry i move events digest|state len digest view|"
          "frame px|display lines|error re code message|pong re|ok re i|kept id left|old id i move events digest")
_HOST_KINDS = const(7)

# one message for every way a line fails to be canonical JSON: where each
# interpreter's json.loads gives up differs, the answer must not
_NOT_CANON = "not canonical JSON"
_HEAD = b'{"c":"'
_CRC_BRACE = binascii.crc32(b"{")  # the CRC runs over "{" + line[16:]


class FrameError(ValueError):
    """A line that is not a good frame, or a body encode refuses.

    code: too_long, not_json, not_object, no_kind, bad_seq, bad_crc,
    unknown_kind, bad_fields. seq: the frame's seq when it can be trusted (its
    CRC was good), else None. line: the bytes received, for a host's log.
    """

    def __init__(self, code, message, seq=None, line=None):
        super().__init__(code + ": " + message)
        self.code = code
        self.message = message
        self.seq = seq
        self.line = line


def fields(kind):
    """The fields a kind carries (a tuple), or None for an unknown kind. Found in place: splitting
    every kind's entry out of the table took most of a frame's encoding time on the chip."""
    if not isinstance(kind, str) or not kind or " " in kind or "|" in kind:
        return None
    k, at = _KINDS, 0
    while True:
        i = k.find(kind, at)
        if i < 0:
            return None
        end = i + len(kind)
        if (i == 0 or k.startswith("|", i - 1)) and (end == len(k) or k.startswith(" ", end) or k.startswith("|", end)):
            stop = k.find("|", end)
            return tuple(k[end:stop if stop >= 0 else len(k)].split())
        at = i + 1


def kinds():
    """[(kind, sender, fields)] for every kind; sender is "host" or "board"."""
    out = []
    items = _KINDS.split("|")
    for i in range(len(items)):
        words = items[i].split(" ")
        out.append((words[0], "host" if i < _HOST_KINDS else "board", tuple(words[1:])))
    return out


def next_seq(seq):
    return (seq + 1) & MAX_SEQ


def _seq_ok(seq):
    return isinstance(seq, int) and not isinstance(seq, bool) and 0 <= seq <= MAX_SEQ


def _too_deep(value, room):
    # recursion bounded by MAX_DEPTH, so a hostile '[[[[...' cannot exhaust a
    # board's C stack here or in canon (whose limit differs between ports)
    if isinstance(value, (list, dict)):
        if room == 0:
            return True
        for item in value.values() if isinstance(value, dict) else value:
            if _too_deep(item, room - 1):
                return True
    return False


def _frame(seq, kind, body):
    """The frame object, checked; raises FrameError."""
    if not _seq_ok(seq):
        raise FrameError("bad_seq", "seq must be an int 0..%d" % MAX_SEQ)
    need = fields(kind)
    if need is None:
        raise FrameError("unknown_kind", "no frame kind %r" % (kind,))
    if body is not None and not isinstance(body, dict):
        raise FrameError("bad_fields", "the body must be a dict")
    obj = dict(body) if body else {}
    for key in obj:
        # "c" must stay the first member, and k and n are the frame's own
        if not isinstance(key, str) or key <= "c" or key == "k" or key == "n":
            raise FrameError("bad_fields", "field names must sort after c and not be k or n: %r" % (key,))
    for name in need:
        if name not in obj:
            raise FrameError("bad_fields", "%s needs %s" % (kind, name))
    if _too_deep(obj, MAX_DEPTH):
        raise FrameError("bad_fields", "nested deeper than %d" % MAX_DEPTH)
    obj["k"] = kind
    obj["n"] = seq
    return obj


def encode(seq, kind, body=None):
    r"""One frame as a line (str, ending in "\n"); raises FrameError."""
    pieces = []
    write(seq, kind, body, pieces.append)
    return "".join(pieces)


def write(seq, kind, body, out):
    """Write one frame through out(str): the one encoder (encode joins it).

    The frame's text is made once by canon.encode (on a board, C's json.dumps), its CRC taken
    over it in C, and written in three pieces. A frame is at most MAX_FRAME bytes, a string the
    heap holds for a moment; the pure-Python encoder piece by piece, twice (a pass for the CRC,
    one to write), was most of a frame's time on the chip.
    Raises FrameError before anything is written; out None: only that check (a
    frame a board holds to write later must be one it can write)."""
    obj = _frame(seq, kind, body)
    try:
        text = canon.encode(obj)
    except TypeError as e:  # floats, bytes, non-string keys
        raise FrameError("not_json", str(e))
    obj = None
    if not canon.printable(text):  # canon escapes these; never let one through
        raise FrameError("not_json", "a byte outside printable ASCII")
    if len(text) + 15 > MAX_FRAME:
        raise FrameError("too_long", "%d bytes, at most %d (send entries one per frame)" % (len(text) + 15, MAX_FRAME))
    if out is None:
        return
    # the CRC runs over the object's text, whose "{" opens the line before the CRC member
    out('{"c":"%s",' % canon.crc32_hex(text))
    out(text[1:])
    out("\n")


def _nesting(raw):
    """The deepest nesting of lists and objects in the bytes `raw`, strings skipped."""
    depth = top = 0
    quoted = escaped = False
    for c in raw:
        if quoted:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:
                quoted = False
        elif c == 0x22:
            quoted = True
        elif c == 0x5B or c == 0x7B:  # [ {
            depth += 1
            if depth > top:
                top = depth
        elif c == 0x5D or c == 0x7D:
            depth -= 1
    return top


def decode(line):
    """(seq, kind, body) from one line (str or bytes, line ending optional).

    Raises FrameError. Checks, in order: length (before parsing anything),
    printable ASCII, JSON, nesting, canonical form, object, k, n, CRC, kind,
    fields. body is the object without k, n and c.
    """
    raw = line.encode() if isinstance(line, str) else bytes(line)
    if raw[-1:] == b"\n":
        raw = raw[:-1]
    if raw[-1:] == b"\r":  # a board's stdout or a tty may send \r\n
        raw = raw[:-1]
    if len(raw) > MAX_FRAME:
        raise FrameError("too_long", "%d bytes, at most %d" % (len(raw), MAX_FRAME))
    if not raw or min(raw) < 0x20 or max(raw) > 0x7E:
        raise FrameError("not_json", "not a line of printable ASCII", line=raw)
    # deep nesting is refused from the bytes, before json.loads: MicroPython's parser keeps a stack
    # per level and ran a board's heap out (a board fault) on a 300-deep line with a good CRC
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH and _nesting(raw) > MAX_DEPTH:
        raise FrameError("not_json", "nested deeper than %d" % MAX_DEPTH, line=raw)
    try:
        obj = json.loads(raw)
    except (ValueError, RuntimeError):  # RuntimeError: CPython's RecursionError
        raise FrameError("not_json", _NOT_CANON, line=raw)
    try:
        text = canon.encode(obj)
    except TypeError:
        raise FrameError("not_json", _NOT_CANON, line=raw)
    if text.encode() != raw:
        raise FrameError("not_json", _NOT_CANON, line=raw)
    if not isinstance(obj, dict):
        raise FrameError("not_object", "not a JSON object", line=raw)
    kind = obj.get("k")
    if not isinstance(kind, str) or not kind:
        raise FrameError("no_kind", "no k (kind)", line=raw)
    seq = obj.get("n")
    if not _seq_ok(seq):
        raise FrameError("bad_seq", "n must be an int 0..%d" % MAX_SEQ, line=raw)
    crc = "%08x" % (binascii.crc32(memoryview(raw)[16:], _CRC_BRACE) & 0xFFFFFFFF)
    if raw[:16] != _HEAD + crc.encode() + b'",':
        raise FrameError("bad_crc", "CRC is not " + crc, line=raw)
    need = fields(kind)
    if need is None:
        raise FrameError("unknown_kind", "no frame kind " + kind, seq, raw)
    del obj["c"]
    del obj["k"]
    del obj["n"]
    for name in need:
        if name not in obj:
            raise FrameError("bad_fields", "%s needs %s" % (kind, name), seq, raw)
    return seq, kind, obj


class Reader:
    """Frames from bytes as they arrive, in chunks of any size.

    feed(chunk) yields, for each line the chunk completes, (seq, kind, body)
    or a FrameError; consume it fully before the next feed. Lines are
    gathered in one buffer allocated here: a line longer than MAX_FRAME is
    reported once as too_long and dropped up to its newline, so a runaway
    sender costs no memory. Blank lines are skipped; any other line that is
    not a frame (a traceback on the board's stdout) is a not_json error with
    the line attached, and reading goes on.
    """

    def __init__(self):
        self._buf = bytearray(MAX_FRAME + 1)  # room for a "\r" before the newline
        self._mv = memoryview(self._buf)
        self._n = 0
        self._skip = False

    def idle(self):
        """True between lines: nothing half-read, nothing being dropped."""
        return self._n == 0 and not self._skip

    def feed(self, data):
        if isinstance(data, str):
            data = data.encode()
        elif not isinstance(data, (bytes, bytearray)):
            data = bytes(data)  # memoryview has no find
        src = memoryview(data)
        room = len(self._buf)
        size = len(data)
        pos = 0
        while pos < size:
            nl = data.find(b"\n", pos)
            end = size if nl < 0 else nl
            if self._skip:
                self._skip = nl < 0
            elif self._n + end - pos > room:
                self._n = 0
                self._skip = nl < 0
                yield FrameError("too_long", "a line over %d bytes, dropped" % MAX_FRAME)
            else:
                n = self._n + end - pos
                self._mv[self._n:n] = src[pos:end]
                self._n = n
                if nl >= 0:
                    self._n = 0
                    if n and not (n == 1 and self._buf[0] == 0x0D):
                        try:
                            item = decode(bytes(self._mv[:n]))
                        except FrameError as e:
                            item = e
                        except MemoryError:  # a board short of RAM: this line is lost, not the link
                            item = FrameError("no_memory", "no room to read this line")
                        yield item
            if nl < 0:
                break
            pos = nl + 1
