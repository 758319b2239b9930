"""The virtual Pico's MicroPython REPL, from the host, for the tests on the chip (tests/chip/ and
tests/board/test_full_flash.py): mpremote run against its USB serial port (the one installed
beside this Python), and RawRepl, the raw REPL through pyserial for a script the test talks
to while it runs."""

import os
import subprocess
import sys
import time

import serial

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")


def mpremote(port, *args, timeout=60):
    run = subprocess.run([MPREMOTE, "connect", port, *args], check=False, capture_output=True, text=True,
                         timeout=timeout)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


class RawRepl:
    """The board's raw REPL through pyserial, for scripts the test talks to while they run."""

    def __init__(self, port):
        self.s = serial.Serial(port, 115200, timeout=0.2)
        self.pending = b""
        self.s.write(b"\r\x03\x03\x01")  # stop whatever runs, enter the raw REPL
        self.read_until(b"raw REPL; CTRL-B to exit\r\n>")

    def read_until(self, marker, timeout=60):
        """What the board sends up to and including marker (the rest is kept for the next read)."""
        got = self.pending
        deadline = time.monotonic() + timeout
        while marker not in got:
            assert time.monotonic() < deadline, f"no {marker!r} from the board; got {got[-300:]!r}"
            got += self.s.read(4096)
        end = got.index(marker) + len(marker)
        self.pending = got[end:]
        return got[:end]

    def start(self, code):
        """Run code; returns once the board has accepted it (its output follows)."""
        self.s.write(code.encode() + b"\x04")
        self.read_until(b"OK")

    def close(self):
        self.s.close()
