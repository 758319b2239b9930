"""The journal's raw flash log on the chip: stock RPI_PICO MicroPython on the virtual Pico.

The deployed firmware's Journal picks the raw log by itself on rp2 (firmware/journal/flash.py:
reservation files in littlefs, lines programmed through rp2.Flash()). A game is journalled
the board's way, each entry acknowledged on the serial once write() returned; the power is
cut in the middle of a flash program (the flash model tears it); the board boots on that
flash, mounts littlefs without a reformat, resumes every acknowledged entry (or one more),
and plays on past the torn line. Skips only when no UF2 is found.
"""

import os
import re
import sys
import time

import paths
import pytest
from chip_repl import RawRepl, mpremote
from conftest import needs_uf2

from chancery.vpico import VirtualPico, image
from shared_rules import canon

pytestmark = [needs_uf2, pytest.mark.slow(order=8)]

ROOT = paths.ROOT
sys.path.insert(0, os.path.join(ROOT, "tools", "chip"))

import make_log  # noqa: E402

# Journal the log's entries from FROM on, as the table does; "ack I" once each is on flash.
PLAY = """
import sys, json
sys.path.insert(0, '/lib')
from firmware.journal import Journal
from shared_rules import canon, engine
f = open('/log.jsonl')
hdr = json.loads(f.readline())
j = Journal('/chancery', 16)
print('store', type(j.flash).__name__, type(j.flash.store).__name__)
try:
    header, state, count = j.resume()
except Exception as e:
    if type(e).__name__ != 'NoGame':
        raise
    m = engine.new_match(hdr['game'], hdr['settings'], hdr['seed'])
    j.start({'format': m['format'], 'game': hdr['game'], 'settings': m['settings'], 'seed': hdr['seed'],
             'start': m['start']})
    state, count = m['state'], 0
print('resumed', count, j.cut, j.last)
n = 0
for line in f:
    if n >= count and n < UPTO:
        e = json.loads(line)
        act, events, state = engine.decide(hdr['game'], state, e['action'], True)
        a, ev = canon.encode(act), canon.encode(events)
        j.write(n, a, ev, canon.chain(j.last, a, ev))
        print('ack', n, j.last)
        if n == globals().get('HOLD', -1):
            sys.stdin.buffer.read(1)  # the host arms its cut for the next program, then lets go
        if j.due():
            j.snapshot(state)
        j.tidy()
    n += 1
print('done', j.count)
"""


def _rest(ser):
    """What is left to read on the serial line until it falls quiet or goes."""
    out = b""
    try:
        while True:
            got = ser.read(4096)
            if not got:
                return out
            out += got
    except Exception:  # the board's USB went with its power
        return out


def _play(vp, upto):
    return mpremote(vp.port, "exec", "UPTO = %d\n" % upto + PLAY, timeout=600)


def test_a_cut_during_an_entrys_program_loses_nothing_acknowledged(tmp_path):
    header, entries = make_log.make("chancellors", 5, 4, 40)
    log = "\n".join([canon.encode(header)] + [canon.encode(e) for e in entries]) + "\n"
    flash = str(tmp_path / "flash.img")
    image.deployed_image(flash, extra={"log.jsonl": log.encode()})
    with VirtualPico(flash=flash, pace="free") as vp:
        mpremote(vp.port, "rm", ":main.py")  # the script below is the board's table
        assert len(entries) >= 12
        out = _play(vp, 4)
        assert "store FlashLog LfsStore" in out and "done 4" in out, out
        repl = RawRepl(vp.port)
        try:
            repl.start("UPTO = %d\nHOLD = 7\n" % len(entries) + PLAY)
            said = repl.read_until(b"ack 7 ")
            # armed while the board waits after entry 7: the chip cannot run past the last
            # entry's programs before the cut is there to tear one (it did on a loaded machine)
            vp.arm_cut(during="program")
            repl.s.write(b"g")
            deadline = time.monotonic() + 120
            while not vp.cuts:
                assert time.monotonic() < deadline, "no cut within 120 s: %r" % (said + repl.pending)
                time.sleep(0.05)
            cut = vp.cuts[0]
            said += repl.pending + _rest(repl.s)  # every acknowledgement the board sent before the power went
        finally:
            repl.close()
        acked = [int(m) for m in re.findall(rb"ack (\d+) [0-9a-f]{8}\r?\n", said)]
        assert cut["torn"] and cut["torn"]["kind"] == "program", cut
        vp.boot()
        listing = mpremote(vp.port, "exec", "import os; print(sorted(os.listdir('/chancery')))")
        assert "res0.bin" in listing, listing  # littlefs mounted, not reformatted
        out = _play(vp, len(entries))
        resumed = re.search(r"resumed (\d+) (\d+) (\w+)", out)
        count = int(resumed.group(1))
        assert max(acked) + 1 <= count <= max(acked) + 2, (acked, out)
        assert resumed.group(3) == entries[count - 1]["digest"]
        assert "done %d" % len(entries) in out, out
        # the last of the acknowledgements before the cut matched the log, and so does the game after it
        for m in re.finditer(r"ack (\d+) (\w+)", out):
            assert m.group(2) == entries[int(m.group(1))]["digest"]
        out = _play(vp, len(entries))
        assert "resumed %d 0 %s" % (len(entries), entries[-1]["digest"]) in out, out


if __name__ == "__main__":
    pytest.main([__file__, "-q"])
