// A virtual Raspberry Pi Pico: a stock MicroPython RPI_PICO UF2 on rp2040js, with the board's
// flash, buttons, LED strip and display around it. Started by chancery.vpico (Python), which
// puts the USB serial on a pty; usable on its own too.
//
//   node chip.mjs --modules DIR --uf2 FIRMWARE.uf2 --flash IMAGE [--bootrom FILE] [--pins MAP.json]
//                 [--pace realtime|free] [--cdc-fd N] [--no-boot]
//
// --modules: the node_modules folder that holds rp2040js 1.4.1. --bootrom: the RP2040 B1
// bootrom (default: bootrom-b1.bin in the UF2's folder's parent). --flash: the 16 MiB flash
// image, loaded at start when it exists and saved on quit, on `save` and when the control pipe
// closes; the UF2 always overrides the firmware, the image keeps the filesystem. --pins: the
// board's pin map (hardware/boards/rpi-pico.json) for the strip's data pin and the display's bus.
// --pace realtime (default): the board's clock never runs ahead of the wall clock, so an idle
// board idles as a real one does (and costs no CPU); free: idle time passes as fast as the host
// can go, as rp2040js's own Simulator does.
//
// File descriptors:
//   stdin  control: JSON commands, one a line
//   stdout events: JSON, one a line (nothing else is ever written there)
//   fd 3   (or --cdc-fd N) the board's USB CDC serial: a bidirectional stream (a UNIX socket); bytes for the
//          board are held until USB is enumerated, then go out as the board asks for them
//   stderr log lines for people
// When stdin or fd 3 closes (the parent is gone) the flash is saved and the process exits.
// Environment: CHANCERY_VPICO_LOG=1 rp2040js's warnings on stderr; CHANCERY_VPICO_TRACE_FLASH=1
// every flash command; CHANCERY_VPICO_STATS=1 speed once a second.
//
// Times are the board's simulated time in ns since this process started ("t"), one timeline
// across watchdog resets and power cuts (it stands still while the power is off). A command
// may carry "id", echoed in its answer.
//
// Commands:
//   {"cmd":"now"}                                   -> {"ev":"time","t"}
//   {"cmd":"pins","steps":[[dt_ns,pin,level],...],  -> {"ev":"scheduled","t"}: each step sets the
//        "at":T | "after":DT}                          level outside the pin at t+dt (t = at, or
//                                                      now+after; a past "at" counts from now)
//   {"cmd":"level","pin":P}                         -> {"ev":"level","pin","level","t"} the line now
//   {"cmd":"cut","at":T | "after":DT,               -> {"ev":"scheduled","t"}; later {"ev":"cut"}
//        "during":"program"|"erase"|"any",             with "during": the power goes at the middle
//        "skip":N, "frac":F, "bits":S}                 of the first such flash operation from t on
//                                                      (skip: of the N+1th; frac: at that fraction
//                                                      of it, 0-1, instead of the middle; bits: the
//                                                      operation's changing bits are left half done,
//                                                      drawn from seed S: nor-flash.mjs tear())
//   {"cmd":"uncut"}                                 -> {"ev":"uncut","armed":bool} every cut not yet
//                                                      made is called off
//   {"cmd":"boot"}                                  -> {"ev":"booted"} a fresh chip on the flash
//   {"cmd":"save"}                                  -> {"ev":"saved","path"}
//   {"cmd":"quit"}                                  saves the flash and exits
// Events:
//   {"ev":"ready","flash","fresh"}                  the UF2 and flash are loaded
//   {"ev":"booted","t","boot":N,"why":"start"|"reset"|"boot"}
//   {"ev":"usb","t"}                                the host side of USB CDC is connected
//   {"ev":"frame","first","last","bits","grb"}      a WS2812 frame: the whole strip as it shows after it (hex, wire order; bits: what was sent), times
//                                                    of its first rising and last falling edge
//   {"ev":"display","t","on","inverted","ram"}      after each I2C stop that wrote GDDRAM: the
//                                                    1024 bytes hex, page by page (bit 0 = top)
//   {"ev":"reset","t","reason":"watchdog"}          then "booted" with why "reset"
//   {"ev":"cut","t","torn":null|{kind,addr,length,done,of}}
//   {"ev":"error","msg","fatal"?}                   fatal errors exit with status 2 (bad
//                                                    arguments) or 3 (a UF2 for another board)

