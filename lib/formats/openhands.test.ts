import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, memoryInput, onlyNormalised, probeOf } from './chat-testing';
import { detectFormat } from './detect';
import { openHandsImporter } from './openhands';
import { getImporter } from './registry';

/*
 * Fixtures written for these tests, reproducing the event shapes OpenHands (V0) saves: the action and
 * observation records of All-Hands-AI/OpenHands openhands/events/serialization/event.py (id, timestamp,
 * source, message, action + args / observation + cause + content + extras, tool_call_metadata with the
 * model_response), as in its recordings tests/runtime/trajs/basic.json and basic_gui_mode.json; the
 * session folder layout sessions/<id>/events/<n>.json + metadata.json of openhands/storage/locations.py
 * and ConversationMetadata (openhands/storage/data_models/conversation_metadata.py).
 */
const LIST = 'openhands/trajectory-7f3a.json';
const SESSION = 'openhands/session-7f3a';

describe('OpenHands event streams', () => {
  it('are detected as one OpenHands trajectory, never as chat conversations', async () => {
    expect(detectFormat(await fixtureProbe(LIST))).toBe('openhands');
    expect(detectFormat(await fixtureProbe(SESSION))).toBe('openhands');
    expect(detectFormat(await fixtureProbe(`${SESSION}/events`))).toBe('openhands');
    // the generic chat importers used to read each event as a conversation: one refusal now, not one error per event
    const openai = await collect(getImporter('openai'), await fixtureInput(LIST));
    expect(openai).toHaveLength(1);
    expect(errors(openai)[0]!.message).toMatch(
      /^format not recognised \(closest: OpenAI chat, because .* 19 elements are objects with keys id, timestamp, source, message/,
    );
  });

  it('reads a saved event list: one step per model response, each observation linked to its call', async () => {
    const t = await onlyNormalised(openHandsImporter, await fixtureInput(LIST));
    expect(t.format).toBe('openhands');
    expect(t.externalId).toBe('7f3a');
    expect(t.policy).toEqual({ model: 'claude-sonnet-4-5-20250929', checkpoint: null, agent: 'openhands' });
    expect(t.task.instruction).toBe("slugify('Top 10 tips') returns 'top-tips': keep the digits. Tests in tests/test_slug.py.");
    // 19 events: system, user message, 6 model responses (one of two calls), 7 observations; 4 bookkeeping events
    expect(t.steps.map((s) => s.source)).toEqual([
      'system',
      'user',
      'agent',
      'tool',
      'tool',
      'agent',
      'tool',
      'agent',
      'tool',
      'agent',
      'tool',
      'agent',
      'tool',
      'agent',
    ]);
    expect(t.metadata).toMatchObject({ events: 19, bookkeepingEvents: 4, finalAgentState: 'finished' });
    // a response with two tool calls is one agent turn; each output answers its own call
    const [run, view] = t.steps[2]!.toolCalls;
    expect(run).toEqual({
      id: 'toolu_run1',
      name: 'execute_bash',
      arguments: { command: 'pytest -q tests/test_slug.py', is_input: false },
    });
    expect(view).toMatchObject({
      id: 'toolu_view1',
      name: 'str_replace_editor',
      arguments: { command: 'view', path: '/workspace/app/slug.py' },
    });
    expect(t.steps[2]!.text).toBe('Let me look at the failing test and the module first.');
    expect(t.steps[2]!.usage).toEqual({ promptTokens: 2100, completionTokens: 120, costUsd: null });
    expect(t.steps[3]!.observations[0]).toMatchObject({ toolCallId: 'toolu_run1', isError: true });
    expect(t.steps[3]!.observations[0]!.content).toContain('[The command completed with exit code 1.]');
    expect(t.steps[4]!.observations[0]!.toolCallId).toBe('toolu_view1');
    // the edit: the model's str_replace arguments (a diff on the card) and the observation's diff
    expect(t.steps[5]!.toolCalls[0]!.arguments).toMatchObject({ command: 'str_replace', old_str: "re.sub(r'[^a-z]+', '-', s)" });
    expect(t.steps[6]!.observations[0]!.content).toMatch(/^--- \/workspace\/app\/slug.py\n\+\+\+ .*\n@@ -4 \+4 @@\n-.*\n\+.*a-z0-9/);
    // think is reasoning, browsing shows the page, finish is the submission
    expect(t.steps[7]!.reasoning).toContain('Digits were the only class missing');
    expect(t.steps[10]!.observations[0]!.content).toMatch(/^http:\/\/localhost:8000\/docs\/slugs\n\n# Slugs/);
    expect(t.steps[13]!.toolCalls[0]!.name).toBe('finish');
    expect(t.submission).toBe('Fixed slugify to keep digits; tests pass.');
    expect(t.exitStatus).toBe('finished');
    expect(t.usage).toEqual({ promptTokens: 17300, completionTokens: 335, costUsd: 0.0734 });
    expect(t.startedAt).toBe('2026-11-30T10:00:00.100000');
  });

  it('reads a session folder: events in id order, metadata for title, repository and cost', async () => {
    const t = await onlyNormalised(openHandsImporter, await fixtureInput(SESSION));
    expect(t.externalId).toBe('7f3a0c2e9b');
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool', 'agent']);
    expect(t.steps[2]!.observations[0]).toMatchObject({ toolCallId: 'call_a1', isError: true });
    expect(t.steps[3]!.text).toBe('There is no README.md in the workspace root.');
    expect(t.policy.model).toBe('gpt-5-mini');
    expect(t.usage?.costUsd).toBe(0.0012);
    expect(t.metadata).toMatchObject({ title: 'README check', repository: 'acme/app', branch: 'main' });
    expect(t.exitStatus).toBe('awaiting_user_input');
    // the events/ folder alone reads the same steps
    const bare = await onlyNormalised(openHandsImporter, await fixtureInput(`${SESSION}/events`));
    expect(bare.steps).toEqual(t.steps);
  });

  it('keeps a command the user ran in the session terminal as the user’s step, its output linked', async () => {
    const input = memoryInput(
      'trajectory-u1.json',
      JSON.stringify([
        { id: 0, source: 'user', message: 'Running command: ls', action: 'run', args: { command: 'ls', thought: '' } },
        {
          id: 1,
          source: 'user',
          message: 'Command `ls` executed',
          cause: 0,
          observation: 'run',
          content: 'a.txt',
          extras: { metadata: { exit_code: 0 } },
        },
        { id: 2, source: 'agent', message: 'I see a.txt.', action: 'message', args: { content: 'I see a.txt.' } },
      ]),
    );
    const t = await onlyNormalised(openHandsImporter, input);
    expect(t.externalId).toBe('u1');
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'tool', 'agent']);
    expect(t.steps[0]!.toolCalls).toEqual([{ id: 'openhands-0', name: 'execute_bash', arguments: { command: 'ls' } }]);
    expect(t.steps[1]!.observations).toEqual([{ toolCallId: 'openhands-0', content: 'a.txt\n[exit code 0]', isError: false }]);
  });

  it('refuses a lone event file and a broken event with where and what', async () => {
    expect(errors(await collect(openHandsImporter, await fixtureInput(`${SESSION}/events/2.json`)))).toEqual([
      { where: '/', message: expect.stringContaining('one event of an OpenHands session') },
    ]);
    const broken = memoryInput(
      'x.json',
      JSON.stringify([
        { id: 0, source: 'user', action: 'message', args: { content: 'hi' } },
        { id: 1, source: 'agent', foo: 1 },
      ]),
    );
    expect(await probeOf(broken).then(detectFormat)).toBe('openhands');
    expect(errors(await collect(openHandsImporter, broken))).toEqual([
      { where: '/1', message: 'expected an OpenHands event: an object with "action" or "observation"' },
    ]);
  });
});
