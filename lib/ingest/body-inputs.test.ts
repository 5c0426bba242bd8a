import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../formats/detect';
import type { ParsedItem } from '../formats/importer';
import { getImporter } from '../formats/registry';
import { memorySource, probeFile } from '../formats/source';
import { deflatedEntry, writeZip } from '../formats/zip-testing';
import { bodyImport, bodyInputs } from './body-inputs';
import type { CollectedInput } from './collect-inputs';

const fixtures = path.join(import.meta.dirname, '..', 'formats', 'fixtures');
const log = JSON.parse(readFileSync(path.join(fixtures, 'inspect', 'log.json'), 'utf8')) as {
  samples: { id: string | number; epoch: number }[];
} & Record<string, unknown>;

/** An Inspect `.eval` (header.json + samples/<id>_epoch_<n>.json, deflated) from the JSON fixture. */
function evalArchive(): Uint8Array {
  const { samples, ...header } = log;
  return writeZip([
    deflatedEntry('header.json', JSON.stringify(header)),
    ...samples.map((s) => deflatedEntry(`samples/${s.id}_epoch_${s.epoch}.json`, JSON.stringify(s))),
  ]);
}

/** What the import does with each input before storing: detect the format from content, parse. */
async function parseAll(inputs: CollectedInput[]): Promise<{ format: string | null; items: ParsedItem[] }[]> {
  const out = [];
  for (const c of inputs) {
    if (!c.ok || c.input.kind !== 'file') throw new Error('expected a file input');
    const format = detectFormat(await probeFile(c.input.file));
    const items: ParsedItem[] = [];
    if (format) for await (const item of getImporter(format).parse(c.input)) items.push(item);
    out.push({ format, items });
  }
  return out;
}

describe('API bodies (issue 14, item 9)', () => {
  it('an Inspect .eval zip posted as bytes imports like the file does, whatever the content type says', async () => {
    const zip = evalArchive();
    const asFile = await parseAll([{ ok: true, path: 'run.eval', input: { kind: 'file', file: memorySource('run.eval', zip) } }]);
    expect(asFile[0]!.items.filter((i) => i.ok).length).toBeGreaterThan(0);
    for (const contentType of ['application/zip', 'application/octet-stream', 'application/json', 'application/x-ndjson', '']) {
      const inputs = await bodyInputs(zip, contentType, 'auto');
      expect(inputs.map((i) => i.path)).toEqual(['body']);
      const [parsed] = await parseAll(inputs);
      expect(parsed!.format).toBe('inspect');
      expect(parsed!.items.map((i) => (i.ok ? i.trajectory.externalId : i.message))).toEqual(
        asFile[0]!.items.map((i) => (i.ok ? i.trajectory.externalId : i.message)),
      );
    }
    // what the route did before: the body decoded as UTF-8 text corrupts the zip
    const decoded = new TextEncoder().encode(Buffer.from(zip).toString('utf8'));
    const [broken] = await parseAll(await bodyInputs(decoded, 'application/octet-stream', 'auto'));
    expect(broken!.items.every((i) => !i.ok)).toBe(true);
  });

  it('NDJSON still becomes one input a line, a session log stays one document, and an empty body is refused', async () => {
    const sim = readFileSync(path.join(fixtures, 'tau2', 'simulation.json'), 'utf8');
    const line = JSON.stringify(JSON.parse(sim));
    const batch = await bodyInputs(Buffer.from(`${line}\n\n${line}\r\n`), 'application/x-ndjson', 'auto');
    expect(batch.map((i) => i.path)).toEqual(['line 1', 'line 3']);
    const session = readFileSync(path.join(fixtures, 'coding-agents', 'claude-code-session.jsonl'));
    expect((await bodyInputs(session, 'application/x-ndjson', 'auto')).map((i) => i.path)).toEqual(['body']);
    expect((await bodyInputs(Buffer.from(sim), 'application/json', 'auto')).map((i) => i.path)).toEqual(['body']);
    await expect(bodyInputs(Buffer.from(' \n\t'), 'application/json', 'auto')).rejects.toThrow('empty body: send one JSON document');
    await expect(bodyInputs(new Uint8Array(0), 'application/zip', 'auto')).rejects.toThrow('empty body');
  });
});

/** Every file below `dir` as a zip entry named `prefix/<relative path>` (what the import page zips of a dropped folder). */
function folderEntries(dir: string, prefix: string) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const full = path.join(e.parentPath, e.name);
      return deflatedEntry(`${prefix}/${path.relative(dir, full).split(path.sep).join('/')}`, readFileSync(full));
    });
}

async function drain(inputs: AsyncIterable<CollectedInput> | CollectedInput[]): Promise<CollectedInput[]> {
  const out: CollectedInput[] = [];
  for await (const c of inputs) out.push(c);
  return out;
}

