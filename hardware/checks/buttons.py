"""Button check: prints the name of each button as it is pressed. Ctrl-C stops it.

    mpremote run hardware/checks/buttons.py

Takes the pins from hardware/boards/BOARD.json on the board's flash when it is there,
else from BUTTONS below. Names follow firmware/pads.py: seats 0-4 up, select, down,
then the table's left, push, right, back.
"""

import json
import time

import machine

BOARD = "rpi-pico"
# without a pin map on the flash: rpi-pico.json's buttons (None: not fitted);
# switches to GND, read with the internal pull-up
BUTTONS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18]
QUIET_MS = 30  # a contact bounces for a few ms: ignore changes this soon after the last


def names():
    out = []
    for seat in range(5):
        for key in ["up", "select", "down"]:
            out.append("seat %d %s" % (seat, key))
    for key in ["left", "push", "right", "back"]:
        out.append("table " + key)
    return out


def settings():
    try:
        with open("hardware/boards/" + BOARD + ".json") as f:
            cfg = json.load(f)
    except OSError:
        print("no hardware/boards/%s.json on the board: using BUTTONS" % BOARD)
        return BUTTONS, True, 0
    return cfg["buttons"], cfg.get("pull", "up") == "up", 0 if cfg.get("active_low", True) else 1


def main():
    gpios, up, active = settings()
    Pin = machine.Pin
    label = names()
    fitted = []
    for i in range(len(gpios)):
        if gpios[i] is not None:
            fitted.append((label[i], gpios[i], Pin(gpios[i], Pin.IN, Pin.PULL_UP if up else Pin.PULL_DOWN)))
    held = [p.value() == active for _, _, p in fitted]
    for k in range(len(fitted)):
        if held[k]:
            print("%s (GPIO%d) reads pressed at rest: a short, or a wire on the wrong pin?" % fitted[k][:2])
    print("%d buttons: press each one" % len(fitted))
    seen = set()
    last = [time.ticks_ms()] * len(fitted)
    while True:
        now = time.ticks_ms()
        for k in range(len(fitted)):
            name, gpio, pin = fitted[k]
            down = pin.value() == active
            if down != held[k] and time.ticks_diff(now, last[k]) >= QUIET_MS:
                held[k] = down
                last[k] = now
                if down:
                    seen.add(k)
                    print("%s (GPIO%d), %d of %d seen" % (name, gpio, len(seen), len(fitted)))
        time.sleep_ms(5)


try:
    main()
except KeyboardInterrupt:
    print("stopped")