import fs from 'fs';
import net from 'net';
import path from 'path';
import readline from 'readline';
import util from 'util';
import { pathToFileURL } from 'url';
import { readUf2, Uf2Error, FLASH_SIZE, DOWNLOAD } from './uf2.mjs';
import { NorFlash } from './nor-flash.mjs';
import { Lines, BitBangTarget } from './pins.mjs';
import { Ws2812Decoder } from './ws2812.mjs';
import { Ssd1306 } from './ssd1306.mjs';

// rp2040js logs with console.*; console.log and console.info would land in the event stream.
const toStderr = (...a) => process.stderr.write(util.format(...a) + '\n');
console.log = console.info = console.debug = toStderr;
// The firmware reads the core-1 FIFO (SIO 0x50/0x58) at boot and reset; rp2040js, which has no
// core 1, warns about each read straight through console.warn.
const CORE1_FIFO = /invalid SIO address: (50|58)$/;
console.warn = (...a) => { if (process.env.CHANCERY_VPICO_LOG || !CORE1_FIFO.test(String(a[0]))) toStderr(...a); };

const CYCLE_NS = 1e9 / 125e6;        // the core runs at 125 MHz (rp2040js's Simulator's assumption)
const SLICE_MS = 8;                  // wall time the chip runs before the event loop gets a turn
const IDLE_POLL_MS = 4;              // longest sleep when the board is idle ahead of the wall clock

function emit(ev) { process.stdout.write(JSON.stringify(ev) + '\n'); }

function fail(msg, status) {
  emit({ ev: 'error', msg, fatal: true });
  process.stderr.write(msg + '\n');
  process.exit(status);
}

const { values: opt } = util.parseArgs({
  options: {
    modules: { type: 'string' }, uf2: { type: 'string' }, flash: { type: 'string' },
    bootrom: { type: 'string' }, pins: { type: 'string' }, pace: { type: 'string', default: 'realtime' },
    'cdc-fd': { type: 'string', default: '3' }, 'no-boot': { type: 'boolean', default: false },
  },
});
if (!opt.uf2 || !opt.flash || !opt.modules) fail('usage: node chip.mjs --modules DIR --uf2 FIRMWARE.uf2 --flash IMAGE', 2);

let rp;
try {
  rp = await import(pathToFileURL(path.join(opt.modules, 'rp2040js', 'dist', 'esm', 'index.js')).href);
} catch (e) {
  fail(`rp2040js is not installed in ${opt.modules} (npm install rp2040js@1.4.1 there): ${e.message}`, 2);
}

// --- the firmware, the bootrom, the flash image --------------------------------------------

if (!fs.existsSync(opt.uf2)) fail(`no UF2 at ${opt.uf2}; download MicroPython's RPI_PICO .uf2 from ${DOWNLOAD}`, 2);
let firmware;
try {
  firmware = readUf2(opt.uf2, fs.readFileSync(opt.uf2));
} catch (e) {
  if (e instanceof Uf2Error) fail(e.message, 3);
  throw e;
}
const bootromPath = opt.bootrom ?? path.join(path.dirname(path.dirname(path.resolve(opt.uf2))), 'bootrom-b1.bin');
if (!fs.existsSync(bootromPath)) fail(`no RP2040 bootrom at ${bootromPath} (the B1 bootrom, 16 KiB: bootrom-b1.bin)`, 2);
const rom = fs.readFileSync(bootromPath);
if (rom.length !== 16384) fail(`${bootromPath} is ${rom.length} bytes; the RP2040 bootrom is 16384`, 2);
const romWords = new Uint32Array(Uint8Array.from(rom).buffer);

// One ArrayBuffer of exactly the flash's size: rp2040js reads it through views of its buffer.
const image = new Uint8Array(FLASH_SIZE).fill(0xff);
const fresh = !fs.existsSync(opt.flash);
if (!fresh) {
  const saved = fs.readFileSync(opt.flash);
  if (saved.length !== FLASH_SIZE) fail(`${opt.flash} is ${saved.length} bytes, not a 16 MiB flash image`, 2);
  image.set(saved);
}
for (const [offset, payload] of firmware) image.set(payload, offset);