const limits = { maxFileBytes: 1024 * 1024, maxTotalBytes: 8 * 1024 * 1024 };

describe('a zip of runs (issue 44: the import page sends a dropped folder or .zip)', () => {
  it('is expanded with its relative paths kept and collected as `witness import DIR` collects: a Harbor trial stays one input', async () => {
    const zip = writeZip([
      ...folderEntries(path.join(fixtures, 'harbor', 'trial-basic'), 'runs/trial-basic'),
      deflatedEntry('runs/loose/simulation.json', readFileSync(path.join(fixtures, 'tau2', 'simulation.json'))),
      deflatedEntry('runs/atif.json', readFileSync(path.join(fixtures, 'atif', 'basic.json'))),
      deflatedEntry('__MACOSX/runs/._atif.json', 'resource fork'),
      deflatedEntry('runs/.DS_Store', 'finder'),
    ]);
    const { inputs, dispose } = await bodyImport(zip, 'application/zip', 'auto', limits);
    const collected = await drain(inputs);
    expect(collected.map((c) => [c.path, c.ok && c.input.kind])).toEqual([
      ['runs/atif.json', 'file'],
      ['runs/loose/simulation.json', 'file'],
      ['runs/trial-basic', 'dir'],
    ]);
    const trial = collected[2]!;
    if (!trial.ok || trial.input.kind !== 'dir') throw new Error('expected the trial as one directory input');
    expect(trial.input.dir.path).toBe('runs/trial-basic');
    expect(await trial.input.dir.list()).toContain('agent/trajectory.json');
    const harbor = getImporter('harbor');
    const items: ParsedItem[] = [];
    for await (const item of harbor.parse(trial.input)) items.push(item);
    expect(items.filter((i) => i.ok)).toHaveLength(1);
    const [atif, sim] = await parseAll(collected.slice(0, 2));
    expect([atif!.format, sim!.format]).toEqual(['atif', 'tau2']);
    // the temporary directory is gone once disposed
    const disk = (collected[0]!.ok && collected[0]!.input.kind === 'file' && collected[0]!.input.file.diskPath) || '';
    expect(existsSync(disk)).toBe(true);
    await dispose();
    expect(existsSync(disk)).toBe(false);
  });

  it('an Inspect .eval is still one Inspect document, as application/zip or not', async () => {
    for (const contentType of ['application/zip', 'application/octet-stream']) {
      const { inputs, dispose } = await bodyImport(evalArchive(), contentType, 'auto', limits);
      const collected = await drain(inputs);
      expect(collected.map((c) => c.path)).toEqual(['body']);
      const [parsed] = await parseAll(collected);
      expect(parsed!.format).toBe('inspect');
      expect(parsed!.items.filter((i) => i.ok).length).toBeGreaterThan(0);
      await dispose();
    }
  });

  it('a zip with nothing witness import reads (only hidden entries) is one failure, not an import of nothing', async () => {
    const { inputs, dispose } = await bodyImport(
      writeZip([deflatedEntry('__MACOSX/._run.json', Buffer.from('x')), deflatedEntry('.DS_Store', Buffer.from('x'))]),
      'application/zip',
      'auto',
      limits,
    );
    const collected = await drain(inputs);
    expect(collected).toEqual([
      { ok: false, path: '.', where: 'zip', message: expect.stringMatching(/^the zip holds no file witness import reads/) },
    ]);
    await dispose();
  });

  it('reports an entry over the import limit and refuses names that leave the archive or a zip that expands too far', async () => {
    const atif = readFileSync(path.join(fixtures, 'atif', 'basic.json'));
    const { inputs, dispose } = await bodyImport(
      writeZip([deflatedEntry('big.json', Buffer.alloc(2048, 0x20)), deflatedEntry('ok.json', atif)]),
      'application/zip',
      'auto',
      { maxFileBytes: 1024, maxTotalBytes: 1024 * 1024 },
    );
    const collected = await drain(inputs);
    expect(collected.map((c) => [c.path, c.ok])).toEqual([
      ['big.json', false],
      ['ok.json', false], // the CLI's limit applies to every file: ok.json is over 1 KiB too
    ]);
    expect(collected[0]!.ok ? '' : collected[0]!.message).toMatch(/over the import limit of 0\.0 MiB \(raise WITNESS_IMPORT_MAX_MB/);
    await dispose();
    await expect(bodyImport(writeZip([deflatedEntry('../escape.json', atif)]), 'application/zip', 'auto', limits)).rejects.toThrow(
      'zip entry "../escape.json": its name leaves the archive',
    );
    await expect(
      bodyImport(writeZip([deflatedEntry('a.json', Buffer.alloc(4096, 0x20))]), 'application/zip', 'auto', {
        maxFileBytes: 8192,
        maxTotalBytes: 1024,
      }),
    ).rejects.toThrow('the zip expands to 0.0 MiB, over the limit');
  });
});
