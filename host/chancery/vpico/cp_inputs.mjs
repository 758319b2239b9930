// Loaded into ../shared/circuitpython-emu/run-cp.mjs with node's --import (NODE_OPTIONS), never
// changing the runner: the inputs a CircuitPython board reads, which the runner leaves out.
// (host/chancery/vpico/cp.py copies this file beside its copy of the runner, whose rp2040js it uses.)
//
// - Pulls: rp2040js 1.4.1 reads every GPIO input low whatever its pad's pull; a real pin left open
//   reads its pull (a switch to GND with the internal pull-up reads high until pressed). Without
//   this, every button of the table reads as held, and boot.py's host key (held at reset: the drive
//   stays the computer's) is always down.
// - Presses: CP_PRESSES=FILE: the lines appended to FILE ("press GPIO MS": hold GPIO low for MS of
//   simulated time, then let it go), read every few ms of wall time; each is said on stderr as
//   "[press GPn t=<ms>]" and "[release GPn t=<ms>]".
import fs from 'fs';
import { Simulator, GPIOPin } from 'rp2040js';

let sim = null;
const held = new Map(); // GPIO -> level while a press holds it
const releases = [];   // [nanos, gpio]

const raw = Object.getOwnPropertyDescriptor(GPIOPin.prototype, 'inputValue').get;
Object.defineProperty(GPIOPin.prototype, 'inputValue', {
  get() {
    const mcu = this.rp2040;
    if (mcu.gpio[this.index] !== this) return raw.call(this); // the QSPI pins: as rp2040js has them
    if (held.has(this.index) || this.rawInputValue || !this.pullupEnabled) {
      const level = held.has(this.index) ? held.get(this.index) : this.rawInputValue;
      const saved = this.rawInputValue;
      this.rawInputValue = level;
      try { return raw.call(this); } finally { this.rawInputValue = saved; }
    }
    const saved = this.rawInputValue;
    this.rawInputValue = true; // open, pulled up
    try { return raw.call(this); } finally { this.rawInputValue = saved; }
  },
  configurable: true,
});

const execute = Simulator.prototype.execute;
Simulator.prototype.execute = function () {
  sim = this; // the chip running now (a watchdog reset makes a new one)
  return execute.call(this);
};

const file = process.env.CP_PRESSES;
let read = 0;
const now = () => (sim ? sim.clock.nanos : 0);
const say = (what, n) => process.stderr.write(`[${what} GP${n} t=${(now() / 1e6).toFixed(1)}ms]\n`);
if (file) {
  setInterval(() => {
    for (let k = releases.length - 1; k >= 0; k--) {
      if (now() >= releases[k][0]) { held.delete(releases[k][1]); say('release', releases[k][1]); releases.splice(k, 1); }
    }
    let text = '';
    try {
      const fd = fs.openSync(file, 'r');
      const size = fs.fstatSync(fd).size;
      if (size > read) {
        const buf = Buffer.alloc(size - read);
        fs.readSync(fd, buf, 0, buf.length, read);
        text = buf.toString();
      }
      fs.closeSync(fd);
    } catch { return; }
    const end = text.lastIndexOf('\n');
    if (end < 0) return;
    read += Buffer.byteLength(text.slice(0, end + 1));
    for (const line of text.slice(0, end).split('\n')) {
      const m = /^press (\d+) (\d+)$/.exec(line.trim());
      if (!m) continue;
      const n = +m[1];
      held.set(n, false);
      releases.push([now() + +m[2] * 1e6, n]);
      say('press', n);
    }
  }, 5).unref();
}
