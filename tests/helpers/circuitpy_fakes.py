"""CircuitPython's core modules as small fakes for the circuitpy backend on CPython (Blinka's stand-ins
know no KB2040 or Pico pin names): board with the pin map's names, digitalio, keypad, microcontroller,
rotaryio; and load_file, to import a backend file under a private name."""

import importlib.util
import types


class FakePin:
    """A microcontroller.Pin: an opaque object that board names."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "board." + self.name


def fake_core(names):
    """board, digitalio, microcontroller and rotaryio as the backend and the library use them."""
    board = types.ModuleType("board")
    for name in names:
        setattr(board, name, FakePin(name))

    digitalio = types.ModuleType("digitalio")
    digitalio.Direction = types.SimpleNamespace(INPUT="input", OUTPUT="output")
    digitalio.Pull = types.SimpleNamespace(UP="up", DOWN="down")

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = digitalio.Direction.INPUT
            self.pull = None
            self.value = True  # idle: a button to GND, pulled up, not pressed

        def switch_to_output(self, value=False, drive_mode=None):
            self.direction, self.value = digitalio.Direction.OUTPUT, value

        def deinit(self):
            pass

    digitalio.DigitalInOut = DigitalInOut

    microcontroller = types.ModuleType("microcontroller")
    microcontroller.Pin = FakePin
    microcontroller.cpu = types.SimpleNamespace(uid=bytes(range(8)))

    rotaryio = types.ModuleType("rotaryio")

    class IncrementalEncoder:
        def __init__(self, a, b, divisor=4):
            self.pins, self.divisor, self.position = (a, b), divisor, 0

    rotaryio.IncrementalEncoder = IncrementalEncoder
    return {"board": board, "digitalio": digitalio, "keypad": fake_keypad(), "microcontroller": microcontroller,
            "rotaryio": rotaryio}


def fake_keypad():
    """keypad.Keys, Event and EventQueue as the backend uses them: a test queues edges with queue(),
    as CircuitPython's background scan does, each with the tick it happened at."""
    keypad = types.ModuleType("keypad")

    class Event:
        def __init__(self, key_number=0, pressed=True, timestamp=0):
            self.key_number, self.pressed, self.timestamp = key_number, pressed, timestamp

    class EventQueue:
        def __init__(self):
            self.waiting = []

        def get_into(self, event):
            if not self.waiting:
                return False
            event.key_number, event.pressed, event.timestamp = self.waiting.pop(0)
            return True

    class Keys:
        made = []  # every Keys the module made, newest last

        def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64):
            self.pins, self.value_when_pressed, self.pull = list(pins), value_when_pressed, pull
            self.events = EventQueue()
            Keys.made.append(self)

        def queue(self, key_number, pressed, timestamp):
            self.events.waiting.append((key_number, pressed, timestamp))

    keypad.Event, keypad.EventQueue, keypad.Keys = Event, EventQueue, Keys
    return keypad


def load_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
