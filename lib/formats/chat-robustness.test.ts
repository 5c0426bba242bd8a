import { describe, expect, it } from 'vitest';
import { anthropicImporter } from './anthropic';
import { collect, headProbe, memoryInput } from './chat-testing';
import type { Importer, Probe } from './importer';
import { miniSweAgentImporter } from './mini-swe-agent';
import { openaiImporter } from './openai';
import { sweAgentImporter } from './swe-agent';
import { tau2Importer } from './tau2';
import { tauBenchImporter } from './tau-bench';
import { trajectorySchema } from './trajectory';

const importers: Importer[] = [sweAgentImporter, miniSweAgentImporter, tauBenchImporter, tau2Importer, openaiImporter, anthropicImporter];

/** Odd but syntactically valid inputs: every importer must answer with items, never throw. */
const oddInputs = [
  'null',
  '1',
  '"text"',
  '[]',
  '{}',
  '[null]',
  '[[]]',
  '[{}]',
  '{"messages": null}',
  '{"messages": [null, 1, "x", []]}',
  '{"messages": [{"role": "assistant", "content": [{"type": "tool_use"}], "tool_calls": [null]}]}',
  '{"messages": [{"role": "user", "content": [{"type": 5}]}], "system": 3}',
  '{"trajectory": [null], "history": "x", "info": []}',
  '{"trajectory": [{"action": null, "observation": null}], "history": [{"role": "assistant", "tool_calls": [{}]}], "replay_config": "{not json"}',
  '{"trajectory_format": "mini-swe-agent-1.1", "messages": [{"role": "exit"}, {"role": "tool"}]}',
  '[{"task_id": {}, "traj": null}]',
  '{"simulations": [null, {"task_id": "1", "messages": [{"role": "tool", "tool_messages": [null]}]}], "tasks": [null, {"id": {}}]}',
  '{"task_id": "1", "termination_reason": 5, "messages": null, "ticks": []}',
  '\uFEFF{"messages": [{"role": "user", "content": "BOM \u001b[2J <img src=x onerror=alert(1)>"}]}',
  '{"a": "' + 'x'.repeat(200_000) + '"}',
  '['.repeat(5_000) + ']'.repeat(5_000),
];

describe('chat-style importers on odd input', () => {
  it('yield items (ok or error), never throw, and every ok item is a valid trajectory', async () => {
    for (const importer of importers) {
      for (const text of oddInputs) {
        const items = await collect(importer, memoryInput('odd.json', text));
        expect(items.length, `${importer.format} on ${text.slice(0, 40)}`).toBeGreaterThan(0);
        for (const item of items) {
          if (item.ok) expect(trajectorySchema.safeParse(item.trajectory).success).toBe(true);
          else {
            expect(item.where).not.toBe('');
            expect(item.message).not.toBe('');
            expect(item.message).not.toMatch(/^internal:/);
          }
        }
      }
    }
  });

  it('keep untrusted text verbatim', async () => {
    const text = '{"messages": [{"role": "user", "content": "BOM \\u001b[2J <img src=x onerror=alert(1)>"}]}';
    const [item] = await collect(openaiImporter, memoryInput('odd.json', text));
    expect(item?.ok && item.trajectory.steps[0]?.text).toBe('BOM \u001b[2J <img src=x onerror=alert(1)>');
  });

  it('detectors never throw and stay fast on a large head', () => {
    const big =
      '{"messages": [' +
      Array.from({ length: 2000 }, () => '{"system": "x", "role": "user", "content": "' + 'y'.repeat(20) + '"}').join(',');
    const head = big.slice(0, 64 * 1024);
    const probes: Probe[] = [
      headProbe('a', head),
      { kind: 'file', path: 'b', head: '', headBytes: new Uint8Array() },
      { kind: 'file', path: 'c', head: '\u0000\u0001PK', headBytes: new Uint8Array([0, 1, 80, 75]) },
      { kind: 'dir', path: 'd', entries: [] },
    ];
    const started = performance.now();
    for (const importer of importers) for (const probe of probes) expect(() => importer.detect(probe)).not.toThrow();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
