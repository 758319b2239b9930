"""A fake micropython-lib `ssd1306`: records the text of each shown screen."""


class SSD1306_I2C:
    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False):
        self.i2c = i2c
        self.addr = addr
        self.lines = []
        self.shown = []

    def fill(self, c):
        self.lines = []

    def text(self, s, x, y, c=1):
        self.lines.append([y, s])

    def show(self):
        self.shown.append(list(self.lines))
