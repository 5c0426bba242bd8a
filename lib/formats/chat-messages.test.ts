import { describe, expect, it } from 'vitest';
import { readJsonOrJsonl, type JsonDocument } from './chat-documents';
import {
  contentText,
  ItemError,
  openaiMessagesToSteps,
  parseArguments,
  sumUsage,
  timestampOf,
  toolCallsOf,
  usageOf,
} from './chat-messages';
import { memorySource } from './source';

async function docs(text: string): Promise<JsonDocument[]> {
  const out: JsonDocument[] = [];
  for await (const d of readJsonOrJsonl(memorySource('x.jsonl', text))) out.push(d);
  return out;
}

describe('chat message helpers', () => {
  it('parses JSON string arguments and keeps anything else as-is', () => {
    expect(parseArguments('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(parseArguments('not json {')).toBe('not json {');
    expect(parseArguments('')).toEqual({});
    expect(parseArguments(undefined)).toEqual({});
    expect(parseArguments({ already: 'object' })).toEqual({ already: 'object' });
  });

  it('reads tool calls in the OpenAI and the flat shape', () => {
    expect(
      toolCallsOf(
        [
          { id: 'a', type: 'function', function: { name: 'f', arguments: '{"x": 1}' } },
          { id: 'b', name: 'g', arguments: { y: 2 } },
          { id: 7, function: { name: 'h', arguments: '<html>' } },
        ],
        '/tool_calls',
      ),
    ).toEqual([
      { id: 'a', name: 'f', arguments: { x: 1 } },
      { id: 'b', name: 'g', arguments: { y: 2 } },
      { id: '7', name: 'h', arguments: '<html>' },
    ]);
    expect(() => toolCallsOf([{ function: { arguments: '{}' } }], '/m/tool_calls')).toThrow(ItemError);
  });

  it('turns content parts into text with placeholders', () => {
    expect(
      contentText([{ type: 'text', text: 'a' }, { type: 'image_url', image_url: { url: 'data:...' } }, 'b', { type: 'input_audio' }], '/c'),
    ).toBe('a\n[image]\nb\n[audio]');
    expect(contentText(null, '/c')).toBe('');
    expect(() => contentText(3, '/c')).toThrow('expected content to be a string or an array of parts, found a number');
  });

  it('normalises timestamps and usage', () => {
    expect(timestampOf(1735689600)).toBe('2025-01-01T00:00:00.000Z');
    expect(timestampOf(1735689600123)).toBe('2025-01-01T00:00:00.123Z');
    expect(timestampOf('2025-06-12T10:01:00.200000')).toBe('2025-06-12T10:01:00.200000');
    expect(timestampOf(-5)).toBeNull();
    expect(timestampOf(1e300)).toBeNull();
    expect(usageOf({ prompt_tokens: 3, completion_tokens: 4 }, 0.5)).toEqual({ promptTokens: 3, completionTokens: 4, costUsd: 0.5 });
    expect(usageOf({ input_tokens: 3, output_tokens: -1 })).toEqual({ promptTokens: 3, completionTokens: null, costUsd: null });
    expect(usageOf(undefined)).toBeNull();
    expect(
      sumUsage([null, { promptTokens: 1, completionTokens: null, costUsd: 0.1 }, { promptTokens: 2, completionTokens: 5, costUsd: null }]),
    ).toEqual({
      promptTokens: 3,
      completionTokens: 5,
      costUsd: 0.1,
    });
    expect(sumUsage([null])).toBeNull();
  });

  it('maps OpenAI roles, refusals and legacy function messages', () => {
    const steps = openaiMessagesToSteps(
      [
        { role: 'developer', content: 'rules' },
        { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'out' }] },
      ],
      '',
    );
    expect(steps.map((s) => [s.source, s.text])).toEqual([
      ['system', 'rules'],
      ['agent', 'I cannot help with that.'],
      ['tool', ''],
    ]);
    expect(steps[2]?.observations).toEqual([{ toolCallId: 'c1', content: 'out', isError: false }]);
  });
});

describe('readJsonOrJsonl', () => {
  it('reads a pretty-printed document as one document', async () => {
    expect(await docs('{\n  "messages": [\n    {"role": "user", "content": "x"}\n  ]\n}\n')).toEqual([
      { ok: true, prefix: '', value: { messages: [{ role: 'user', content: 'x' }] } },
    ]);
  });

  it('reads JSONL with CRLF and blank lines, numbering lines from 1', async () => {
    const out = await docs('{"a": 1}\r\n\r\n{"a": 2}\r\n{"a": \r\n');
    expect(out).toEqual([
      { ok: true, prefix: 'line 1', value: { a: 1 } },
      { ok: true, prefix: 'line 3', value: { a: 2 } },
      { ok: false, where: 'line 4', message: expect.stringMatching(/^invalid JSON at line 4, column \d+: unexpected end of input/) },
    ]);
  });

  it('reports an empty file and a broken single document', async () => {
    expect(await docs('  \n')).toEqual([{ ok: false, where: 'line 1', message: 'empty input: expected JSON or JSON Lines' }]);
    expect(await docs('{\n  "messages": [\n')).toEqual([
      { ok: false, where: 'line 3', message: expect.stringMatching(/^invalid JSON at line 3, column 1: unexpected end of input/) },
    ]);
  });
});
