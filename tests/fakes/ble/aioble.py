"""A stand-in for micropython-lib's aioble on the unix port (and the chip's heap bench): dice that play a script of notifications.

SCRIPT (set by the test, or read from the file FAKE_AIOBLE_SCRIPT names) is a list of [address, what] played in order, whoever reads: what is a
notification in hex, "lost" (that die's connection drops), or "wait" (nothing
for 50 ms: lets the board act on what came); ["gate", PATH] holds the rest back until
that file exists. Each die's notified() waits until the
script's next item is its own. WRITTEN keeps what was written to each die.
"""

import asyncio
import json
import os

ADDR_RANDOM = 1
SCRIPT = []
# a whole board's run (tests/board/test_ble_dice.py): the script from a file. The rp2 port's os has no
# getenv: on the chip's heap bench (tools/chip/heap_paths.py) the runner fills SCRIPT itself
_FROM = getattr(os, "getenv", lambda name: None)("FAKE_AIOBLE_SCRIPT")
if _FROM:
    with open(_FROM) as _f:
        SCRIPT = json.load(_f)
WRITTEN = []
CONNECTS = []


class DeviceDisconnectedError(Exception):
    pass


class Device:
    def __init__(self, addr_type, addr):
        self.addr = addr

    async def connect(self, timeout_ms=10000):
        CONNECTS.append(self.addr)
        return _Connection(self.addr)


class _Connection:
    def __init__(self, addr):
        self.addr = addr

    async def service(self, uuid, timeout_ms=2000):
        return self

    async def characteristic(self, uuid, timeout_ms=2000):
        return _Characteristic(self.addr, uuid)


class _Characteristic:
    def __init__(self, addr, uuid):
        self.addr, self.uuid = addr, uuid

    async def subscribe(self, notify=True, indicate=False):
        pass

    async def write(self, data, response=None, timeout_ms=1000):
        WRITTEN.append((self.addr, bytes(data)))

    async def notified(self, timeout_ms=None):
        import binascii

        while True:
            if SCRIPT and SCRIPT[0][0] == "wait":
                SCRIPT.pop(0)
                await asyncio.sleep_ms(50)
                continue
            if SCRIPT and SCRIPT[0][0] == "gate":  # the rest waits until the test makes this file
                try:
                    os.stat(SCRIPT[0][1])
                    SCRIPT.pop(0)
                except OSError:
                    await asyncio.sleep_ms(5)
                continue
            if SCRIPT and SCRIPT[0][0] == self.addr:
                what = SCRIPT.pop(0)[1]
                if what == "lost":
                    raise DeviceDisconnectedError()
                return binascii.unhexlify(what)
            await asyncio.sleep_ms(1)
