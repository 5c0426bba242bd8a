import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, headProbe, memoryInput, onlyNormalised, trajectories } from './chat-testing';
import { openaiImporter } from './openai';

describe('openaiImporter', () => {
  it('detects conversation objects, message arrays and JSONL', async () => {
    expect(openaiImporter.detect(await fixtureProbe('openai/weather-conversation.json'))).toBe(true);
    expect(openaiImporter.detect(await fixtureProbe('openai/batch.jsonl'))).toBe(true);
    const plain = '[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]';
    expect(openaiImporter.detect(headProbe('c.json', plain))).toBe(true);
    const prose = 'role: user\ncontent: hi';
    expect(openaiImporter.detect(headProbe('c.txt', prose))).toBe(false);
  });

  it('maps a conversation with parallel tool calls field by field', async () => {
    const t = await onlyNormalised(openaiImporter, await fixtureInput('openai/weather-conversation.json'));
    expect(t.format).toBe('openai');
    expect(t.externalId).toBe('conv-2025-0042');
    expect(t.task).toEqual({
      name: 'weather-lookup',
      instruction: "What's the weather and local time in Paris?\n[image]",
      acceptanceCriteria: [],
      environment: null,
      split: null,
      metadata: {},
    });
    expect(t.policy).toEqual({ model: 'gpt-4.1-2025-04-14', checkpoint: null, agent: null });
    expect(t.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'tool', 'agent']);
    const call = t.steps[2];
    expect(call?.text).toBe('');
    expect(call?.reasoning).toBe('Two independent lookups; call both tools in parallel.');
    expect(call?.toolCalls).toEqual([
      { id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } },
      // arguments that are not valid JSON are kept as the original string
      { id: 'call_t1', name: 'get_time', arguments: '{tz: Europe/Paris' },
    ]);
    expect(t.steps[3]?.observations).toEqual([{ toolCallId: 'call_w1', content: '{"temp_c": 18, "sky": "cloudy"}', isError: false }]);
    expect(t.steps[4]?.observations[0]?.toolCallId).toBe('call_t1');
    // HTML and ANSI kept verbatim
    expect(t.steps[5]?.text).toBe("It's 18°C and cloudy in Paris. <b>Note:</b> I couldn't fetch the time. \u001b[1mSorry!\u001b[0m");
    expect(t.steps[5]?.usage).toEqual({ promptTokens: 312, completionTokens: 28, costUsd: null });
    expect(t.usage).toEqual({ promptTokens: 640, completionTokens: 71, costUsd: null });
    expect(t.metadata).toEqual({ source: 'support-bot', tools: ['get_weather', 'get_time'] });
    expect(t.verifier).toBeNull();
    expect(t.exitStatus).toBeNull();
  });

  it('imports a JSONL batch: one trajectory per line, bad lines as errors', async () => {
    const items = await collect(openaiImporter, await fixtureInput('openai/batch.jsonl'));
    expect(items.map((i) => i.where)).toEqual(['line 1', 'line 2', 'line 3', 'line 4 /messages/0/role', 'line 5']);
    expect(errors(items)).toEqual([
      { where: 'line 3', message: expect.stringMatching(/^invalid JSON at line 3, column \d+: unterminated string/) },
      { where: 'line 4 /messages/0/role', message: 'expected a role string, found a number' },
    ]);
    const [plain, legacy, dev] = trajectories(items.filter((i) => i.ok));
    expect(plain?.task.name).toBe('say-hi-71d5b298'); // no id: named by its prompt (slug + hash), so the same prompt from two models is one task;
    expect(plain?.steps.map((s) => [s.source, s.text])).toEqual([
      ['user', 'Say hi'],
      ['agent', 'Hi!'],
    ]);
    expect(legacy?.policy.model).toBe('gpt-3.5-turbo-0613');
    expect(legacy?.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool', 'agent']);
    expect(legacy?.steps[1]?.toolCalls).toEqual([{ id: null, name: 'add', arguments: { a: 2, b: 3 } }]);
    expect(legacy?.steps[2]?.observations).toEqual([{ toolCallId: null, content: '5', isError: false }]);
    expect(dev?.task.name).toBe('dev-1');
    expect(dev?.externalId).toBe('dev-1');
    expect(dev?.steps[0]).toMatchObject({ source: 'system', text: 'Answer tersely.' });
    expect(dev?.task.instruction).toBe('2+2?');
  });

  it('imports a JSON array of conversations and a top-level reward', async () => {
    const batch = [
      { messages: [{ role: 'user', content: 'a' }], reward: 1 },
      { messages: [{ role: 'user', content: 'b' }], reward: 0 },
    ];
    const items = await collect(openaiImporter, memoryInput('runs.json', JSON.stringify(batch)));
    expect(items.map((i) => i.where)).toEqual(['/0', '/1']);
    const [a, b] = trajectories(items);
    expect(a?.task.name).toBe('a-ca978112');
    expect(a?.verifier).toEqual({ reward: 1, components: {} });
    expect(b?.task.instruction).toBe('b');
  });

  it('reports missing keys and wrong types', async () => {
    expect(errors(await collect(openaiImporter, memoryInput('c.json', '{"model": "gpt-4o"}')))).toEqual([
      { where: '/messages', message: 'missing: expected an array of messages' },
    ]);
    expect(errors(await collect(openaiImporter, memoryInput('c.json', '{"messages": [{"role": "user", "content": {"x": 1}}]}')))).toEqual([
      { where: '/messages/0/content', message: 'expected content to be a string or an array of parts, found an object' },
    ]);
    expect(errors(await collect(openaiImporter, memoryInput('c.json', '[{"role": "assistant", "tool_calls": {"id": "x"}}]')))).toEqual([
      { where: '/0/tool_calls', message: 'expected an array of tool calls, found an object' },
    ]);
    expect(errors(await collect(openaiImporter, memoryInput('c.json', '[{"role": "wizard", "content": "x"}]')))[0]?.where).toBe('/0/role');
  });

  it('reports truncated JSON with line and column', async () => {
    const items = await collect(openaiImporter, memoryInput('c.json', '{\n  "messages": [\n    {"role": "user", "content": "hi"},\n'));
    expect(errors(items)).toEqual([
      { where: 'line 4', message: expect.stringMatching(/^invalid JSON at line 4, column 1: unexpected end of input/) },
    ]);
  });
});

describe('task names without ids', () => {
  it('are the same for the same prompt and differ for different prompts', async () => {
    const { promptTaskName } = await import('./chat-conversations');
    expect(promptTaskName('Fix the failing test in utils.py')).toBe(promptTaskName('Fix the failing test in utils.py'));
    expect(promptTaskName('Fix the failing test in utils.py')).toMatch(/^fix-the-failing-test-in-utils-[0-9a-f]{8}$/);
    expect(promptTaskName('Fix the failing test in utils.py')).not.toBe(promptTaskName('Fix the failing test in main.py'));
  });
});