function saveFlash() {
  const tmp = opt.flash + '.tmp';
  fs.writeFileSync(tmp, image);
  fs.renameSync(tmp, opt.flash);
}

// --- the board around the chip ---------------------------------------------------------------

const pinMap = opt.pins ? JSON.parse(fs.readFileSync(opt.pins, 'utf8')) : {};
const stripPin = pinMap.strip?.data ?? 22;
const bus = { sda: 20, scl: 21, addr: 0x3c, ...(pinMap.i2c ?? {}) };

let base = 0;          // board time when the current chip started (or when the power went)
let chip = null;       // the chip powered now: {mcu, cdc, running, connected, resetting, outRead}
let boots = 0;
const now = () => base + (chip ? chip.mcu.clock.nanos : 0);

const flash = new NorFlash(image, now, (op) => cutArmed?.onOp(op), (ns) => chip?.mcu.clock.tick(ns));
const lines = new Lines(rp.GPIOPinState);
lines.outside[stripPin] = 0;   // a WS2812's data input does not pull the line up

const strip = new Ws2812Decoder((f) => emit({ ev: 'frame', first: f.first, last: f.last, bits: f.bits,
  grb: Buffer.from(f.bytes).toString('hex') }), pinMap.strip?.leds ?? 0);
lines.watch(stripPin, (level, ns) => strip.edge(level, ns));

// The display, reached both through the I2C block and bit by bit (the bus scan).
const oled = new Ssd1306();
const display = {
  begin() { oled.begin(); },
  byte(b) { oled.byte(b); },
  end() { if (oled.wroteData) emit({ ev: 'display', t: now(), ...oled.picture() }); oled.begin(); },
};
new BitBangTarget(lines, bus.sda, bus.scl, bus.addr, display);

function hookI2c(i2c) {
  let talking = false;
  i2c.onConnect = (address, mode) => {
    talking = address === bus.addr;
    if (talking) display.begin(mode === rp.I2CMode.Read ? 'read' : 'write');
    i2c.completeConnect(talking);   // no device at any other address: NACK
  };
  i2c.onWriteByte = (b) => { if (talking) display.byte(b); i2c.completeWrite(talking); };
  i2c.onReadByte = () => i2c.completeRead(0x00);   // the SSD1306's status byte: on, not busy
  i2c.onStop = () => { if (talking) display.end(); talking = false; i2c.completeStop(); };
}

// The host's bytes for the board, held until the board's USB stack asks for more (feedCdc).
const hostBytes = [];
const cdcLink = new net.Socket({ fd: Number(opt['cdc-fd']), readable: true, writable: true });
cdcLink.on('data', (chunk) => { for (const b of chunk) hostBytes.push(b); });
cdcLink.on('error', (e) => process.stderr.write(`cdc link: ${e.message}\n`));
cdcLink.on('close', () => quit());

const logger = {
  debug() {}, info() {},
  warn(component, msg) {
    if (process.env.CHANCERY_VPICO_LOG) toStderr(`[${component}] ${msg}`);
  },
  error(component, msg) { toStderr(`[${component}] ${msg}`); },
};

function boot(why) {
  const mcu = new rp.RP2040();
  mcu.logger = logger;
  mcu.loadBootrom(romWords);           // (this also blanks rp2040js's own flash array)
  mcu.flash = image; mcu.flash16 = new Uint16Array(image.buffer); mcu.flashView = new DataView(image.buffer);
  const self = { mcu, running: true, connected: false, resetting: false };
  chip = self;
  flash.attach(mcu);
  lines.attach(mcu, now);
  hookI2c(mcu.i2c[0]);
  mcu.peripherals[0x40058].onWatchdogTrigger = () => { self.resetting = true; self.running = false; };
  self.cdc = new rp.USBCDC(mcu.usbCtrl);
  self.cdc.onDeviceConnected = () => { self.connected = true; emit({ ev: 'usb', t: now() }); };
  self.cdc.onSerialData = (bytes) => cdcLink.write(Buffer.from(bytes));
  // A host NAKs the board's OUT transfer until it has bytes to send; rp2040js's USBCDC answers
  // at once with an empty packet, which keeps the firmware's USB stack (and so the core) busy
  // for ever. Hold the read open instead and complete it when bytes come (feedCdc).
  self.outRead = 0;
  mcu.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== self.cdc.outEndpoint) return;
    self.outRead = size;
    feedCdc(self);
  };
  mcu.core.PC = 0x10000000;            // straight into the boot stage 2 at the start of flash
  boots++;
  pace.start();
  agenda.arm();
  emit({ ev: 'booted', t: now(), boot: boots, why });
  setImmediate(run);
}

