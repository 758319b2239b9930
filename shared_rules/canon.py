"""Canonical encoding: one byte-exact text form for digests and the wire.

MicroPython's json.dumps has no sort_keys and its dicts are unordered, so the
encoder is written here once: keys sorted, no spaces, ints/strings/bools/None
and lists/dicts only (floats are refused: they print differently on the two
interpreters). Non-ASCII characters are escaped so the bytes never depend on
the terminal or the port's UTF-8 handling.
"""

import binascii
import sys

# Builtins as this module's globals (hot loops: every digest, frame and entry): MicroPython
# looks a name up in the module's globals first, and on a Pico a builtin found there costs
# 1 us, against 9 us through the builtins' table (measured on the chip, stock v1.28 firmware)
from builtins import bool, dict, int, isinstance, len, list, range, sorted, str, tuple, type

_ESCAPES = {"\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


try:
    memoryview("")  # MicroPython: a str is a buffer of its UTF-8 bytes, no copy needed

    def _utf8(s):
        return memoryview(s)

except TypeError:  # CPython

    def _utf8(s):
        return s.encode("utf-8", "surrogatepass")  # a lone surrogate is escaped, not refused


def printable(s):
    """True when every character of s is printable ASCII (0x20-0x7E).

    Checked on its UTF-8 bytes, never one character at a time: MicroPython
    interns each one-character string it makes, and interned strings are
    never freed."""
    b = _utf8(s)
    return len(b) == 0 or (min(b) >= 0x20 and max(b) <= 0x7E)


def _plain(s):
    return printable(s) and '"' not in s and "\\" not in s


def _string(s, write):
    if _plain(s):  # the common case: the string whole, not one piece per character
        write('"')
        write(s)
        write('"')
        return
    write('"')
    for ch in s:
        esc = _ESCAPES.get(ch)
        if esc is not None:
            write(esc)
            continue
        code = ord(ch)
        if 0x20 <= code < 0x7F:
            write(ch)
        elif code < 0x10000:
            write("\\u%04x" % code)
        else:  # astral plane: a UTF-16 surrogate pair, as JSON requires
            code -= 0x10000
            write("\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
    write('"')


def _value(v, write):
    # bool before int: True is an int on CPython
    if v is None:
        write("null")
    elif v is True:
        write("true")
    elif v is False:
        write("false")
    elif isinstance(v, int):
        write(str(v))
    elif isinstance(v, str):
        _string(v, write)
    elif isinstance(v, (list, tuple)):
        write("[")
        first = True
        for item in v:
            if not first:
                write(",")
            first = False
            _value(item, write)
        write("]")
    elif isinstance(v, dict):
        # keys in sorted order, found one after another rather than by sorted(v): no list
        # to allocate, so encoding (every digest, every frame) needs no free block of
        # the dict's size on a fragmented board heap
        write("{")
        key = None
        for _ in range(len(v)):
            nxt = None
            for k in v:
                if not isinstance(k, str):
                    raise TypeError("canonical keys must be strings, not " + repr(k))
                if (key is None or k > key) and (nxt is None or k < nxt):
                    nxt = k
            if key is not None:
                write(",")
            key = nxt
            _string(key, write)
            write(":")
            _value(v[key], write)
        write("}")
    else:
        raise TypeError("cannot encode " + type(v).__name__ + " canonically (ints and strings only)")


def dump(value, write):
    """Write the canonical text of a value piece by piece (e.g. to a stream):
    no whole-text string, which on a fragmented board heap may not fit."""
    _value(value, write)


def _exact(value):
    out = []
    _value(value, out.append)
    return "".join(out)


_FAST = sys.implementation.name == "micropython"  # CPython: _value is the encoder

if _FAST:
    import json
    from collections import OrderedDict  # MicroPython's keeps insertion order, and json.dumps prints it so

    _SEP = tuple([",", ":"])

    def _refuse(tx):
        # what _value takes besides containers; anything else (floats, bytes, which
        # json.dumps would print) is refused here as _value refuses it
        raise TypeError("cannot encode " + tx.__name__ + " canonically (ints and strings only)")

    def _ordered(v):
        """v with every dict as an OrderedDict in key order (lists of scalars are v's own):
        then C's json.dumps prints the canonical text, 3-10x faster than _value on a Pico.
        The scalars' types are checked inline: a call per value cost more than the rest."""
        if type(v) is dict:
            o = OrderedDict()
            for k in sorted(v):
                if type(k) is not str:
                    raise TypeError("canonical keys must be strings, not " + repr(k))
                x = v[k]
                tx = type(x)
                if tx is dict or tx is list or tx is tuple:
                    x = _ordered(x)
                elif tx is not str and tx is not int and tx is not bool and x is not None:
                    _refuse(tx)
                o[k] = x
            return o
        out = None
        for i in range(len(v)):
            x = v[i]
            tx = type(x)
            if tx is dict or tx is list or tx is tuple:
                if out is None:
                    out = list(v)
                out[i] = _ordered(x)
            elif tx is not str and tx is not int and tx is not bool and x is not None:
                _refuse(tx)
        return v if out is None else out

    def encode(value):
        """The canonical text of a value (str)."""
        tv = type(value)
        if tv is dict or tv is list or tv is tuple:
            text = json.dumps(_ordered(value), separators=_SEP)
            # json.dumps escapes differently from _value (and prints non-ASCII raw): any
            # escape or byte outside printable ASCII takes the exact path instead. In C:
            # as many characters as bytes is ASCII, and json.dumps writes every byte
            # below 0x20 as an escape, so a backslash or a DEL is all that is left to find
            if len(text) == len(memoryview(text)) and "\\" not in text and "\x7f" not in text:
                return text
        return _exact(value)

else:
    encode = _exact


try:
    binascii.crc32("")  # MicroPython: a str is a buffer of its UTF-8 bytes, no copy needed

    def _crc32(text, crc):
        return binascii.crc32(text, crc)

except TypeError:  # CPython wants bytes

    def _crc32(text, crc):
        return binascii.crc32(text.encode(), crc)


def crc32_update(text, crc):
    """The running CRC-32 of text's UTF-8 bytes, continued from crc."""
    return _crc32(text, crc)


def crc32_hex(text):
    """CRC-32 of a str's UTF-8 bytes as 8 lowercase hex digits."""
    return "%08x" % (_crc32(text, 0) & 0xFFFFFFFF)


def digest(value):
    """The digest of a value: CRC-32 of its canonical encoding (encode's text, the CRC in C).
    Piece by piece, as the pure-Python encoder writes, it took 4-5x as long on the chip."""
    return crc32_hex(encode(value))


def chain(prev, action_text, events_text):
    """An entry's digest: the CRC-32 of the previous digest (or the match's start),
    then the entry's canonical action and events. Each entry's digest covers every
    entry before it, so an edited, dropped or reordered entry changes every digest
    after it; and it costs the entry's few hundred bytes, not the whole state."""
    crc = _crc32(prev, 0)
    crc = _crc32(action_text, crc)
    return "%08x" % (_crc32(events_text, crc) & 0xFFFFFFFF)


def copy(value):
    """A deep copy of a plain value (dicts, lists, ints, strings).

    Copies the container whole first (dict(value), list(value)) and then
    replaces the items: the new container is allocated once at its final
    size instead of growing, which a fragmented board heap cannot always do.
    """
    if isinstance(value, dict):
        out = dict(value)
        for key in out:
            item = out[key]
            if isinstance(item, (dict, list, tuple)):
                out[key] = copy(item)
        return out
    if isinstance(value, (list, tuple)):
        out = list(value)
        for i in range(len(out)):
            item = out[i]
            if isinstance(item, (dict, list, tuple)):
                out[i] = copy(item)
        return out
    return value
