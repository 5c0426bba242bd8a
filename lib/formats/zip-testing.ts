import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Test helpers (no test runner here): zip archives written byte by byte (APPNOTE.TXT 4.3.7 local
 * headers, 4.3.12 central directory, 4.3.16 end record), so a test can build what a real
 * archiver writes and what a hostile one does: a "zip bomb" whose one entry inflates to GiBs.
 */

export interface RawZipEntry {
  name: string;
  /** what is stored after the local header */
  data: Uint8Array;
  method: 0 | 8;
  /** the inflated size and CRC-32 the archive declares */
  size: number;
  crc: number;
}

/** An entry deflated for real (declared size and CRC true). */
export function deflatedEntry(name: string, content: string | Uint8Array): RawZipEntry {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return { name, data: deflateRawSync(bytes), method: 8, size: bytes.byteLength, crc: crc32(bytes) >>> 0 };
}

/**
 * An entry that inflates to `mib` MiB of zeros from about 1 KB a MiB: one full-flushed deflate
 * block of 1 MiB of zeros (byte-aligned, the dictionary reset, so every copy decodes the same)
 * repeated, then an empty final block. Declares its true size and CRC unless told otherwise.
 */
export function bombEntry(name: string, mib: number, declare?: { size: number }): RawZipEntry {
  const data = Buffer.concat([...Array.from({ length: mib }, () => zeroPiece()), Buffer.from([0x03, 0x00])]);
  return { name, data, method: 8, size: declare?.size ?? mib * 1024 * 1024, crc: zerosCrc(mib) };
}

const ZEROS = Buffer.alloc(1024 * 1024);
let piece: Buffer | null = null;
const zeroPiece = () => (piece ??= deflateRawSync(ZEROS, { level: 9, finishFlush: constants.Z_FULL_FLUSH }));
const crcs = new Map<number, number>();
/** CRC-32 of `mib` MiB of zeros (computed once a size). */
function zerosCrc(mib: number): number {
  let crc = crcs.get(mib);
  if (crc === undefined) {
    crc = 0;
    for (let i = 0; i < mib; i++) crc = crc32(ZEROS, crc);
    crcs.set(mib, (crc = crc >>> 0));
  }
  return crc;
}

export function writeZip(entries: RawZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.data.byteLength, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.data.byteLength, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.data));
    centrals.push(central, name);
    offset += 30 + name.length + e.data.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
