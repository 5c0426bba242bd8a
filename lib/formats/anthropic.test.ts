import { describe, expect, it } from 'vitest';
import { anthropicImporter } from './anthropic';
import { collect, errors, fixtureInput, fixtureProbe, headProbe, memoryInput, only, onlyNormalised, trajectories } from './chat-testing';

describe('anthropicImporter', () => {
  it('detects content-block transcripts and JSONL batches', async () => {
    expect(anthropicImporter.detect(await fixtureProbe('anthropic/fix-test-conversation.json'))).toBe(true);
    expect(anthropicImporter.detect(await fixtureProbe('anthropic/batch.jsonl'))).toBe(true);
    // a plain role/content transcript is left to the openai importer
    const plain = '[{"role": "user", "content": "hi"}]';
    expect(anthropicImporter.detect(headProbe('c.json', plain))).toBe(false);
  });

  it('maps thinking, tool use and tool results field by field', async () => {
    const t = await onlyNormalised(anthropicImporter, await fixtureInput('anthropic/fix-test-conversation.json'));
    expect(t.format).toBe('anthropic');
    expect(t.externalId).toBeNull();
    expect(t.task.name).toBe('fix-failing-test');
    expect(t.task.instruction).toBe('The test `test_parse_date` fails. Please fix it.');
    expect(t.policy).toEqual({ model: 'claude-sonnet-4-5-20250929', checkpoint: null, agent: null });
    expect(t.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'agent', 'tool', 'user', 'agent']);
    expect(t.steps[0]?.text).toBe('You are a careful coding assistant with shell access.');

    const first = t.steps[2];
    expect(first?.text).toBe('Let me run the failing test.');
    expect(first?.reasoning).toBe('I should run the test first to see the failure.');
    expect(first?.toolCalls).toEqual([
      { id: 'toolu_01ABC', name: 'bash', arguments: { command: 'pytest -q tests/test_dates.py::test_parse_date' } },
    ]);
    expect(first?.usage).toEqual({ promptTokens: 1520, completionTokens: 96, costUsd: null });

    expect(t.steps[3]?.observations).toEqual([
      { toolCallId: 'toolu_01ABC', content: 'E   ValueError: month must be in 1..12\n\u001b[31m1 failed\u001b[0m', isError: true },
    ]);
    expect(t.steps[5]?.observations).toEqual([{ toolCallId: 'toolu_02DEF', content: '3 passed in 0.12s', isError: false }]);
    // the user's text after the tool result, image as a placeholder
    expect(t.steps[6]?.text).toBe('Great, also explain the fix.\n[image]');
    expect(t.steps[7]?.reasoning).toBe('[redacted thinking]');
    expect(t.steps[7]?.text).toBe('`parse_date` added 1 to an already 1-based month. <i>Fixed.</i>');

    expect(t.usage).toEqual({ promptTokens: 5020, completionTokens: 196, costUsd: null });
    expect(t.metadata).toEqual({ user_id: 'u-123', tools: ['bash'] });
  });

  it('imports a JSONL batch: one trajectory per line, bad lines as errors', async () => {
    const items = await collect(anthropicImporter, await fixtureInput('anthropic/batch.jsonl'));
    expect(items.map((i) => i.where)).toEqual(['line 1', 'line 2', 'line 3 /messages/0/content', 'line 4']);
    expect(errors(items)).toEqual([
      { where: 'line 3 /messages/0/content', message: 'expected content as a string or an array of blocks, found a number' },
      { where: 'line 4', message: expect.stringMatching(/^invalid JSON at line 4, column \d+: unterminated string/) },
    ]);
    const [brief, files] = trajectories(items.slice(0, 2));
    expect(brief?.task.name).toBe('msgbatch-a');
    expect(brief?.steps.map((s) => [s.source, s.text])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'Capital of France?'],
      ['agent', 'Paris.'],
    ]);
    expect(files?.task.name).toBe('list-files-e700817c');
    expect(files?.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool', 'agent']);
    expect(files?.steps[2]?.observations).toEqual([{ toolCallId: 'toolu_x', content: 'a.txt\nb.txt', isError: false }]);
  });

  it('keeps server tool results on the agent step', async () => {
    const conv = {
      messages: [
        { role: 'user', content: 'news?' },
        {
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'news' } },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: [{ type: 'web_search_result', title: 'A', url: 'https://a' }],
            },
            { type: 'text', text: 'Here is the news.' },
          ],
        },
      ],
    };
    const t = only(await collect(anthropicImporter, memoryInput('c.json', JSON.stringify(conv))));
    expect(t.steps[1]?.toolCalls).toEqual([{ id: 'srvtoolu_1', name: 'web_search', arguments: { query: 'news' } }]);
    expect(t.steps[1]?.observations).toEqual([{ toolCallId: 'srvtoolu_1', content: '[web_search_result]', isError: false }]);
  });

  it('reports wrong types and missing keys at their pointers', async () => {
    const noName = { messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', input: {} }] }] };
    expect(errors(await collect(anthropicImporter, memoryInput('c.json', JSON.stringify(noName))))).toEqual([
      { where: '/messages/0/content/0/name', message: 'expected the tool name as a non-empty string, found nothing' },
    ]);
    const noContent = { messages: [{ role: 'user' }] };
    expect(errors(await collect(anthropicImporter, memoryInput('c.json', JSON.stringify(noContent))))).toEqual([
      { where: '/messages/0/content', message: 'missing: expected content (a string or an array of blocks)' },
    ]);
    const badRole = [{ role: 'tool', content: 'x' }];
    expect(errors(await collect(anthropicImporter, memoryInput('c.json', JSON.stringify(badRole))))).toEqual([
      { where: '/0/role', message: 'expected role "user" or "assistant", found "tool"' },
    ]);
    const badText = { messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] };
    expect(errors(await collect(anthropicImporter, memoryInput('c.json', JSON.stringify(badText))))[0]?.where).toBe(
      '/messages/0/content/0/text',
    );
  });

  it('reports truncated JSON with line and column', async () => {
    const items = await collect(
      anthropicImporter,
      memoryInput('c.json', '{\n  "system": "x",\n  "messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a"'),
    );
    expect(errors(items)).toEqual([
      { where: 'line 3', message: expect.stringMatching(/^invalid JSON at line 3, column \d+: unexpected end of input/) },
    ]);
  });
});
