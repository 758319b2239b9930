// A WS2812 strip's view of its data pin: pulses to bits to bytes to frames.
//
// Fed every level change of the line with its simulated time. A WS2812 samples the line about
// 0.6 us after a rising edge: a longer high pulse is a 1 bit, a shorter one a 0 (MicroPython's
// neopixel sends 0.4 us / 0.8 us highs in 1.25 us bits). A low gap over 50 us latches the frame.
// A high held for much longer than a bit (the pin's level before it became an output) is no bit.
//
// A strip of `leds` LEDs keeps what it shows: each LED takes the first 24 bits that reach it
// after a latch and passes the rest on, so a frame shorter than the strip changes only its first
// LEDs and the others keep their colours. Each frame reported is the whole strip as it then
// shows (`bits`: what was sent). A power cut darkens it (dark()).

const ONE_NS = 600, LONGEST_BIT_NS = 5000, LATCH_NS = 50000;

export class Ws2812Decoder {
  constructor(onFrame, leds = 0) {
    this.onFrame = onFrame;   // ({first, last, bytes, bits}): first rising and last falling edge, ns
    this.shown = new Uint8Array(3 * leds);   // what each LED shows (empty: no strip length known)
    this.level = 0;
    this.rise = null;          // time of the current high pulse's rising edge
    this.fall = null;          // time of the last falling edge that ended a bit
    this.reset();
  }

  reset() { this.bytes = []; this.acc = 0; this.bits = 0; this.first = null; }

  edge(level, ns) {
    if (level === this.level) return;
    this.level = level;
    if (level) {
      if (this.fall !== null && ns - this.fall > LATCH_NS) this.flush();
      this.rise = ns;
      return;
    }
    if (this.rise === null) return;
    const high = ns - this.rise;
    if (high > LONGEST_BIT_NS) { this.flush(); this.rise = null; return; }
    if (this.first === null) this.first = this.rise;
    this.acc = (this.acc << 1) | (high > ONE_NS ? 1 : 0);
    if (++this.bits % 8 === 0) { this.bytes.push(this.acc); this.acc = 0; }
    this.fall = ns;
    this.rise = null;
  }

  // Called as time passes without an edge: a long enough low gap latches the frame.
  idle(ns) {
    if (this.fall !== null && this.level === 0 && ns - this.fall > LATCH_NS) this.flush();
  }

  dark() { this.shown.fill(0); }

  flush() {
    if (this.bits) {
      let bytes = Uint8Array.from(this.bytes);
      if (this.shown.length) {   // the strip's LEDs past the frame keep their colours
        this.shown.set(bytes.subarray(0, this.shown.length));
        bytes = Uint8Array.from(this.shown);
      }
      this.onFrame({ first: this.first, last: this.fall, bytes, bits: this.bits });
    }
    this.reset();
    this.fall = null;
  }
}
