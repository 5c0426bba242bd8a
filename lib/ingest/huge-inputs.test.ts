import { describe, expect, it } from 'vitest';
import { memorySource } from '../formats/source';
import { MAX_JSON_DEPTH, parseJson } from '../formats/parse-json';
import { makeStep } from '../formats/chat-messages';
import { MAX_STEPS, trajectoryItem } from '../formats/item';
import type { Trajectory } from '../formats/trajectory';
import { parseCollected, type ParsedSlot } from './parse-collected';

/*
 * Issue 39, row 4: huge inputs are refused with where and what, never an "internal" stack
 * overflow. Through the import's own parse (detection, importer, validation, stable hash, raw
 * source), as `witness import` and POST /api/v1/trajectories run it.
 */

async function importText(text: string): Promise<ParsedSlot[]> {
  const slots: ParsedSlot[] = [];
  const collected = { ok: true as const, path: 'body', input: { kind: 'file' as const, file: memorySource('body', text) } };
  for await (const slot of parseCollected(collected, null, { format: 'auto', importedById: null })) slots.push(slot);
  return slots;
}

const errors = (slots: ParsedSlot[]) => slots.map((s) => (s.slot.ok ? 'ok' : `${s.slot.error.where}: ${s.slot.error.message}`));

describe('huge inputs (issue 39, row 4)', () => {
  it('refuses a conversation of more messages than a trajectory may have steps, with where and what (was "internal: Maximum call stack size exceeded")', async () => {
    const messages = [{ role: 'user', content: 'go' }];
    for (let i = 0; i < 200_000; i++) messages.push({ role: i % 2 ? 'user' : 'assistant', content: `step ${i}` });
    const slots = await importText(JSON.stringify({ messages }));
    expect(errors(slots)).toEqual([
      '/messages: 200,001 messages, more than the 100,000 steps a trajectory may have (split the run into several trajectories)',
    ]);
  }, 30_000);

  it('imports a conversation of 100,000 steps, the most a trajectory may have (no spread of its steps into one call)', async () => {
    const messages = [];
    for (let i = 0; i < MAX_STEPS; i++) messages.push({ role: i % 2 ? 'assistant' : 'user', content: `step ${i}` });
    const slots = await importText(JSON.stringify({ messages }));
    expect(slots).toHaveLength(1);
    const slot = slots[0]!.slot;
    expect(slot.ok ? slot.meta.steps : slot.error.message).toBe(MAX_STEPS);
  }, 30_000);

  it("refuses any importer's trajectory of more than MAX_STEPS steps at the last gate, naming /steps", () => {
    const step = makeStep('agent', { text: 'x' });
    const steps = Array.from({ length: MAX_STEPS + 1 }, (_, index) => ({ ...step, index }));
    const item = trajectoryItem({ steps } as unknown as Trajectory, '/');
    expect(item).toEqual({
      ok: false,
      where: '/',
      message: '/steps: 100,001 steps, more than the 100,000 steps a trajectory may have (split the run into several trajectories)',
    });
  });

  it('refuses JSON nested 100,000 levels deep with its pointer and line, never a stack overflow', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const slots = await importText(`{"messages": [{"role": "user", "content": "x"}],\n "metadata": {"k": ${deep}}}`);
    expect(errors(slots)).toEqual([
      'line 2: /metadata/k/0/0/…: arrays and objects nested deeper than 1,000 levels (the most an imported document may nest)',
    ]);
    const at = parseJson(`{"a":\n  ${'['.repeat(MAX_JSON_DEPTH + 5)}${']'.repeat(MAX_JSON_DEPTH + 5)}}`);
    expect(at.ok ? 'parsed' : [at.line, at.column]).toEqual([2, 2 + MAX_JSON_DEPTH]);
    // exactly the limit parses
    expect(parseJson('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH)).ok).toBe(true);
  });

  it('keeps tool-call arguments nested 100,000 levels deep as their text, and imports the step', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const doc = {
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'f', arguments: deep } }] },
      ],
    };
    const slots = await importText(JSON.stringify(doc));
    expect(errors(slots)).toEqual(['ok']);
    const slot = slots[0]!.slot;
    if (!slot.ok) return;
    expect(slot.storable).toBeDefined();
    expect(slot.meta.steps).toBe(2);
  });
});
