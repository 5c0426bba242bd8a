import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { inferTools, PRM_STEP_SEPARATOR, stepsToMessages, stepText, trajectoryToChat } from './chat-messages';

const steps = (s: Parameters<typeof buildTrajectory>[0]['steps']) =>
  buildTrajectory({ format: 'openai', task: { name: 't' }, steps: s }).steps;

describe('trajectory -> chat messages', () => {
  it('pairs tool results with their calls by id, and a tool step after a call becomes a tool message', () => {
    const m = stepsToMessages(
      steps([
        {
          source: 'agent',
          text: 'two calls',
          toolCalls: [
            { id: 'a', name: 'read', arguments: { path: 'x' } },
            { id: 'b', name: 'bash', arguments: 'ls -la' },
          ],
        },
        {
          source: 'tool',
          text: '',
          observations: [
            { toolCallId: 'b', content: 'files', isError: false },
            { toolCallId: 'a', content: 'text', isError: false },
          ],
        },
        { source: 'environment', text: 'the container restarted' },
      ]),
    );
    expect(m).toEqual([
      {
        role: 'assistant',
        content: 'two calls',
        tool_calls: [
          { type: 'function', function: { name: 'read', arguments: { path: 'x' } } },
          { type: 'function', function: { name: 'bash', arguments: { input: 'ls -la' } } },
        ],
      },
      { role: 'tool', name: 'bash', content: 'files' },
      { role: 'tool', name: 'read', content: 'text' },
      { role: 'tool', name: 'read', content: 'the container restarted' },
    ]);
  });

  it('environment output with no pending call is a user turn; the prompt gets the instruction when the source has no user message', () => {
    const chat = trajectoryToChat(
      'Do the task',
      steps([
        { source: 'system', text: 'sys' },
        { source: 'agent', text: 'ok' },
        { source: 'environment', text: 'next input' },
      ]),
    );
    expect(chat.prompt).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'Do the task' },
    ]);
    expect(chat.completion).toEqual([
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'next input' },
    ]);
  });

  it('infers the tools column from the calls made, sorted, with argument types', () => {
    expect(
      inferTools(
        steps([
          {
            source: 'agent',
            text: '',
            toolCalls: [
              { id: null, name: 'z', arguments: { n: 1, f: 0.5, l: [1], o: {}, b: true } },
              { id: null, name: 'a', arguments: {} },
            ],
          },
        ]),
      ).map((t) => [t.function.name, t.function.parameters.properties]),
    ).toEqual([
      ['a', {}],
      ['z', { b: { type: 'boolean' }, f: { type: 'number' }, l: { type: 'array' }, n: { type: 'integer' }, o: { type: 'object' } }],
    ]);
  });

  it('PRM step text joins a message and its calls with one newline and never holds the step separator', () => {
    const [step] = steps([
      {
        source: 'agent',
        text: 'First line.\n\n\nAfter blank lines.\n  \nEnd.\n\n',
        toolCalls: [{ id: 'c', name: 'bash', arguments: { command: 'printf "a\\n\\nb"' } }],
      },
    ]);
    const text = stepText(step!);
    expect(PRM_STEP_SEPARATOR).toBe('\n\n');
    expect(text).toBe('First line.\nAfter blank lines.\nEnd.\nbash({"command":"printf \\"a\\\\n\\\\nb\\""})');
    expect(text).not.toContain(PRM_STEP_SEPARATOR);
  });
});
