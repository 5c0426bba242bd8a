/**
 * Rows in PostgreSQL's binary COPY format (`COPY ... FROM STDIN (FORMAT binary)`): the file
 * header, then per row its field count and each field as a 32-bit length and its bytes (-1 for
 * NULL), then the trailer. Used where a row carries raw bytes (a raw source's gzip): the text
 * format would send them hex-escaped, twice their size, encoded by this process and decoded by
 * the server.
 *
 * Field values: a string is sent as UTF-8 (text, varchar; the caller makes it storable: no NUL),
 * a Uint8Array as is (bytea), `{ int4 }` as a 4-byte big-endian integer, null as NULL.
 */
export type BinaryField = string | Uint8Array | { int4: number } | null;

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/** The whole COPY data of these rows (each row the same columns as the statement names). */
export function binaryCopyData(rows: BinaryField[][]): Buffer {
  let size = SIGNATURE.length + 8 + 2;
  const encoded: (Buffer | Uint8Array | number | null)[][] = rows.map((row) => {
    size += 2;
    return row.map((field) => {
      size += 4;
      if (field === null) return null;
      if (typeof field === 'string') {
        const bytes = Buffer.from(field, 'utf8');
        size += bytes.byteLength;
        return bytes;
      }
      if (field instanceof Uint8Array) {
        size += field.byteLength;
        return field;
      }
      if (!Number.isInteger(field.int4) || field.int4 < -2147483648 || field.int4 > 2147483647)
        throw new RangeError(`not a 32-bit integer: ${field.int4}`);
      size += 4;
      return field.int4;
    });
  });
  const out = Buffer.allocUnsafe(size);
  let at = SIGNATURE.copy(out, 0);
  at = out.writeInt32BE(0, at); // flags
  at = out.writeInt32BE(0, at); // header extension length
  for (const row of encoded) {
    at = out.writeInt16BE(row.length, at);
    for (const field of row) {
      if (field === null) at = out.writeInt32BE(-1, at);
      else if (typeof field === 'number') {
        at = out.writeInt32BE(4, at);
        at = out.writeInt32BE(field, at);
      } else {
        at = out.writeInt32BE(field.byteLength, at);
        out.set(field, at);
        at += field.byteLength;
      }
    }
  }
  at = out.writeInt16BE(-1, at); // trailer
  if (at !== size) throw new Error(`binary COPY: wrote ${at} of ${size} bytes`);
  return out;
}
