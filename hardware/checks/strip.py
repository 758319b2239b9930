"""Strip check: every LED of the panel red, then green, then blue, one at a time, then all white, dim.

    mpremote run hardware/checks/strip.py

Takes the data pin, LED count, byte order and budget from hardware/boards/BOARD.json
on the board's flash when it is there, else from the constants below (edit them).
The white step uses the firmware's current model (shared_rules/power.py: 20 mA per
channel at 255, 1 mA per LED) to stay under budget_ma.
"""

import json
import time

import machine
import neopixel

BOARD = "rpi-pico"  # which pin map to read: hardware/boards/BOARD.json
DATA_PIN = 22  # without a pin map on the flash: rpi-pico.json's strip.data ...
LEDS = 256  # ... strip.leds (the 16x16 panel)
ORDER = "GRB"  # ... strip.order
BUDGET_MA = 450  # ... budget_ma
ONLY = 0  # 1: light the first LED alone (assembly step 2); 0: every LED
LOW = 32  # of 255: one channel of one LED draws about 3 mA here
STEP_MS = 30
WHITE_MS = 10000


def settings():
    try:
        # relative to the flash's root, where mpremote run starts
        with open("hardware/boards/" + BOARD + ".json") as f:
            cfg = json.load(f)
    except OSError:
        print("no hardware/boards/%s.json on the board: using the constants" % BOARD)
        return DATA_PIN, LEDS, ORDER, BUDGET_MA
    s = cfg["strip"]
    return s["data"], s["leds"], s.get("order", "GRB"), cfg.get("budget_ma", 450)


def put(buf, i, order, rgb):
    # the strip takes its bytes in `order` (GRB for a WS2812B); rgb is red, green, blue
    for k in range(3):
        buf[i * 3 + k] = rgb["RGB".find(order[k])]


def main():
    data, n, order, budget = settings()
    if ONLY:
        n = ONLY
    strip = neopixel.NeoPixel(machine.Pin(data, machine.Pin.OUT), n)
    buf = strip.buf
    print("strip on GPIO%d: %d LEDs, %s" % (data, n, order))
    for name, rgb in [("red", (LOW, 0, 0)), ("green", (0, LOW, 0)), ("blue", (0, 0, LOW))]:
        print("%s: each LED in turn from the input end (top-left, along the top row, back along the next)" % name)
        for i in range(n):
            put(buf, i, order, rgb)
            strip.write()
            time.sleep_ms(STEP_MS)
            put(buf, i, order, (0, 0, 0))
    # the highest level whose estimate fits the budget, and never above LOW
    level = min(LOW, max(0, (budget - n) * 255 // (n * 60)))
    ma = (n * 3 * level * 20 + 254) // 255 + n
    print("white at %d/255: about %d mA estimated (budget %d mA)" % (level, ma, budget))
    for i in range(n):
        put(buf, i, order, (level, level, level))
    strip.write()
    time.sleep_ms(WHITE_MS)
    for i in range(n * 3):
        buf[i] = 0
    strip.write()
    print("done: the strip is dark")


main()
