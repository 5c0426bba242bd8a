import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { atifImporter, atifTrajectory, parseAtifText } from './atif';
import type { ParsedItem } from './importer';
import { memorySource, probeFile } from './source';
import { trajectorySchema } from './trajectory';

const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', 'atif', name);

async function importFile(name: string): Promise<ParsedItem[]> {
  const text = await readFile(fixture(name), 'utf8');
  const items: ParsedItem[] = [];
  for await (const item of atifImporter.parse({ kind: 'file', file: memorySource(name, text) })) items.push(item);
  return items;
}

describe('atif importer', () => {
  it('maps steps, tool calls, observations, usage and policy', async () => {
    const [item] = await importFile('basic.json');
    expect(item?.ok).toBe(true);
    if (!item?.ok) return;
    const t = item.trajectory;
    expect(() => trajectorySchema.parse(t)).not.toThrow();
    expect(t.format).toBe('atif');
    expect(t.externalId).toBe('sess-7f3a');
    expect(t.task.name).toBe('fix-permissions');
    expect(t.task.instruction).toBe('Make /app/script.sh executable and run it; save its output to /app/out.txt.');
    expect(t.task.acceptanceCriteria.map((c) => [c.key, c.origin])).toEqual([
      ['script-sh-is-executable', 'task'],
      ['output-matches-expected-txt', 'task'],
    ]);
    expect(t.policy).toEqual({ model: 'anthropic/claude-sonnet-4-5', checkpoint: null, agent: 'terminus-2' });
    expect(t.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'agent']);
    const act = t.steps[2];
    expect(act?.reasoning).toBe('The script lacks +x; chmod then run with redirection.');
    expect(act?.toolCalls).toEqual([
      { id: 'call_1', name: 'bash', arguments: { command: 'chmod +x /app/script.sh' } },
      { id: 'call_2', name: 'bash', arguments: { command: '/app/script.sh > /app/out.txt' } },
    ]);
    // untrusted text is kept as-is
    expect(act?.observations[1]).toEqual({ toolCallId: 'call_2', content: '<b>not html</b> \u001b[31mred\u001b[0m', isError: false });
    expect(act?.usage).toEqual({ promptTokens: 1500, completionTokens: 200, costUsd: 0.009 });
    expect(t.steps[0]?.usage).toBeNull();
    expect(t.usage).toEqual({ promptTokens: 3100, completionTokens: 260, costUsd: 0.0142 });
    expect(t.startedAt).toBe('2025-11-02T09:00:00Z');
    expect(t.endedAt).toBe('2025-11-02T09:00:09Z');
    expect(t.metadata).toMatchObject({ schemaVersion: 'ATIF-v1.4', agentVersion: '2.0.1' });
  });

  it('falls back to summed step metrics and session id', () => {
    const r = parseAtifText(
      JSON.stringify({
        schema_version: 'ATIF-v1.0',
        session_id: 's1',
        agent: { name: 'a', version: '1' },
        steps: [
          {
            step_id: 1,
            source: 'agent',
            message: [{ type: 'text', text: 'hi' }, { type: 'image' }],
            model_name: 'm1',
            metrics: { prompt_tokens: 5, completion_tokens: 1 },
          },
          {
            step_id: 2,
            source: 'agent',
            message: '',
            metrics: { prompt_tokens: 7 },
            observation: { results: [{ subagent_trajectory_ref: [{ session_id: 'sub-1' }] }] },
          },
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = atifTrajectory(r.doc);
    expect(t.task.name).toBe('s1');
    expect(t.policy.model).toBe('m1');
    expect(t.usage).toEqual({ promptTokens: 12, completionTokens: 1, costUsd: null });
    expect(t.steps[0]?.text).toBe('hi\n[image]');
    expect(t.steps[1]?.observations).toEqual([{ toolCallId: null, content: '[subagent sub-1]', isError: false }]);
  });

  it('files a standalone file under its instruction, so two policies on one task meet; v1.6 may omit session_id', async () => {
    // shapes of ATIF-v1.6 as harbor's exporters and agent adapters write it: no session_id, no agent.version
    const run = (model: string, session?: string) =>
      JSON.stringify({
        schema_version: 'ATIF-v1.6',
        ...(session ? { session_id: session } : {}),
        agent: { name: 'claude-code', model_name: model },
        steps: [
          { step_id: 1, source: 'user', message: 'Fix the failing test in tests/test_dates.py.' },
          { step_id: 2, source: 'agent', message: 'Done: the parser now accepts ISO weeks.' },
        ],
      });
    const items: ParsedItem[] = [];
    for (const [name, text] of [
      ['a.json', run('claude-sonnet-4-5', 'sess-a')],
      ['b.json', run('gpt-5')],
    ] as const) {
      for await (const item of atifImporter.parse({ kind: 'file', file: memorySource(name, text) })) items.push(item);
    }
    const [a, b] = items.map((i) => (i.ok ? i.trajectory : null));
    expect(a?.task.name).toMatch(/^fix-the-failing-test-in-tests-[0-9a-f]{8}$/);
    expect(b?.task.name).toBe(a?.task.name);
    expect([a?.externalId, b?.externalId]).toEqual(['sess-a', null]);
    expect([a?.policy.model, b?.policy.model]).toEqual(['claude-sonnet-4-5', 'gpt-5']);
    expect(b?.metadata).toEqual({ schemaVersion: 'ATIF-v1.6' });
  });

  it('refuses a file with no steps, saying where and what', async () => {
    const text = JSON.stringify({ schema_version: 'ATIF-v1.6', session_id: 'quality-real', agent: { name: 'daydream' }, steps: [] });
    const items: ParsedItem[] = [];
    for await (const item of atifImporter.parse({ kind: 'file', file: memorySource('t.json', text) })) items.push(item);
    expect(items).toEqual([
      {
        ok: false,
        where: '/',
        message:
          'no steps: this atif trajectory (task "quality-real") records nothing the agent did and no final answer, so it is not imported',
      },
    ]);
  });

  it('points at the wrong type with a JSON pointer', async () => {
    const [item] = await importFile('bad-arguments.json');
    expect(item).toEqual({
      ok: false,
      where: '/steps/3/tool_calls/0/arguments',
      message: '/steps/3/tool_calls/0/arguments: expected object, received string',
    });
  });

  it('reports missing required fields and bad enums', () => {
    const r = parseAtifText(
      '{"schema_version":"ATIF-v1.4","agent":{"version":"1"},"steps":[{"step_id":1,"source":"robot","message":"x"}]}',
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.message).toContain('/agent/name: missing (expected string)');
    expect(r.message).toContain('/steps/0/source: expected one of "system", "user", "agent", received "robot"');
  });

  it('names line and column of truncated JSON', async () => {
    const [item] = await importFile('truncated.json');
    expect(item?.ok).toBe(false);
    if (item?.ok !== false) return;
    expect(item.where).toMatch(/^line \d+$/);
    expect(item.message).toMatch(/^invalid JSON at line \d+, column \d+: /);
  });

  it('rejects an empty file', async () => {
    const [item] = await importFile('empty.json');
    expect(item).toEqual({ ok: false, where: 'line 1', message: 'empty file: expected an ATIF JSON object' });
  });

  it('detects ATIF by content only', async () => {
    const text = await readFile(fixture('basic.json'), 'utf8');
    expect(atifImporter.detect(await probeFile(memorySource('whatever.txt', text)))).toBe(true);
    expect(atifImporter.detect(await probeFile(memorySource('trajectory.json', '{"steps": []}')))).toBe(false);
    expect(atifImporter.detect({ kind: 'dir', path: 'x', entries: ['trajectory.json'] })).toBe(false);
  });
});
