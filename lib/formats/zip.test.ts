import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ParsedItem } from './importer';
import { inspectImporter, MAX_ENTRY_BYTES } from './inspect';
import { memorySource } from './source';
import { inflateZipEntry, readZipDirectory } from './zip';
import { bombEntry, deflatedEntry, writeZip, type RawZipEntry } from './zip-testing';

// the Inspect log layout (header.json + samples/<id>_epoch_<n>.json), from the JSON fixture
const log = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', 'inspect', 'log.json'), 'utf8')) as {
  samples: { id: string | number; epoch: number }[];
} & Record<string, unknown>;
const { samples, ...header } = log;
const realEntries = (): RawZipEntry[] => [
  deflatedEntry('header.json', JSON.stringify(header)),
  ...samples.map((s) => deflatedEntry(`samples/${s.id}_epoch_${s.epoch}.json`, JSON.stringify(s))),
];

/** What the archive without the hostile entries gives (the fixture has one sample that fails on its own). */
const baseline = async () => {
  const items = await parse(writeZip(realEntries()));
  return { ok: items.filter((i) => i.ok).length, failed: items.filter((i) => !i.ok) };
};

async function parse(bytes: Uint8Array): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const item of inspectImporter.parse({ kind: 'file', file: memorySource('run.eval', bytes) })) items.push(item);
  return items;
}

/** Peak resident memory (bytes) over `fn`, from VmHWM after resetting it; null where /proc cannot do that. */
async function peakRssOver(fn: () => Promise<unknown>): Promise<number | null> {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    await fn();
    return null;
  }
  await fn();
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : null;
}

describe('zip reading', { timeout: 60_000 }, () => {
  it("reads what fflate's zipSync writes (stored and deflated entries, UTF-8 names) byte for byte", () => {
    const files = { 'a.json': strToU8('{"x":1}'), 'dir/ü.txt': strToU8('x'.repeat(10_000)), 'empty.txt': new Uint8Array(0) };
    const zip = zipSync(files);
    const entries = readZipDirectory(zip);
    expect(entries.map((e) => e.name).sort()).toEqual(Object.keys(files).sort());
    for (const e of entries) expect(Buffer.from(inflateZipEntry(zip, e))).toEqual(Buffer.from(files[e.name as keyof typeof files]));
  });

  it('refuses an entry that inflates past its declared size, at once and without inflating the rest', () => {
    // declares 1,000 bytes, holds 1 GiB of zeros in ~1 MB
    const zip = writeZip([bombEntry('samples/liar_epoch_1.json', 1024, { size: 1000 })]);
    expect(zip.byteLength).toBeLessThan(2 * 1024 * 1024);
    const [entry] = readZipDirectory(zip);
    expect(() => inflateZipEntry(zip, entry!)).toThrow(
      'it inflates past its declared size of 1000 bytes (a corrupt or hostile archive): refused',
    );
  });

  it('names a truncated archive and a damaged CRC', () => {
    const zip = writeZip(realEntries());
    expect(() => readZipDirectory(zip.subarray(0, zip.length - 10))).toThrow(/no end of central directory record/);
    const wrongCrc = writeZip([{ ...deflatedEntry('header.json', '{}'), crc: 12345 }]);
    expect(() => inflateZipEntry(wrongCrc, readZipDirectory(wrongCrc)[0]!)).toThrow('CRC-32 mismatch (a corrupt archive)');
  });
});

describe('Inspect .eval zip bombs (issue 14, item 10)', { timeout: 60_000 }, () => {
  it('refuses a sample entry declared over the per-entry limit unread, and imports the other samples', async () => {
    const bomb = bombEntry('samples/bomb_epoch_1.json', 512); // ~0.5 MB that inflates to 512 MiB
    expect(bomb.size).toBeGreaterThan(MAX_ENTRY_BYTES);
    const zip = writeZip([...realEntries(), bomb]);
    let items: ParsedItem[] = [];
    const peak = await peakRssOver(async () => (items = await parse(zip)));
    const base = await baseline();
    expect(base.ok).toBeGreaterThan(0);
    expect(items.filter((i) => i.ok)).toHaveLength(base.ok);
    expect(items.filter((i) => !i.ok)).toEqual([
      ...base.failed,
      {
        ok: false,
        where: 'zip entry samples/bomb_epoch_1.json',
        message: 'zip entry samples/bomb_epoch_1.json: inflates to 512.0 MiB, over the limit of 128.0 MiB for one entry: refused unread',
      },
    ]);
    if (peak !== null) expect(peak).toBeLessThan(400 * 1024 * 1024); // the bomb alone is 512 MiB
  });

  it('refuses a whole log whose samples declare more than the per-log limit, before inflating any', async () => {
    // 12 entries of 100 MiB each: every one under the entry limit, 1.2 GiB together, ~1.2 MB on disk
    const bombs = Array.from({ length: 12 }, (_, i) => bombEntry(`samples/b${i}_epoch_1.json`, 100));
    const zip = writeZip([...realEntries(), ...bombs]);
    const items = await parse(zip);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ ok: false, where: 'run.eval' });
    expect(!items[0]!.ok && items[0]!.message).toMatch(
      /^the archive's header and samples inflate to 1200\.0 MiB, over the limit of 1024\.0 MiB for one log \(1\.\d MiB compressed\): refused unread/,
    );
  });

  it('a sample that lies about its size fails alone, with where and what', async () => {
    const zip = writeZip([...realEntries(), bombEntry('samples/liar_epoch_1.json', 256, { size: 4096 })]);
    const items = await parse(zip);
    const base = await baseline();
    expect(items.filter((i) => i.ok)).toHaveLength(base.ok);
    expect(items.filter((i) => !i.ok).at(-1)).toEqual({
      ok: false,
      where: 'zip entry samples/liar_epoch_1.json',
      message:
        'zip entry samples/liar_epoch_1.json: it inflates past its declared size of 4096 bytes (a corrupt or hostile archive): refused',
    });
  });
});
