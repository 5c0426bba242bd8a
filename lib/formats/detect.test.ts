import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { asciinemaImporter } from './asciinema';
import { atifImporter } from './atif';
import { detectFormat, detectionOrder, detectWith } from './detect';
import { harborImporter } from './harbor';
import type { Importer } from './importer';
import { inspectImporter } from './inspect';
import { dirSource, memorySource, probeDir, probeFile } from './source';
import { formatNames } from './trajectory';

// Only this engineer's importers: the registry's other importers are tested in their own files.
vi.mock('./registry', async () => {
  const [h, a, c, i] = await Promise.all([import('./harbor'), import('./atif'), import('./asciinema'), import('./inspect')]);
  return { importers: { harbor: h.harborImporter, atif: a.atifImporter, asciinema: c.asciinemaImporter, inspect: i.inspectImporter } };
});

const fixtures = path.join(import.meta.dirname, 'fixtures');
const text = (rel: string) => readFile(path.join(fixtures, rel), 'utf8');

describe('detectFormat', () => {
  it('orders every format exactly once', () => {
    expect([...detectionOrder].sort()).toEqual([...formatNames].sort());
  });

  it('recognises each of this module’s formats by content, whatever the name', async () => {
    const probe = async (content: string | Uint8Array) => detectFormat(await probeFile(memorySource('upload.bin', content)));
    expect(detectFormat(await probeDir(dirSource(path.join(fixtures, 'harbor', 'trial-basic'))))).toBe('harbor');
    expect(await probe(await text('atif/basic.json'))).toBe('atif');
    expect(await probe(await text('asciinema/timeline-v2.cast'))).toBe('asciinema');
    expect(await probe(await text('asciinema/timeline-v3.cast'))).toBe('asciinema');
    expect(await probe(await text('inspect/log.json'))).toBe('inspect');
    expect(await probe(zipSync({ 'header.json': strToU8('{}'), 'samples/1_epoch_1.json': strToU8('{}') }))).toBe('inspect');
    expect(await probe('')).toBeNull();
    expect(await probe('hello world')).toBeNull();
    expect(await probe('{"messages": []}')).toBeNull();
  });

  it('tries the most specific detector first and survives a throwing one', () => {
    const claimAll = (format: Importer['format']): Importer => ({ format, detect: () => true, parse: async function* () {} });
    const probe = { kind: 'file' as const, path: 'x', head: '{}', headBytes: new Uint8Array() };
    expect(detectWith(probe, { openai: claimAll('openai'), atif: claimAll('atif') })).toBe('atif');
    const throwing: Importer = {
      format: 'harbor',
      detect: () => {
        throw new Error('boom');
      },
      parse: async function* () {},
    };
    expect(detectWith(probe, { harbor: throwing, openai: claimAll('openai') })).toBe('openai');
    expect(detectWith(probe, {})).toBeNull();
  });

  it('keeps the four importers’ detectors disjoint on each other’s fixtures', async () => {
    const mine = [harborImporter, atifImporter, asciinemaImporter, inspectImporter];
    const probes = [
      await probeFile(memorySource('a', await text('atif/basic.json'))),
      await probeFile(memorySource('b', await text('asciinema/bursts.cast'))),
      await probeFile(memorySource('c', await text('inspect/log.json'))),
      await probeDir(dirSource(path.join(fixtures, 'harbor'))),
    ];
    for (const p of probes) expect(mine.filter((i) => i.detect(p))).toHaveLength(1);
  });
});
