import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ImportInput, Importer, ParsedItem, Probe } from './importer';
import { dirSource, fileSource, memorySource, probeDir, probeFile } from './source';
import type { Trajectory } from './trajectory';

/** Test helpers for the chat-style importers' tests (fixtures under lib/formats/fixtures). */

export const fixturesRoot = path.join(import.meta.dirname, 'fixtures');

export async function fixtureInput(rel: string): Promise<ImportInput> {
  const full = path.join(fixturesRoot, rel);
  const s = await stat(full);
  return s.isDirectory() ? { kind: 'dir', dir: dirSource(full) } : { kind: 'file', file: fileSource(full, s.size) };
}

export async function probeOf(input: ImportInput): Promise<Probe> {
  return input.kind === 'dir' ? probeDir(input.dir) : probeFile(input.file);
}

export function memoryInput(name: string, content: string): ImportInput {
  return { kind: 'file', file: memorySource(name, content) };
}

export async function collect(importer: Importer, input: ImportInput): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const item of importer.parse(input)) items.push(item);
  return items;
}

/** The trajectories of items that must all be ok (fails the test with the error otherwise). */
export function trajectories(items: ParsedItem[]): Trajectory[] {
  return items.map((item) => {
    if (!item.ok) throw new Error(`expected ok item, got error at ${item.where}: ${item.message}`);
    return item.trajectory;
  });
}

export function only(items: ParsedItem[]): Trajectory {
  if (items.length !== 1) throw new Error(`expected exactly one item, got ${items.length}`);
  const [t] = trajectories(items);
  if (!t) throw new Error('no trajectory');
  return t;
}

export function errors(items: ParsedItem[]): { where: string; message: string }[] {
  return items.flatMap((item) => (item.ok ? [] : [{ where: item.where, message: item.message }]));
}
