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
// - The data port's host-to-device side: CP_CDC_IN=FILE: the bytes appended to FILE go to the
//   board's second CDC (usb_cdc.data), as a host's writes would. The runner wires only that port's
//   device-to-host side (PICO_CDC_DATA, which also raises its DTR); its OUT endpoint is read here,
//   from the configuration descriptor the board sends, and each read the board arms waits until
//   there are bytes (a host NAKs until it has some). Said on stderr as "[cdc in: <n> bytes]".
import fs from 'fs';
import { Simulator, GPIOPin, RPUSBController } from 'rp2040js';

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

// --- the data port's host-to-device side -------------------------------------------------------
const cdcIn = process.env.CP_CDC_IN;
let dataOut = null; // the second CDC data interface's OUT endpoint, once the descriptor is read
let toBoard = []; // bytes waiting for the board's next read
let armed = null; // [usb, size]: a read the board armed on dataOut, waiting for bytes
let config = null; // the configuration descriptor as it comes, [total, bytes]

function cdcDataOuts(d) {
  const outs = [];
  let inData = false;
  for (let i = 0; i + 1 < d.length && d[i] >= 2; i += d[i]) {
    if (d[i + 1] === 4 && d[i] === 9) inData = d[i + 4] === 2 && d[i + 5] === 10; // interface: CDC data
    else if (d[i + 1] === 5 && d[i] === 7 && inData && (d[i + 3] & 3) === 2 && !(d[i + 2] & 0x80)) outs.push(d[i + 2] & 0xf);
  }
  return outs;
}

let seen = null; // the runner's handler wraps USBCDC's, so each buffer comes here twice
function watchDescriptor(ep, buf) {
  if (buf === seen) return;
  seen = buf;
  if (ep !== 0 || buf.length < 2 || dataOut !== null) return;
  if (config === null) {
    if (buf.length === 9 && buf[1] === 2) config = [buf[2] | (buf[3] << 8), []];
    return;
  }
  config[1].push(...buf);
  if (config[1].length >= config[0]) {
    const outs = cdcDataOuts(config[1]);
    dataOut = outs.length > 1 ? outs[1] : -1;
  }
}

function feed() {
  if (!armed || !toBoard.length) return;
  const [usb, size] = armed;
  armed = null;
  const n = Math.min(size, toBoard.length);
  usb.endpointReadDone(dataOut, Uint8Array.from(toBoard.splice(0, n)));
}

if (cdcIn) {
  let read = 0;
  setInterval(() => {
    try {
      const size = fs.statSync(cdcIn).size;
      if (size > read) {
        const buf = Buffer.alloc(size - read), fd = fs.openSync(cdcIn, 'r');
        fs.readSync(fd, buf, 0, buf.length, read);
        fs.closeSync(fd);
        read = size;
        toBoard.push(...buf);
        process.stderr.write(`[cdc in: ${buf.length} bytes]\n`);
      }
    } catch { return; }
    feed();
  }, 5).unref();
  for (const [name, wrap] of [
    ['onEndpointWrite', (fn) => function (ep, buf) { watchDescriptor(ep, buf); return fn.call(this, ep, buf); }],
    ['onEndpointRead', (fn) => function (ep, size) {
      if (ep === dataOut) { armed = [this, size]; feed(); return undefined; }
      return fn.call(this, ep, size);
    }],
  ]) {
    const own = Symbol(name);
    Object.defineProperty(RPUSBController.prototype, name, {
      get() { return this[own]; },
      set(fn) { this[own] = fn && wrap(fn); },
      configurable: true,
    });
  }
}
