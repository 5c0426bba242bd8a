import type { FormatName, Trajectory } from './trajectory';

/**
 * The contract every importer in lib/formats/<format>.ts implements.
 * Importers are pure readers: they read through the Source interfaces below (never `fs`
 * directly), touch no database and no clock, and yield one item per trajectory found.
 */

export interface SourceFile {
  /** path as the user gave it (or a pseudo path such as `stdin` / `request`) */
  path: string;
  /** set when the bytes are a file on disk (another thread can read it there) */
  diskPath?: string;
  size: number;
  readText(): Promise<string>;
  readBytes(): Promise<Uint8Array>;
  /** the first `n` bytes (for detection) without reading the rest */
  head(n: number): Promise<Uint8Array>;
  /** the raw bytes, streamed */
  chunks(): AsyncIterable<Uint8Array>;
  /** the file as text lines, streamed (no trailing '\n'; a final empty line is not yielded) */
  lines(): AsyncIterable<string>;
}

export interface SourceDir {
  path: string;
  /** relative paths of every file below the directory, '/'-separated, sorted */
  list(): Promise<string[]>;
  /** a file by relative path, or null when absent */
  file(relativePath: string): Promise<SourceFile | null>;
}

export type ImportInput = { kind: 'file'; file: SourceFile } | { kind: 'dir'; dir: SourceDir };

/** What detection sees: the start of a file, or a directory's listing. */
export type Probe = { kind: 'file'; path: string; head: string; headBytes: Uint8Array } | { kind: 'dir'; path: string; entries: string[] };

/** `where` says where in the input: `line 12`, a JSON pointer `/steps/3/tool_calls/0`, `zip entry samples/x.json`, a relative file path, or a combination (`agent/trajectory.json /steps/2`). */
export type ParsedItem = { ok: true; trajectory: Trajectory; where: string } | { ok: false; where: string; message: string };

export interface Importer {
  format: FormatName;
  /** cheap content sniffing, never the file name alone */
  detect(probe: Probe): boolean;
  parse(input: ImportInput): AsyncIterable<ParsedItem>;
}

export const PROBE_BYTES = 64 * 1024;
