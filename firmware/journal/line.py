"""The journal's line format and the file helpers every part of the journal shares.

A line is TAG " " JSON " " CRC "\\n": TAG "h" (header), "s" (snapshot), "u" (undo), "n"
(names), a one-line file's own tag, or the entry's index; JSON canon's encoding; CRC the
CRC-32 of the bytes before the last space, as 8 hex digits. check() reads a line,
readline() reads one from a file in BUF pieces, loads() its JSON.
"""

import binascii
import json
import os

from shared_rules.compat import const

GAME = "game.jsonl"
SNAP = "snap.json"
MAX_LINE = 4096  # bytes; Chancellors' longest entry is under 1 KB
BUF = const(512)  # most entries fit: one write per line


class JournalError(Exception):
    """Bad or unusable journal: `code` (stable), `path`, `line` (1-based or None), `detail`."""

    def __init__(self, code, path, line=None, detail=""):
        where = path if line is None else "%s line %d" % (path, line)
        super().__init__("%s: %s%s" % (where, code, ": " + detail if detail else ""))
        self.code, self.path, self.line, self.detail = code, path, line, detail


class NoGame(JournalError):
    """No game under way: no game.jsonl, or its header was never completely written."""


def exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def replace(src, dst):  # MicroPython's rename replaces on littlefs and POSIX
    (os.replace if hasattr(os, "replace") else os.rename)(src, dst)


def remove(path):
    """Remove the file at path if it is there."""
    if exists(path):
        os.remove(path)


def sync(f):
    f.flush()  # MicroPython: on littlefs this commits the file
    if hasattr(os, "fsync"):
        os.fsync(f.fileno())  # CPython: to the disk, not only to the OS


def abandon(f):
    try:
        f.close()
    except Exception:
        pass  # the device is failing already: the first error is the one to report


def crc_hex(crc):
    """A line's CRC as it ends the line: binascii.crc32's value as 8 hex digits."""
    return "%08x" % (crc & 0xFFFFFFFF)


def whole(text):
    """A line's bytes, whole: `text` (its tag, a space, its JSON), a space, its CRC, a newline."""
    data = text.encode()
    return data + (" %s\n" % crc_hex(binascii.crc32(data))).encode()


def check(line):
    """(tag, json bytes, crc) of a line, or a str saying why it is bad."""
    n = len(line)
    if n < 13 or line[n - 1] != 0x0A or line[n - 10] != 0x20:
        return "bad_format"
    crc = crc_hex(binascii.crc32(memoryview(line)[:n - 10])).encode()
    if line[n - 9:n - 1] != crc:
        return "bad_crc"
    sp = line.find(b" ")
    return line[:sp], line[sp + 1:n - 10], crc.decode()


def readline(f):
    """The next line, read in BUF pieces: MicroPython's readline(n) allocates n bytes at
    once, and one large block is what a fragmented board heap lacks."""
    line = part = f.readline(BUF)
    while len(part) == BUF and part[-1] != 0x0A and len(line) <= MAX_LINE:
        part = f.readline(BUF)
        line += part
    return line


def loads(body, keys):
    """The object in body if it has `keys` (name: type), else None."""
    try:
        v = json.loads(body)
    except ValueError:  # both interpreters' JSON errors (and CPython's UnicodeDecodeError)
        return None
    for k in keys:
        if not isinstance(v, dict) or not isinstance(v.get(k), keys[k]):
            return None
    return v
