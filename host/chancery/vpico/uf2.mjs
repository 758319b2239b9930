// UF2 reading for the virtual Pico: check that a file is firmware for a Raspberry Pi Pico
// (RP2040, its flash at 0x10000000) before it is laid into the flash image, so a UF2 for
// another board fails with a message naming what it is instead of a chip that never boots.

export const RP2040_FAMILY = 0xe48bff56;
export const FLASH_BASE = 0x10000000;
export const FLASH_SIZE = 16 * 1024 * 1024;
export const DOWNLOAD = 'https://micropython.org/download/RPI_PICO/';

const MAGIC_START0 = 0x0a324655, MAGIC_START1 = 0x9e5d5157, MAGIC_END = 0x0ab16f30;
const FLAG_NOT_MAIN_FLASH = 0x1, FLAG_FAMILY_ID = 0x2000;

// Family ids from Microsoft's uf2 families list that a wrong download is likely to carry.
const FAMILIES = {
  0xe48bff59: 'an RP2350 (Raspberry Pi Pico 2, ARM) UF2',
  0xe48bff5a: 'an RP2350 (Raspberry Pi Pico 2, RISC-V) UF2',
  0xe48bff5b: 'an RP2350 (Raspberry Pi Pico 2, ARM non-secure) UF2',
  0xe48bff57: 'an RP2XXX absolute-address UF2 (not a firmware image)',
  0xe48bff58: 'an RP2XXX data UF2 (not a firmware image)',
  0xc47e5767: 'an ESP32-S3 UF2',
  0xbfdd4eee: 'an ESP32-S2 UF2',
  0x68ed2b88: 'a SAMD21 UF2',
  0x55114460: 'a SAMD51 UF2',
  0xada52840: 'an nRF52840 UF2',
  0x57755a57: 'an STM32F4 UF2',
};

export class Uf2Error extends Error {}

function wrong(path, what) {
  return new Uf2Error(`${path} is ${what}, not firmware for a Raspberry Pi Pico (RP2040). ` +
    `Download MicroPython's RPI_PICO .uf2 from ${DOWNLOAD}`);
}

// The blocks of a UF2 file as [flash offset, payload] pairs, checked.
export function readUf2(path, bytes) {
  if (bytes.length < 512 || bytes.length % 512 !== 0) throw wrong(path, 'not a UF2 file (its size is not whole 512-byte blocks)');
  const blocks = [];
  for (let off = 0; off < bytes.length; off += 512) {
    const b = bytes.subarray(off, off + 512);
    const dv = new DataView(b.buffer, b.byteOffset, 512);
    const word = (at) => dv.getUint32(at, true);
    if (word(0) !== MAGIC_START0 || word(4) !== MAGIC_START1 || word(508) !== MAGIC_END) {
      throw wrong(path, `not a UF2 file (block ${off / 512} lacks the UF2 magic numbers)`);
    }
    const flags = word(8), addr = word(12), size = word(16);
    if (flags & FLAG_NOT_MAIN_FLASH) continue;
    if (flags & FLAG_FAMILY_ID) {
      const family = word(28);
      if (family !== RP2040_FAMILY) {
        throw wrong(path, FAMILIES[family] ?? `a UF2 for family 0x${family.toString(16)}`);
      }
    }
    if (addr < FLASH_BASE || addr + size > FLASH_BASE + FLASH_SIZE || size > 476) {
      throw wrong(path, `a UF2 whose blocks target 0x${addr.toString(16)} (an RP2040 firmware starts at 0x10000000)`);
    }
    blocks.push([addr - FLASH_BASE, b.subarray(32, 32 + size)]);
  }
  if (!blocks.length) throw wrong(path, 'a UF2 with no blocks for the main flash');
  // The Pico W's firmware is RP2040 too, but waits for its wireless chip, which is not here.
  const text = Buffer.concat(blocks.map(([, p]) => p));
  if (text.includes('Raspberry Pi Pico W')) throw wrong(path, 'firmware for the Pico W (RPI_PICO_W, its CYW43 wireless chip is not modelled)');
  return blocks;
}
