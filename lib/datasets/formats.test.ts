import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { defaultDeriveOptions, deriveRows } from './derive';
import { type DatasetFormat, datasetFormats, formatKind, jsonlLine } from './formats';
import type { ItemLabels } from './labels';
import { labelTrajectory, pairItem, singleItem } from './test-items';

/**
 * Golden files (lib/datasets/golden/<format>.jsonl), written by hand from the trainers'
 * documented examples (TRL's "What color is the sky?" preference / unpaired / stepwise
 * examples; a tool-calling turn as transformers' chat templates take it), plus the `witness`
 * provenance column. Compared byte for byte: key order is part of the format.
 */
const toolSteps = buildTrajectory({
  format: 'openai',
  task: { name: 'sky' },
  steps: [
    { source: 'system', text: 'You can look outside.' },
    { source: 'user', text: 'What color is the sky?' },
    {
      source: 'agent',
      text: '',
      toolCalls: [{ id: 'call_1', name: 'look', arguments: { direction: 'up' } }],
      observations: [{ toolCallId: 'call_1', content: 'blue', isError: false }],
    },
    { source: 'agent', text: 'It is blue.' },
  ],
}).steps;

function items(format: DatasetFormat): ItemLabels[] {
  switch (formatKind[format]) {
    case 'preference':
      return [
        pairItem('pair1', [[-2], [-1]], {
          a: labelTrajectory('pair1-a', '', { steps: toolSteps }),
          b: labelTrajectory('pair1-b', '', { steps: [...toolSteps.slice(0, 2), { ...toolSteps[3]!, index: 2, text: 'It is green.' }] }),
        }),
      ];
    case 'steps':
      return [
        singleItem('prm1', [{ quality: 2, verdict: 'reject', wrong: [2] }], {
          trajectory: labelTrajectory('prm1-t', '', {
            steps: buildTrajectory({
              format: 'openai',
              task: { name: 'sky' },
              steps: [
                { source: 'user', text: 'What color is the sky?' },
                { source: 'agent', text: 'The sky scatters blue light most.' },
                { source: 'agent', text: 'So the sky is green.' },
              ],
            }).steps,
          }),
        }),
      ];
    default:
      return [
        singleItem(
          'one',
          [
            { quality: 5, verdict: 'accept' },
            { quality: 4, verdict: 'accept' },
          ],
          { trajectory: labelTrajectory('one-t', '', { steps: toolSteps, referenceAnswer: 'blue' }) },
        ),
        singleItem('two', [{ quality: 1, verdict: 'reject' }], { trajectory: labelTrajectory('two-t', 'It is green.') }),
      ];
  }
}

function render(format: DatasetFormat): string {
  return deriveRows(formatKind[format], items(format), undefined, defaultDeriveOptions, {})
    .map((r) => jsonlLine(format, r))
    .join('');
}

describe('trainer formats match the golden files', () => {
  for (const format of datasetFormats) {
    it(format, () => {
      const golden = readFileSync(path.join(import.meta.dirname, 'golden', `${format}.jsonl`), 'utf8');
      expect(render(format)).toBe(golden);
    });
  }

  it('TRL DPO: conversational prompt/chosen/rejected with tool calls and a tools column', () => {
    const row = JSON.parse(render('trl-dpo').split('\n')[0]!);
    expect(Object.keys(row)).toEqual(['prompt', 'chosen', 'rejected', 'tools', 'witness']);
    expect(row.prompt).toEqual([
      { role: 'system', content: 'You can look outside.' },
      { role: 'user', content: 'What color is the sky?' },
    ]);
    expect(row.chosen[0]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ type: 'function', function: { name: 'look', arguments: { direction: 'up' } } }],
    });
    expect(row.chosen[1]).toEqual({ role: 'tool', name: 'look', content: 'blue' });
    expect(row.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'look',
          description: '',
          parameters: { type: 'object', properties: { direction: { type: 'string' } }, required: [] },
        },
      },
    ]);
  });

  it('TRL PRM: standard stepwise supervision, prompt string, completions and boolean labels of equal length', () => {
    const row = JSON.parse(render('trl-prm'));
    expect(row).toMatchObject({
      prompt: 'What color is the sky?',
      completions: ['The sky scatters blue light most.', 'So the sky is green.'],
      labels: [true, false],
    });
  });

  it('leaves `tools` out of rows without tool calls (tools: [] makes Llama-3.1 templates add tool boilerplate)', () => {
    for (const format of ['trl-dpo', 'trl-kto', 'trl-reward', 'trl-sft', 'slime'] as const) {
      const rows = render(format)
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      for (const row of rows) {
        const messages = [row.prompt, row.chosen, row.rejected, row.completion, row.messages, row.metadata?.completion]
          .flat()
          .filter(Boolean);
        const called = messages.some((m: { tool_calls?: unknown[] }) => m.tool_calls?.length);
        expect('tools' in row, `${format}: tools ${called ? 'missing' : 'present'}`).toBe(called);
      }
    }
  });

  it('OpenRLHF: every message has the same keys {role, content, tool_calls, name} (datasets 5 would type mixed shapes as JSON)', () => {
    const row = JSON.parse(render('openrlhf'));
    for (const m of [...row.prompt, ...row.chosen, ...row.rejected])
      expect(Object.keys(m)).toEqual(['role', 'content', 'tool_calls', 'name']);
    expect(row.chosen[1]).toEqual({ role: 'tool', content: 'blue', tool_calls: null, name: 'look' });
    expect(row.rejected).toEqual([{ role: 'assistant', content: 'It is green.', tool_calls: null, name: null }]);
  });

  it("slime: label is the task's reference answer (null when unknown), the human score is in metadata", () => {
    const [known, unknown] = render('slime')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(known).toMatchObject({ label: 'blue', metadata: { score: 0.875, accepted: true, reviewers: 2 } });
    expect(unknown).toMatchObject({ label: null, metadata: { score: 0, accepted: false } });
  });
});
