"""GoDice over Bluetooth LE with the maker's API (`godice`, on bleak), as firmware/dice/ events.

The BLE client is injected (`client_for(address, lost)`, bleak's BleakClient by default),
so the tests play recorded notifications to the real `godice` code with no adapter.
"""

from firmware.dice import godice as protocol


class NoAdapter(Exception):
    """Bluetooth could not be used here at all (no adapter, no BlueZ, no D-Bus)."""


def _adapter_errors():
    import bleak.exc

    return (bleak.exc.BleakError, OSError)


def no_adapter(e):
    return NoAdapter("Bluetooth LE is not available here (%s: %s): chancery dice needs a Bluetooth LE adapter, "
                     "switched on (on Linux, BlueZ running); the dice can still be entered on the board's menu"
                     % (type(e).__name__, e or "no detail"))


def die_id(address):
    """A die's id in the log: its address's last 12 hex digits, lower case (a MAC without colons;
    the tail of the UUID macOS gives instead)."""
    digits = "".join([c for c in address.lower() if c in "0123456789abcdef"])
    return digits[-12:]


async def scan(seconds, discover=None):
    """[(name, address, rssi)] of the GoDice advertising nearby, nearest first. Raises NoAdapter."""
    if discover is None:
        import bleak

        discover = bleak.BleakScanner.discover
    try:
        found = await discover(timeout=seconds, return_adv=True)
    except _adapter_errors() as e:
        raise no_adapter(e) from e
    out = [(d.name, d.address, a.rssi) for d, a in found.values() if d.name and d.name.startswith(protocol.NAME_PREFIX)]
    return sorted(out, key=lambda x: (-x[2], x[1]))


def _bleak_client(address, lost):
    import bleak

    return bleak.BleakClient(address, timeout=15, disconnected_callback=lambda _client: lost())


class Die:
    """One connected GoDice. `on_event(event)` hears its events (firmware/dice/__init__.py)."""

    def __init__(self, address, shell, on_event, client_for=None):
        import godice

        if shell not in protocol.SHELLS:
            raise ValueError("no GoDice shell %r (known: %s)" % (shell, ", ".join(protocol.SHELLS)))
        self.id = die_id(address)
        self.on_event = on_event
        self.client = (client_for or _bleak_client)(address, lambda: on_event(("lost", self.id)))
        self.dice = godice.Dice(self.client)
        godice.set_shell(self.dice, godice.Shell[shell])
        self._stable = {godice.StabilityDescriptor.STABLE: "settled", godice.StabilityDescriptor.FAKE_STABLE: "moved",
                        godice.StabilityDescriptor.MOVE_STABLE: "moved",
                        godice.StabilityDescriptor.TILT_STABLE: "tilted"}
        self._rolling = godice.StabilityDescriptor.ROLLING

    async def _position(self, number, stability):
        if stability == self._rolling:
            self.on_event(("rolling", self.id))
        elif stability in self._stable:
            self.on_event((self._stable[stability], self.id, number))

    async def connect(self):
        """Connect, listen, and report the battery. Raises NoAdapter, or bleak's error for this die."""
        await self.dice.subscribe_number_notification(self._position)
        try:
            await self.dice.connect()
        except _adapter_errors() as e:
            if isinstance(e, OSError):
                raise no_adapter(e) from e
            raise
        self.on_event(("battery", self.id, await self.dice.get_battery_level()))
        await self.dice.set_led((0, 0, 0), (0, 0, 0))

    async def disconnect(self):
        await self.dice.disconnect()
