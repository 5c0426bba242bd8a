import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ParsedItem, SourceFile } from './importer';
import { inspectImporter, scoreNumber } from './inspect';
import { memorySource, probeFile } from './source';
import { trajectorySchema, type Trajectory } from './trajectory';

const logText = () => readFile(path.join(import.meta.dirname, 'fixtures', 'inspect', 'log.json'), 'utf8');

async function importFile(file: SourceFile): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const item of inspectImporter.parse({ kind: 'file', file })) items.push(item);
  return items;
}

/** Builds an `.eval` archive (the layout Inspect writes) from the JSON fixture. */
async function evalZip(options: { header?: boolean; start?: boolean; corrupt?: string } = {}): Promise<Uint8Array> {
  const log = JSON.parse(await logText()) as { samples: { id: string | number; epoch: number }[] } & Record<string, unknown>;
  const { samples, ...header } = log;
  const files: Record<string, Uint8Array> = {};
  if (options.start ?? true) files['_journal/start.json'] = strToU8(JSON.stringify({ version: 2, eval: header.eval, plan: header.plan }));
  for (const s of samples) files[`samples/${s.id}_epoch_${s.epoch}.json`] = strToU8(JSON.stringify(s, null, 2));
  if (options.corrupt) files[options.corrupt] = strToU8('{\n  "id": "broken",\n  "epoch": 1,');
  files['summaries.json'] = strToU8(JSON.stringify(samples.map((s) => ({ id: s.id, epoch: s.epoch }))));
  files['reductions.json'] = strToU8('[]');
  if (options.header ?? true) files['header.json'] = strToU8(JSON.stringify(header));
  return zipSync(files);
}

function trajectories(items: ParsedItem[]): Trajectory[] {
  return items.map((i) => {
    if (!i.ok) throw new Error(`${i.where}: ${i.message}`);
    expect(() => trajectorySchema.parse(i.trajectory)).not.toThrow();
    return i.trajectory;
  });
}

function checkFirstSample(t: Trajectory | undefined) {
  expect(t?.format).toBe('inspect');
  expect(t?.externalId).toBe('add-1_epoch_1');
  expect(t?.task.name).toBe('add-1');
  expect(t?.task.instruction).toBe('What is 17 + 25? Use the calculator.');
  expect(t?.task.acceptanceCriteria).toEqual([{ key: '42', text: '42', origin: 'task', verdict: true }]);
  expect(t?.task.environment).toBe('docker');
  expect(t?.policy).toEqual({ model: 'openai/gpt-4o-mini', checkpoint: null, agent: 'use_tools, generate' });
  expect(t?.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'agent']);
  expect(t?.steps[2]).toMatchObject({
    text: 'Let me compute that.',
    reasoning: 'Simple addition; still call the tool.',
    toolCalls: [{ id: 'call_a', name: 'add', arguments: { x: 17, y: 25 } }],
  });
  expect(t?.steps[3]?.observations).toEqual([{ toolCallId: 'call_a', content: '42', isError: false }]);
  expect(t?.steps[4]?.text).toBe('The answer is 42.'); // attachment resolved
  expect(t?.verifier).toEqual({ reward: 1, components: { match: 1, model_graded_qa: 0.5 } });
  expect(t?.judgeScores).toEqual([
    { judge: 'match', score: 1, label: 'C', explanation: 'The answer is 42.' },
    { judge: 'model_graded_qa', score: 0.5, label: 'P', explanation: 'Correct but verbose.' },
  ]);
  expect(t?.usage).toEqual({ promptTokens: 120, completionTokens: 30, costUsd: null });
  expect(t?.submission).toBe('The answer is 42.');
  expect(t?.exitStatus).toBe('stop');
  expect(t?.metadata).toMatchObject({ epoch: 1, runId: 'Rn8pL1', evalId: 'Ev4xQ2', totalTime: 2.5 });
  expect(t?.task.metadata).toEqual({ inspectTask: 'arith_agent', sample: { difficulty: 'easy' } });
}

