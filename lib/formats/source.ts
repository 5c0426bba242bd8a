import { createReadStream } from 'node:fs';
import { open, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { PROBE_BYTES, type Probe, type SourceDir, type SourceFile } from './importer';

/** A file on disk, read lazily. */
export function fileSource(filePath: string, size: number): SourceFile {
  return {
    path: filePath,
    diskPath: filePath,
    size,
    readText: () => readFile(filePath, 'utf8'),
    readBytes: async () => new Uint8Array(await readFile(filePath)),
    head: async (n) => {
      const handle = await open(filePath, 'r');
      try {
        const buffer = new Uint8Array(Math.min(n, size));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        return buffer.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },
    chunks: () => createReadStream(filePath) as AsyncIterable<Uint8Array>,
    lines: () => streamLines(filePath),
  };
}

async function* streamLines(filePath: string): AsyncIterable<string> {
  const rl = createInterface({ input: createReadStream(filePath, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

/** In-memory text or bytes (HTTP bodies, stdin, tests). */
export function memorySource(name: string, content: string | Uint8Array): SourceFile {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  const text = () => (typeof content === 'string' ? content : new TextDecoder().decode(content));
  return {
    path: name,
    size: bytes.byteLength,
    readText: async () => text(),
    readBytes: async () => bytes,
    head: async (n) => bytes.subarray(0, n),
    chunks: async function* () {
      yield bytes;
    },
    lines: async function* () {
      const all = text().split(/\r?\n/);
      if (all.length > 0 && all[all.length - 1] === '') all.pop();
      yield* all;
    },
  };
}

/** A directory on disk. */
export function dirSource(dirPath: string): SourceDir {
  return {
    path: dirPath,
    list: async () => {
      const entries = await readdir(dirPath, { recursive: true, withFileTypes: true });
      return entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(dirPath, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
        .sort();
    },
    file: async (rel) => {
      const full = path.join(dirPath, ...rel.split('/'));
      try {
        const s = await stat(full);
        return s.isFile() ? fileSource(full, s.size) : null;
      } catch {
        return null;
      }
    },
  };
}

/** An in-memory directory: relative path -> content (tests, uploaded archives). */
export function memoryDir(name: string, files: Record<string, string | Uint8Array>): SourceDir {
  return {
    path: name,
    list: async () => Object.keys(files).sort(),
    file: async (rel) => {
      const content = files[rel];
      return content === undefined ? null : memorySource(`${name}/${rel}`, content);
    },
  };
}

/**
 * What detection sees of a file: its first PROBE_BYTES, as bytes and as text. `wholeText`: the
 * whole file already decoded (UTF-8, as Buffer's toString), for a file no longer than
 * PROBE_BYTES: the same text, not decoded a second time.
 */
export async function probeFile(file: SourceFile, wholeText?: string): Promise<Probe> {
  const headBytes = await file.head(PROBE_BYTES);
  // what TextDecoder gives (invalid bytes as U+FFFD, a leading BOM dropped) at a fraction of its cost (~150 µs on 64 KiB)
  const text =
    wholeText !== undefined && headBytes.byteLength === file.size
      ? wholeText
      : Buffer.from(headBytes.buffer, headBytes.byteOffset, headBytes.byteLength).toString('utf8');
  return { kind: 'file', path: file.path, head: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, headBytes };
}

export async function probeDir(dir: SourceDir): Promise<Probe> {
  return { kind: 'dir', path: dir.path, entries: await dir.list() };
}
