"""Display check: lists what answers on the I2C bus, then writes "Chancery" on the SSD1306.

    mpremote mip install ssd1306      (micropython-lib's driver, once)
    mpremote run hardware/checks/display.py

Takes the bus from hardware/boards/BOARD.json on the board's flash when it is there,
else from the constants below. Uses only fill, text and show: what the firmware uses.
"""

import json

import machine

BOARD = "rpi-pico"
I2C_ID = 0  # without a pin map on the flash: rpi-pico.json's i2c.id ...
SDA = 20  # ... i2c.sda
SCL = 21  # ... i2c.scl
FREQ = 400000  # ... i2c.freq
ADDR = 60  # ... i2c.addr (0x3C; some modules answer at 0x3D = 61)


def settings():
    try:
        with open("hardware/boards/" + BOARD + ".json") as f:
            cfg = json.load(f)
    except OSError:
        print("no hardware/boards/%s.json on the board: using the constants" % BOARD)
        return I2C_ID, SDA, SCL, FREQ, ADDR
    bus = cfg["i2c"]
    return bus.get("id", 0), bus["sda"], bus["scl"], bus.get("freq", 400000), bus.get("addr", 60)


def main():
    bus_id, sda, scl, freq, addr = settings()
    Pin = machine.Pin
    i2c = machine.I2C(bus_id, sda=Pin(sda), scl=Pin(scl), freq=freq)
    found = i2c.scan()
    print("I2C%d, SDA GPIO%d, SCL GPIO%d: answers at %s" % (bus_id, sda, scl, ["0x%02x" % x for x in found]))
    if addr not in found:
        print("nothing at 0x%02x: check VCC on 3V3, GND, and SDA/SCL not swapped" % addr)
        return
    try:
        import ssd1306
    except ImportError:
        print("no ssd1306 driver on the board: mpremote mip install ssd1306")
        return
    oled = ssd1306.SSD1306_I2C(128, 64, i2c, addr)
    oled.fill(0)
    oled.text("Chancery", 32, 24, 1)  # 8 characters of 8 pixels, centred on 128
    oled.text("display OK", 24, 40, 1)
    oled.show()
    print("drawn: Chancery / display OK")


main()
