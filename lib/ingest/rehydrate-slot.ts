import type { ParsedSlot } from './parse-collected';

/**
 * Buffers cross a thread as Uint8Arrays: the writer needs Buffers back (node-postgres sends a Buffer as
 * bytea). For the parse pool and the web's body-parse thread (a module of its own: the latter is reached
 * from an API route, and Next's bundler must not trace parse-pool.ts's worker entry).
 */
export function rehydrate(parsed: ParsedSlot): ParsedSlot {
  if (!parsed.slot.ok) return parsed;
  const s = parsed.slot.storable;
  const buffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  s.stepCopy = s.stepCopy.map(buffer);
  if (s.terminal) s.terminal = { ...s.terminal, gzipped: buffer(s.terminal.gzipped) };
  if (s.source) s.source = { ...s.source, content: buffer(s.source.content) };
  return parsed;
}