function stopChip() {
  const old = chip;
  base = now();
  old.running = false;
  lines.detach();
  strip.flush();
  chip = null;
  return old;
}

// --- time: the agenda of scheduled changes, and pacing against the wall clock ----------------

// Things to do at board times (pin levels, cuts), kept in order; the chip's clock holds one
// alarm for the earliest, so each lands between two instructions at its exact time.
const agenda = {
  items: [],
  alarm: null,
  add(t, fn) {
    let i = this.items.length;
    while (i > 0 && this.items[i - 1].t > t) i--;
    this.items.splice(i, 0, { t, fn });
    this.arm();
  },
  arm() {
    if (!chip) return;
    const clock = chip.mcu.clock;
    if (!this.alarm || this.alarm.clock !== clock) this.alarm = clock.createAlarm(() => this.due());
    this.alarm.cancel();
    if (this.items.length) this.alarm.schedule(Math.max(0, this.items[0].t - now()));
  },
  due() {
    while (chip && this.items.length && this.items[0].t <= now()) this.items.shift().fn();
    this.arm();
  },
};

const pace = {
  start() { this.wall = performance.now(); this.board = now(); },
  // The board time the wall clock allows (realtime pacing), or no limit.
  limit() { return opt.pace === 'free' ? Infinity : this.board + (performance.now() - this.wall) * 1e6; },
};

