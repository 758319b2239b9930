// The Pico's SPI NOR flash (a W25Q16-like part) behind the RP2040's SSI, for writes.
//
// rp2040js serves XIP reads straight from mcu.flash but has no device behind the SSI's data
// register, so the bootrom's flash_range_erase / flash_range_program (which MicroPython's
// littlefs calls) would change nothing. This model answers those commands, and unlike a
// model that finishes every operation at once it
//   - takes simulated time: the status register (05) reports busy (WIP, bit 0) until a
//     W25Q16's typical program / erase time has passed on the board's clock, so the
//     bootrom's wait-ready loop burns that time as on a real board;
//   - tears: the operation in progress keeps the bytes it is changing as they were, so a
//     power cut before it ends leaves a prefix done and the rest as before; or, asked with a
//     seed (tear(seed)), as a real NOR part may: every bit the operation was changing, over its
//     whole range, is left at its old or its new value at random (bits half programmed or half
//     erased read either way), drawn from the seed so that a cut replays.
// The flash outlives any one chip: a watchdog reset or a power cut attaches a fresh chip
// to the same model, and an operation in progress goes on (or is torn) on the board's clock.

const PAGE = 256;
// W25Q16JV datasheet, typical: page program 0.4 ms for 256 bytes (scaled by bytes, with the
// ~30 us the first byte takes as floor), sector erase 45 ms, 32K block 120 ms, 64K block 150 ms.
const PROGRAM_NS_PER_PAGE = 400e3, PROGRAM_MIN_NS = 30e3;
const ERASE = { 0x20: [4096, 45e6], 0x52: [32768, 120e6], 0xd8: [65536, 150e6] };
const POLL_SLACK_NS = 10e3;   // how long before an operation's end the status polls are emulated again
const SR_TFNF = 0x2, SR_TFE = 0x4, SR_RFNE = 0x8;   // SSI status register bits
const TRACE = !!process.env.CHANCERY_VPICO_TRACE_FLASH;
const JEDEC_ID = [0xef, 0x40, 0x15];          // Winbond, SPI, 16 Mbit
const UNIQUE_ID = [0xe6, 0x60, 0x58, 0x38, 0x83, 0x4a, 0x2b, 0x31];

export class NorFlash {
  // now(): the board's simulated time in ns. onOp(op): told when a program or erase starts.
  // pass(ns): let that much board time go by at once (see reply()), or null.
  constructor(image, now, onOp = () => {}, pass = null) {
    this.data = image;
    this.now = now;
    this.onOp = onOp;
    this.pass = pass;
    this.op = null;      // {kind, addr, length, start, end, before}: the operation in progress
    this.wel = false;    // write enable latch
    this.cs = 1;         // chip select, as forced through IO_QSPI (0 = selected)
    this.cmd = [];
    this.rx = [];        // the SSI receive FIFO: every byte clocked out brings one back
  }

  busy() {
    if (this.op && this.now() >= this.op.end) { this.op = null; this.wel = false; }
    return this.op !== null;
  }

  // Wire this model into a chip's IO_QSPI (chip select) and SSI (data register).
  attach(mcu) {
    mcu.flash = this.data;   // rp2040js's XIP reads go to mcu.flash: share the one image
    this.cs = 1; this.cmd = []; this.rx = [];
    const ioqspi = mcu.peripherals[0x40018];
    // Keep rp2040js's IO_QSPI for reads of STATUS (every pin high: BOOTSEL not held); the
    // CTRL registers (odd words) must hold what was written, since the bootrom
    // read-modify-writes them and checks SD1_CTRL's INOVER to decide whether to abort.
    const ctrl = new Map();
    const write = ioqspi.writeUint32.bind(ioqspi), writeAtomic = ioqspi.writeUint32Atomic.bind(ioqspi);
    const read = ioqspi.readUint32.bind(ioqspi);
    const isCtrl = (off) => off < 0x30 && (off & 4) !== 0;
    const put = (off, v) => {
      ctrl.set(off, v >>> 0);
      if (off === 0x0c) this.chipSelect(((v >> 8) & 3) === 2 ? 0 : 1);  // SS OUTOVER: 2 low, 3 high
    };
    ioqspi.readUint32 = (off) => (isCtrl(off) ? ctrl.get(off) ?? 0 : read(off));
    ioqspi.writeUint32 = (off, v) => (isCtrl(off) ? put(off, v) : write(off, v));
    ioqspi.writeUint32Atomic = (off, v, type) => {
      if (!isCtrl(off)) return writeAtomic(off, v, type);
      const cur = ctrl.get(off) ?? 0;
      put(off, type === 1 ? cur ^ v : type === 2 ? cur | v : type === 3 ? cur & ~v : v);
    };
    const ssi = mcu.peripherals[0x18000];
    const ssiWrite = ssi.writeUint32.bind(ssi), ssiRead = ssi.readUint32.bind(ssi);
    ssi.writeUint32 = (off, v) => {
      if (off !== 0x60) return ssiWrite(off, v);
      // Only while chip select is forced low is a byte a command to this model (the boot
      // stage 2 talks through the SSI's own chip select, which needs no answers).
      if (this.cs === 0) { this.cmd.push(v & 0xff); this.rx.push(this.reply()); } else this.rx.push(0);
      if (this.rx.length > 16) this.rx.shift();
    };
    ssi.readUint32 = (off) => {
      if (off === 0x60) return this.rx.length ? this.rx.shift() : 0;
      if (off === 0x24) return this.rx.length;   // RXFLR, which flash_put_get polls
      if (off === 0x20) return 0;                // TXFLR: every byte goes out at once
      if (off === 0x28) return SR_TFNF | SR_TFE | (this.rx.length ? SR_RFNE : 0);   // pico-sdk polls RFNE
      return ssiRead(off);
    };
  }

