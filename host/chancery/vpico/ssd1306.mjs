// An SSD1306 128x64 OLED rebuilt from the bytes written to it over I2C.
//
// Each transfer to the display starts with a control byte: bit 6 (D/C#) says whether what
// follows is commands or GDDRAM data, bit 7 (Co) that only one byte follows before the next
// control byte. This models the commands MicroPython's ssd1306 driver and firmware/board/oled.py
// send (display on/off, the addressing modes and windows) and steps over the arguments of the
// rest, so that GDDRAM (8 pages of 128 columns, a byte per column: bit 0 the top row of the
// page) ends up as the panel would show it.

const WIDTH = 128, PAGES = 8;
// Commands with arguments that only shape the picture's electrical side: how many to skip.
const ARGS = { 0x81: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1, 0x8d: 1, 0xa3: 2,
  0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0x20: 1, 0x21: 2, 0x22: 2 };
const HORIZONTAL = 0, VERTICAL = 1, PAGE_MODE = 2;

export class Ssd1306 {
  constructor() {
    this.ram = new Uint8Array(WIDTH * PAGES);
    this.on = false;
    this.inverted = false;
    this.mode = PAGE_MODE;           // the reset state
    this.col0 = 0; this.col1 = WIDTH - 1; this.page0 = 0; this.page1 = PAGES - 1;
    this.col = 0; this.page = 0;
    this.pending = null;             // a command waiting for its arguments: [code, args...]
    this.begin();
  }

  // A new I2C transfer addressed to the display.
  begin() { this.control = null; this.sinceControl = 0; this.wroteData = false; }

  byte(b) {
    if (this.control === null) { this.control = b; this.sinceControl = 0; return; }
    if (this.control & 0x40) { this.data(b); this.wroteData = true; } else this.command(b);
    // Co set: one byte only, then another control byte
    if (this.control & 0x80) this.control = null;
  }

  command(b) {
    if (this.pending) {
      this.pending.push(b);
      if (this.pending.length - 1 === ARGS[this.pending[0]]) { this.apply(this.pending); this.pending = null; }
      return;
    }
    if (ARGS[b]) { this.pending = [b]; return; }
    this.apply([b]);
  }

  apply([c, a, b]) {
    if (c === 0xae || c === 0xaf) this.on = c === 0xaf;
    else if (c === 0xa6 || c === 0xa7) this.inverted = c === 0xa7;
    else if (c === 0x20) this.mode = a & 3;
    else if (c === 0x21) { this.col0 = a & 0x7f; this.col1 = b & 0x7f; this.col = this.col0; }
    else if (c === 0x22) { this.page0 = a & 7; this.page1 = b & 7; this.page = this.page0; }
    else if (c >= 0xb0 && c <= 0xb7) this.page = c & 7;                       // page mode: page
    else if (c <= 0x0f) this.col = (this.col & 0xf0) | c;                     // page mode: column low
    else if (c >= 0x10 && c <= 0x1f) this.col = ((c & 0x0f) << 4) | (this.col & 0x0f);
  }

  data(b) {
    this.ram[this.page * WIDTH + this.col] = b;
    if (this.mode === PAGE_MODE) { this.col = (this.col + 1) & 0x7f; return; }
    if (this.mode === HORIZONTAL) {
      if (this.col < this.col1) { this.col++; return; }
      this.col = this.col0;
      this.page = this.page < this.page1 ? this.page + 1 : this.page0;
      return;
    }
    if (this.mode === VERTICAL) {
      if (this.page < this.page1) { this.page++; return; }
      this.page = this.page0;
      this.col = this.col < this.col1 ? this.col + 1 : this.col0;
    }
  }

  picture() { return { on: this.on, inverted: this.inverted, ram: Buffer.from(this.ram).toString('hex') }; }
}