describe('inspect .json logs', () => {
  it('yields one trajectory per sample x epoch', async () => {
    const items = await importFile(memorySource('log.json', await logText()));
    expect(items.map((i) => i.where)).toEqual(['/samples/0', '/samples/1', '/samples/2', '/samples/3']);
    const ts = trajectories(items.slice(0, 3));
    checkFirstSample(ts[0]);

    const [, second, third] = ts;
    expect(second?.externalId).toBe('add-1_epoch_2');
    expect(second?.verifier?.reward).toBe(0);
    expect(second?.task.acceptanceCriteria[0]?.verdict).toBe(false);
    expect(second?.steps[2]?.observations).toEqual([{ toolCallId: 'call_b', content: 'missing argument y', isError: true }]);

    expect(third?.task.name).toBe('7');
    expect(third?.task.instruction).toBe('Answer with one word.\n\nName the colour of this square.\n[image]');
    expect(third?.task.acceptanceCriteria.map((c) => [c.key, c.verdict])).toEqual([
      ['red', null],
      ['crimson', null],
    ]);
    expect(third?.verifier).toEqual({
      reward: 1,
      components: { match: 1, 'model_graded_qa/accuracy': 1, 'model_graded_qa/confidence': 0.9 },
    });
    expect(third?.judgeScores[1]).toEqual({ judge: 'model_graded_qa', score: null, label: null, explanation: 'fine' });
    expect(third?.exitStatus).toBe('limit:token');

    // a sample that died before any message is refused, with the error its log gives
    expect(items[3]).toEqual({
      ok: false,
      where: '/samples/3',
      message:
        'no steps: this inspect trajectory (task "7") records nothing the agent did and no final answer (exit status "error": RuntimeError: sandbox died), so it is not imported',
    });
  });

  it('names line and column of a truncated log, and rejects an empty one', async () => {
    const text = await logText();
    const [item] = await importFile(memorySource('log.json', text.slice(0, 900)));
    expect(item?.ok).toBe(false);
    if (item?.ok === false) {
      expect(item.where).toMatch(/^line \d+$/);
      expect(item.message).toMatch(/^invalid JSON at line \d+, column \d+: unexpected end of input$/);
    }
    expect(await importFile(memorySource('log.json', ''))).toEqual([
      { ok: false, where: 'log.json', message: 'empty file: expected an Inspect log' },
    ]);
    expect(await importFile(memorySource('log.json', '{"version": 2, "eval": {"task": "t"}}'))).toEqual([
      { ok: false, where: '/samples', message: 'the log has no samples (written with --no-log-samples?)' },
    ]);
  });
});

describe('inspect .eval archives', () => {
  it('reads header.json and every samples/ entry', async () => {
    const items = await importFile(memorySource('run.eval', await evalZip()));
    expect(items.map((i) => i.where)).toEqual([
      'zip entry samples/add-1_epoch_1.json',
      'zip entry samples/add-1_epoch_2.json',
      'zip entry samples/7_epoch_1.json',
      'zip entry samples/7_epoch_2.json',
    ]);
    checkFirstSample(trajectories(items.slice(0, 3))[0]);
    expect(items[3]).toMatchObject({ ok: false, where: 'zip entry samples/7_epoch_2.json', message: expect.stringMatching(/^no steps: /) });
  });

  it('fails a broken sample entry alone, naming the entry and line', async () => {
    const items = await importFile(memorySource('run.eval', await evalZip({ corrupt: 'samples/broken_epoch_1.json' })));
    expect(items).toHaveLength(5);
    const bad = items.find((i) => !i.ok && !i.message.startsWith('no steps: '));
    expect(bad).toEqual({
      ok: false,
      where: 'zip entry samples/broken_epoch_1.json line 3',
      message: 'zip entry samples/broken_epoch_1.json: invalid JSON at line 3, column 14: unexpected end of input',
    });
  });

  it('errors on a zip missing header.json (and no journal)', async () => {
    const items = await importFile(memorySource('run.eval', await evalZip({ header: false, start: false })));
    expect(items).toEqual([
      {
        ok: false,
        where: 'zip entry header.json',
        message: 'zip entry header.json is missing (and no _journal/start.json): not a complete Inspect log',
      },
    ]);
  });

  it('falls back to _journal/start.json for a log still being written', async () => {
    const items = await importFile(memorySource('run.eval', await evalZip({ header: false })));
    const ts = trajectories(items.slice(0, 3));
    expect(items).toHaveLength(4);
    expect(ts[0]?.policy.model).toBe('openai/gpt-4o-mini');
    // no results in the journal: the main scorer is the sample's first score
    expect(ts[0]?.verifier?.reward).toBe(1);
  });

  it('errors on a truncated archive and an empty file', async () => {
    const zip = await evalZip();
    const [item] = await importFile(memorySource('run.eval', zip.subarray(0, zip.length - 30)));
    expect(item).toMatchObject({ ok: false, where: 'run.eval' });
    if (item?.ok === false) expect(item.message).toMatch(/^not a readable zip archive/);
    expect(await importFile(memorySource('run.eval', new Uint8Array()))).toEqual([
      { ok: false, where: 'run.eval', message: 'empty file: expected an Inspect log' },
    ]);
  });

  it('detects .eval archives and .json logs by content', async () => {
    expect(inspectImporter.detect(await probeFile(memorySource('x.bin', await evalZip())))).toBe(true);
    expect(inspectImporter.detect(await probeFile(memorySource('x.txt', await logText())))).toBe(true);
    expect(inspectImporter.detect(await probeFile(memorySource('x.eval', zipSync({ 'a.txt': strToU8('hi') }))))).toBe(false);
    expect(inspectImporter.detect(await probeFile(memorySource('x.json', '{"eval": {}}')))).toBe(false);
  });
});

describe('scoreNumber', () => {
  it('maps Inspect values', () => {
    expect(['C', 'I', 'P', 'N', 'c'].map(scoreNumber)).toEqual([1, 0, 0.5, 0, 1]);
    expect([0.75, true, false, '0.3', '', 'maybe', null, [1]].map(scoreNumber)).toEqual([0.75, 1, 0, 0.3, null, null, null, null]);
  });
});
