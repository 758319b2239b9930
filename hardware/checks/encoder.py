"""Encoder check: prints each detent (+1 clockwise, -1 anticlockwise) and each push.

    mpremote run hardware/checks/encoder.py     (Ctrl-C stops it)

Takes the pins from hardware/boards/BOARD.json on the board's flash when it is there,
else from the constants below. Decodes as firmware/buttons.py's Encoder does.
"""

import json
import time

import machine

BOARD = "rpi-pico"
ENC_A = 26  # without a pin map on the flash: rpi-pico.json's encoder.a ...
ENC_B = 27  # ... encoder.b
PER_DETENT = 4  # ... encoder.steps_per_detent
PUSH = 16  # ... buttons[16], the table's push (firmware/pads.py order)
QUIET_MS = 30

# The state is (A << 1) | B; clockwise runs 00 -> 10 -> 11 -> 01 -> 00.
# _STEP[old * 4 + new] is the step plus one: 0 back, 1 none (or a missed step), 2 forward.
_STEP = b"\x01\x00\x02\x01\x02\x01\x01\x00\x00\x01\x01\x02\x01\x02\x00\x01"


def settings():
    try:
        with open("hardware/boards/" + BOARD + ".json") as f:
            cfg = json.load(f)
    except OSError:
        print("no hardware/boards/%s.json on the board: using the constants" % BOARD)
        return ENC_A, ENC_B, PER_DETENT, PUSH
    enc = cfg.get("encoder")
    if not enc:
        return None, None, 0, None
    return enc["a"], enc["b"], enc.get("steps_per_detent", 4), cfg["buttons"][16]


def main():
    a_pin, b_pin, per, push = settings()
    if a_pin is None:
        print("this pin map has no encoder")
        return
    Pin = machine.Pin
    a = Pin(a_pin, Pin.IN, Pin.PULL_UP)
    b = Pin(b_pin, Pin.IN, Pin.PULL_UP)
    sw = None if push is None else Pin(push, Pin.IN, Pin.PULL_UP)
    state = rest = (a.value() << 1) | b.value()
    steps = position = 0
    pressed = False
    last = time.ticks_ms()
    print("A on GPIO%d, B on GPIO%d, rest state %d: turn the knob" % (a_pin, b_pin, rest))
    while True:
        s = (a.value() << 1) | b.value()
        if s != state:
            steps += _STEP[state * 4 + s] - 1
            state = s
            if per == 1 or s == rest or (per == 2 and s == rest ^ 3):
                if steps * 2 >= per:
                    position += 1
                    print("+1 clockwise, position %d" % position)
                elif -steps * 2 >= per:
                    position -= 1
                    print("-1 anticlockwise, position %d" % position)
                steps = 0
        if sw is not None and (sw.value() == 0) != pressed and time.ticks_diff(time.ticks_ms(), last) >= QUIET_MS:
            pressed = not pressed
            last = time.ticks_ms()
            if pressed:
                print("push (GPIO%d)" % push)
        time.sleep_ms(1)


try:
    main()
except KeyboardInterrupt:
    print("stopped")
