import { stat } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { ImportInput, Importer, ParsedItem, Probe } from './importer';
import { dirSource, fileSource, memorySource, probeDir, probeFile } from './source';
import { trajectorySchema, type Trajectory } from './trajectory';

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

/** What detection sees of a fixture. */
export async function fixtureProbe(rel: string): Promise<Probe> {
  return probeOf(await fixtureInput(rel));
}

/** What detection sees of a file from its head alone (a big file, cut mid-way). */
export function headProbe(path: string, head: string): Probe {
  return { kind: 'file', path, head, headBytes: new TextEncoder().encode(head) };
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

/** The one trajectory an input gives, checked to be the normalised model already (the schema changes nothing). */
export async function onlyNormalised(importer: Importer, input: ImportInput): Promise<Trajectory> {
  const t = only(await collect(importer, input));
  expect(trajectorySchema.parse(t)).toEqual(t);
  return t;
}

export function errors(items: ParsedItem[]): { where: string; message: string }[] {
  return items.flatMap((item) => (item.ok ? [] : [{ where: item.where, message: item.message }]));
}

/** The error an input whose JSON is cut short at `line N` gives, naming the column. */
export function jsonCutAt(line: number): { where: string; message: unknown } {
  return {
    where: `line ${line}`,
    message: expect.stringMatching(new RegExp(`^invalid JSON at line ${line}, column \\d+: unexpected end of input`)),
  };
}
