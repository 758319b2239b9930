// The levels on the Pico's GPIO lines, which rp2040js leaves to whoever embeds it.
//
// rp2040js models no pads: a pin's input reads whatever was last given to setInputValue, even
// while the chip drives it, and pull-ups do nothing. Here every line gets a level the way the
// board's wiring makes it: a pin the chip drives reads back what it drives; an undriven pin
// reads what is outside it (a button to ground with the pull-up: high until pressed; the
// strip's data input: low); an open-drain bus (the display's I2C) is the wired AND of the chip,
// the outside (pull-ups: high) and a device pulling low.

export const PIN_COUNT = 30;

export class Lines {
  // GPIOPinState: rp2040js's enum of what a pin does (driven low / high, or an input).
  constructor(GPIOPinState) {
    this.State = GPIOPinState;
    this.outside = new Array(PIN_COUNT).fill(1);   // the level outside the chip, undriven
    this.pulledLow = new Array(PIN_COUNT).fill(false);  // a device on the bus pulls it low
    this.watchers = new Array(PIN_COUNT).fill(null).map(() => []);
    this.mcu = null;
    this.nanos = () => 0;
  }

  // Follow a chip's pins. nanos(): the board's time now, for the watchers.
  attach(mcu, nanos) {
    this.mcu = mcu;
    this.nanos = nanos;
    this.level = new Array(PIN_COUNT).fill(null);
    for (let i = 0; i < PIN_COUNT; i++) {
      mcu.gpio[i].addListener(() => this.refresh(i));
      this.refresh(i);
    }
  }

  // The chip is gone (a reset or a power cut): its pins drive nothing now.
  detach() { this.mcu = null; }

  levelOf(pin) { return this.level?.[pin] ?? this.outside[pin]; }

  // watcher(level, ns) is told each change of the line's level.
  watch(pin, watcher) { this.watchers[pin].push(watcher); }

  setOutside(pin, level) { this.outside[pin] = level ? 1 : 0; this.refresh(pin); }

  pullLow(pin, low) { this.pulledLow[pin] = low; this.refresh(pin); }

  refresh(pin) {
    if (!this.mcu) return;
    const GPIOPinState = this.State;
    const gpio = this.mcu.gpio[pin];
    const state = gpio.value;
    let level;
    if (state === GPIOPinState.Low) level = 0;
    else if (state === GPIOPinState.High) level = this.pulledLow[pin] ? 0 : 1;
    else level = this.outside[pin] && !this.pulledLow[pin] ? 1 : 0;
    if (gpio.rawInputValue !== !!level) gpio.setInputValue(!!level);
    if (level === this.level[pin]) return;
    this.level[pin] = level;
    const ns = this.nanos();
    for (const w of this.watchers[pin]) w(level, ns);
  }
}

// An I2C target on two lines, seen bit by bit: MicroPython's rp2 port scans the bus with a
// bit-banged zero-length write (the I2C block cannot send one), so finding the display needs
// a device that acknowledges its address on the pins themselves. Bytes written this way go to
// the same device as those through the I2C block.
export class BitBangTarget {
  constructor(lines, sda, scl, address, device) {
    Object.assign(this, { lines, sda, scl, address, device });
    this.sdaLevel = 1; this.sclLevel = 1;
    this.state = 'idle';
    lines.watch(sda, (level) => this.onSda(level));
    lines.watch(scl, (level) => this.onScl(level));
  }

  onSda(level) {
    this.sdaLevel = level;
    if (!this.sclLevel) return;                      // SDA moves under a high SCL only at START / STOP
    if (this.state === 'data' || this.state === 'read') this.device.end();
    this.state = level ? 'idle' : 'address';
    this.shift = 0; this.count = 0;
  }

  onScl(level) {
    this.sclLevel = level;
    if (this.state === 'idle' || this.state === 'ignore') return;
    if (level) {                                       // rising: the bit is valid now
      if (this.state === 'address' || this.state === 'data') {
        this.shift = (this.shift << 1) | this.sdaLevel;
        this.count++;
      }
      return;
    }
    // falling: the target may change SDA now
    if (this.acking) { this.acking = false; this.lines.pullLow(this.sda, false); return; }
    if (this.count < 8) return;
    const byte = this.shift & 0xff;
    this.shift = 0; this.count = 0;
    if (this.state === 'address') {
      if (byte >> 1 !== this.address) { this.state = 'ignore'; return; }
      this.device.begin(byte & 1 ? 'read' : 'write');
      this.state = byte & 1 ? 'read' : 'data';        // a read gets 0xff: SDA left released
    } else this.device.byte(byte);
    this.acking = true;
    this.lines.pullLow(this.sda, true);
  }
}
