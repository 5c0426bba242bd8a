import { crc32, inflateRawSync } from 'node:zlib';

/**
 * Reading zip archives (Inspect `.eval` logs) at a bounded memory cost, whatever the archive
 * claims: the central directory is read first, every entry's declared size is checked against
 * the caller's limits before anything is inflated, and each entry is inflated with an output
 * limit of its declared size (node:zlib's `maxOutputLength`), so an entry that inflates past
 * what it declared stops there instead of filling memory; its CRC-32 is checked after.
 * (A 410 KB archive can hold 1 GiB of zeros: a deflate stream expands up to ~1,032 times.)
 *
 * Layout: APPNOTE.TXT 6.3 (PKWARE), sections 4.3.7 (local header), 4.3.12 (central directory),
 * 4.3.14-16 (zip64 end records), 4.5.3 (zip64 extra field).
 */

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated */
  method: number;
  compressedSize: number;
  /** the inflated size the archive declares */
  size: number;
  crc: number;
  localHeaderOffset: number;
}

export class ZipError extends Error {}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

const utf8 = new TextDecoder('utf-8');

/** The entries of a zip archive, from its central directory (nothing inflated). */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('no end of central directory record (truncated, or not a zip archive)');
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  if (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const at = Number(view.getBigUint64(eocd - 12, true));
    if (at + 56 > bytes.length || view.getUint32(at, true) !== ZIP64_EOCD) throw new ZipError('bad zip64 end of central directory record');
    count = Number(view.getBigUint64(at + 32, true));
    offset = Number(view.getBigUint64(at + 48, true));
  }
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw new ZipError(`central directory entry ${i + 1} is damaged`);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    if (at + 46 + nameLength + extraLength > bytes.length) throw new ZipError(`central directory entry ${i + 1} is damaged`);
    const name = utf8.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    // zip64: the fields stored as 0xFFFFFFFF are in the extra field, in this order
    for (let e = at + 46 + nameLength; e + 4 <= at + 46 + nameLength + extraLength;) {
      const id = view.getUint16(e, true);
      const length = view.getUint16(e + 2, true);
      if (id === 0x0001) {
        let f = e + 4;
        const next = () => {
          const v = Number(view.getBigUint64(f, true));
          f += 8;
          return v;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
      }
      e += 4 + length;
    }
    entries.push({ name, method, compressedSize, size, crc, localHeaderOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * One entry's bytes: stored or deflated, never more than its declared size (which the caller has
 * checked against its limits), CRC-checked.
 */
export function inflateZipEntry(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) throw new ZipError('its local header is missing (truncated archive?)');
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw new ZipError('its data runs past the end of the archive (truncated?)');
  const data = bytes.subarray(start, end);
  let out: Uint8Array;
  if (entry.method === 0) out = data;
  else if (entry.method === 8) {
    try {
      // one byte over the declared size is enough to know it lied, and no more is ever allocated
      out = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size + 1) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new ZipError(`it inflates past its declared size of ${entry.size} bytes (a corrupt or hostile archive): refused`);
      throw new ZipError(`could not inflate: ${(error as Error).message}`);
    }
  } else throw new ZipError(`unsupported compression method ${entry.method} (expected stored or deflate)`);
  if (out.byteLength !== entry.size)
    throw new ZipError(`it holds ${out.byteLength} bytes, not the ${entry.size} its directory declares (a corrupt or hostile archive)`);
  if (crc32(out) >>> 0 !== entry.crc >>> 0) throw new ZipError('CRC-32 mismatch (a corrupt archive)');
  return out;
}
