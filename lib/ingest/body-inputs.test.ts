import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat } from '../formats/detect';
import type { ParsedItem } from '../formats/importer';
import { getImporter } from '../formats/registry';
import { memorySource, probeFile } from '../formats/source';
import { deflatedEntry, writeZip } from '../formats/zip-testing';
import { bodyInputs } from './body-inputs';
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