// CHANCERY_VPICO_STATS=1: once a wall second, how far the board got and how busy it was.
const stats = { instr: 0, waits: 0, wall: performance.now(), t: 0 };
if (process.env.CHANCERY_VPICO_STATS) {
  setInterval(() => {
    toStderr(`${stats.instr} instructions, ${stats.waits} sleeps, board ${((now() - stats.t) / 1e6).toFixed(1)} ms ` +
      `in ${(performance.now() - stats.wall).toFixed(0)} ms, pc ${chip?.mcu.core.PC.toString(16)}`);
    stats.instr = stats.waits = 0; stats.wall = performance.now(); stats.t = now();
  }, 1000).unref();
}
function run() {
  const self = chip;
  if (!self || !self.running) return;
  const { mcu } = self, { core, clock } = mcu;
  const deadline = performance.now() + SLICE_MS;
  const limit = pace.limit();
  let idleAhead = false;
  try {
    for (let n = 1; self.running; n++) {
      if (core.waiting) {
        stats.waits++;
        // Asleep until an interrupt: jump to the next alarm, but not past the wall clock.
        const next = clock.nanosToNextAlarm;
        const room = Math.floor(limit - now());
        if (room <= 0) { idleAhead = true; break; }
        clock.tick(next > 0 ? Math.min(next, room) : Math.min(1e6, room));
      } else {
        stats.instr++;
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
      if ((n & 0xfff) === 0 && performance.now() > deadline) break;
    }
  } catch (e) {
    emit({ ev: 'error', msg: `the emulated chip stopped: ${e.message}` });
    self.running = false;
  }
  strip.idle(now());
  feedCdc(self);
  if (self.resetting) return watchdogReset(self);
  if (self.running) idleAhead ? setTimeout(run, IDLE_POLL_MS) : setImmediate(run);
}

function feedCdc(self) {
  if (!self.connected || !self.outRead || !hostBytes.length) return;
  const bytes = Uint8Array.from(hostBytes.splice(0, self.outRead));
  self.outRead = 0;
  self.mcu.usbCtrl.endpointReadDone(self.cdc.outEndpoint, bytes);
}

// machine.reset(), mpremote's reset, the end of `chancery deploy`: a fresh chip on the same
// flash, in this process, so the serial link stays up (a real board's port would go away).
function watchdogReset(old) {
  const reason = old.mcu.peripherals[0x40058].reason;
  stopChip();
  emit({ ev: 'reset', t: now(), reason: 'watchdog' });
  boot('reset');
  chip.mcu.peripherals[0x40058].reason = reason;   // machine.reset_cause() sees the watchdog
}

// --- power cuts ----------------------------------------------------------------------------

let cutArmed = null;   // a cut waiting for a flash operation to land in the middle of
let cutsCalledOff = 0; // bumped by "uncut": a scheduled cut made before it does nothing

function powerCut(bits = null) {
  if (!chip) return;
  stopChip();
  strip.dark();   // the strip loses its power with the board's
  const torn = flash.tear(bits);
  hostBytes.length = 0;   // the host cannot send to a board that has gone
  emit({ ev: 'cut', t: now(), torn });
}

function scheduleCut(t, during, skip = 0, frac = 0.5, bits = null) {
  const calls = cutsCalledOff;
  const cut = () => { if (calls === cutsCalledOff) powerCut(bits); };
  if (!during) return agenda.add(t, cut);
  agenda.add(t, () => {
    if (calls !== cutsCalledOff) return;
    let left = skip;
    cutArmed = {
      onOp(op) {
        if (during !== 'any' && op.kind !== during) return;
        if (left-- > 0) return;
        cutArmed = null;
        agenda.add(op.start + (op.end - op.start) * frac, cut);
      },
    };
  });
}

// --- the control pipe ----------------------------------------------------------------------

function when(c) {
  if (typeof c.at === 'number') return Math.max(c.at, now());
  return now() + (typeof c.after === 'number' ? Math.max(0, c.after) : 0);
}

function command(c) {
  const reply = (ev) => emit(c.id === undefined ? ev : { ...ev, id: c.id });
  switch (c.cmd) {
    case 'now': return reply({ ev: 'time', t: now() });
    case 'pins': {
      const t = when(c);
      for (const [dt, pin, level] of c.steps) agenda.add(t + dt, () => lines.setOutside(pin, level));
      return reply({ ev: 'scheduled', t });
    }
    case 'level': return reply({ ev: 'level', pin: c.pin, level: lines.levelOf(c.pin), t: now() });
    case 'cut': {
      if (!chip) return reply({ ev: 'error', msg: 'the power is off already' });
      const t = when(c);
      const frac = typeof c.frac === 'number' ? Math.min(1, Math.max(0, c.frac)) : 0.5;
      scheduleCut(t, c.during, Math.max(0, c.skip | 0), frac, typeof c.bits === 'number' ? c.bits : null);
      return reply({ ev: 'scheduled', t });
    }
    case 'uncut': {
      const armed = cutArmed !== null;
      cutArmed = null;
      cutsCalledOff++;
      return reply({ ev: 'uncut', armed });
    }
    case 'boot':
      if (chip) return reply({ ev: 'error', msg: 'the board is running; cut the power first' });
      hostBytes.length = 0;
      return boot('boot');
    case 'save':
      saveFlash();
      return reply({ ev: 'saved', path: opt.flash });
    case 'quit': return quit();
    default: return reply({ ev: 'error', msg: `unknown command ${JSON.stringify(c.cmd)}` });
  }
}

readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (!line.trim()) return;
  let c;
  try { c = JSON.parse(line); } catch { return emit({ ev: 'error', msg: `not JSON: ${line.slice(0, 80)}` }); }
  command(c);
}).on('close', () => quit());

let quitting = false;
function quit() {
  if (quitting) return;
  quitting = true;
  if (chip) chip.running = false;
  saveFlash();
  emit({ ev: 'saved', path: opt.flash });
  process.stdout.end(() => process.exit(0));
  setTimeout(() => process.exit(0), 500);
}
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, quit);
process.on('exit', () => { if (!quitting) saveFlash(); });

emit({ ev: 'ready', flash: opt.flash, fresh });
if (!opt['no-boot']) boot('start');