  chipSelect(level) {
    if (level === this.cs) return;
    if (level === 1 && TRACE) {
      process.stderr.write(`flash ${this.cmd.slice(0, 4).map((x) => x.toString(16)).join(' ')} ` +
        `(${this.cmd.length} bytes) busy ${this.op !== null} t ${this.now()}\n`);
    }
    this.cs = level;
    if (level === 1) this.execute();
    this.cmd = [];
    // Each forced transfer drains what it clocks; bytes left in the FIFO from before (the boot
    // stage 2 leaves some when it enters continuous read mode) belong to no command.
    this.rx = [];
  }

  address() { return (this.cmd[1] << 16) | (this.cmd[2] << 8) | this.cmd[3]; }

  // The byte the flash shifts out while the n-th byte of the command goes in.
  reply() {
    const c = this.cmd[0], n = this.cmd.length;
    if (c === 0x05) {
      if (n < 2) return 0;
      const busy = this.busy();
      // The core does nothing but poll this register until the operation ends (its interrupts
      // are off while flash is away from XIP): let the board's clock run to just before the end
      // at once rather than emulating some 40000 polls of a 45 ms erase. The time still passes
      // on the board, alarms (a scheduled cut, a pin change) land in it, and the last few polls
      // see the busy bit clear as they would.
      if (busy && this.pass && this.op.end - this.now() > POLL_SLACK_NS) this.pass(this.op.end - this.now() - POLL_SLACK_NS);
      return (busy ? 1 : 0) | (this.wel ? 2 : 0);
    }
    if (c === 0x35) return n > 1 ? 0x02 : 0;                       // status 2: quad enable set
    if (this.busy()) return 0xff;                                  // a busy chip ignores the rest
    if (c === 0x9f) return JEDEC_ID[n - 2] ?? 0;
    if (c === 0x03 && n > 4) return this.data[(this.address() + n - 5) % this.data.length];
    if (c === 0x4b && n > 5) return UNIQUE_ID[n - 6] ?? 0;
    return 0;
  }

  // Chip select went high: a write enable, program or erase takes effect now.
  execute() {
    const c = this.cmd[0];
    if (this.busy()) return;   // only status reads are heard while busy
    if (c === 0x06) this.wel = true;
    else if (c === 0x04) this.wel = false;
    else if (c === 0x02 && this.wel && this.cmd.length > 4) this.program();
    else if (ERASE[c] && this.wel && this.cmd.length >= 4) this.erase(...ERASE[c]);
  }

  program() {
    const a = this.address(), page = a & ~(PAGE - 1), bytes = this.cmd.slice(4);
    // Past the page's end the address wraps to the page's start, as on the part; the
    // operation spans the whole page so that a tear can keep its old bytes.
    const before = this.data.slice(page, page + PAGE);
    for (let i = 0; i < bytes.length; i++) this.data[page | ((a + i) & (PAGE - 1))] &= bytes[i];
    const ns = Math.max(PROGRAM_MIN_NS, PROGRAM_NS_PER_PAGE * Math.min(bytes.length, PAGE) / PAGE);
    this.begin('program', page, PAGE, before, ns, a, Math.min(bytes.length, PAGE));
  }

  erase(size, ns) {
    const a = this.address() & ~(size - 1);
    const before = this.data.slice(a, a + size);
    this.data.fill(0xff, a, a + size);
    this.begin('erase', a, size, before, ns, a, size);
  }

  begin(kind, addr, length, before, ns, first, count) {
    const start = this.now();
    // first/count: the bytes the operation writes, in the order the part writes them
    this.op = { kind, addr, length, before, start, end: start + ns, first, count };
    this.onOp(this.op);
  }

  // Power is cut now: an operation still in progress stops part-way. Returns what was torn.
  // bits: null for a clean prefix, else a seed for the bits left half changed (see the top).
  tear(bits = null) {
    if (!this.busy()) return null;
    const { kind, addr, length, before, start, end, first, count } = this.op;
    if (bits !== null) return this.tearBits(bits >>> 0);
    const done = Math.floor(count * (this.now() - start) / (end - start));
    // The bytes not yet reached keep their old contents.
    for (let i = done; i < count; i++) {
      const p = kind === 'program' ? addr | ((first - addr + i) & (PAGE - 1)) : first + i;
      this.data[p] = before[p - addr];
    }
    this.op = null; this.wel = false;
    return { kind, addr, length, done, of: count };
  }

  tearBits(seed) {
    const { kind, addr, length, before, first, count } = this.op;
    let s = seed || 1, changed = 0, changing = 0;
    const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
    for (let i = 0; i < count; i++) {
      const p = kind === 'program' ? addr | ((first - addr + i) & (PAGE - 1)) : first + i;
      const old = before[p - addr], now = this.data[p], diff = old ^ now;
      if (!diff) continue;
      changing++;
      const keep = next() & diff;   // these of the changing bits stay as they were
      this.data[p] = now ^ keep;
      if (keep) changed++;
    }
    this.op = null; this.wel = false;
    // halfBytes: the bytes left other than the operation would have made them, of `changing`
    // (those it was changing at all: an erase of an erased sector changes none)
    return { kind, addr, length, done: null, of: count, bits: seed, halfBytes: changed, changing };
  }
}
