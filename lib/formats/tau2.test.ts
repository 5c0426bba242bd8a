import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, memoryInput, only, probeOf, trajectories, jsonCutAt } from './chat-testing';
import { memoryDir } from './source';
import { tau2Importer } from './tau2';
import { trajectorySchema } from './trajectory';

const RESULTS = 'tau2/airline-results.json';
const SINGLE = 'tau2/simulation.json';
const RUN_DIR = 'tau2/run-dir';

describe('tau2Importer', () => {
  it('detects results files, single simulations and the directory format', async () => {
    expect(tau2Importer.detect(await fixtureProbe(RESULTS))).toBe(true);
    expect(tau2Importer.detect(await fixtureProbe(SINGLE))).toBe(true);
    expect(tau2Importer.detect(await fixtureProbe(RUN_DIR))).toBe(true);
    expect(tau2Importer.detect({ kind: 'dir', path: 'x', entries: ['results.json', 'agent/trajectory.json'] })).toBe(false);
  });

  it('maps a results file, one trajectory per simulation, field by field', async () => {
    const items = await collect(tau2Importer, await fixtureInput(RESULTS));
    expect(items.map((i) => i.where)).toEqual(['/simulations/0', '/simulations/1']);
    const [cancel, telecom] = trajectories(items);
    for (const t of [cancel, telecom]) expect(trajectorySchema.parse(t)).toEqual(t);

    expect(cancel?.format).toBe('tau2');
    expect(cancel?.externalId).toBe('6a1c9b2e-0d2f-4d0e-9a61-1f7f1d3c0001');
    expect(cancel?.task.name).toBe('0');
    expect(cancel?.task.environment).toBe('airline');
    expect(cancel?.task.split).toBeNull();
    expect(cancel?.task.instruction).toBe(
      'Domain:\nairline\nReason for call:\nYou want to cancel reservation EHGLP3.\nKnown info:\nYou are Emma Kim. Your user id is emma_kim_9957.\nTask instructions:\nIf the agent says you cannot cancel, ask once more, then accept.',
    );
    expect(cancel?.task.acceptanceCriteria).toEqual([
      { key: 'action-0-0', text: 'Expected action: get_reservation_details({"reservation_id":"EHGLP3"})', origin: 'task', verdict: true },
      { key: 'communicate-ehglp3', text: 'Communicate: EHGLP3', origin: 'task', verdict: true },
      {
        key: 'agent-should-refuse-to-cancel-the-reservation',
        text: 'Agent should refuse to cancel the reservation.',
        origin: 'task',
        verdict: null,
      },
    ]);
    expect(cancel?.task.metadata).toMatchObject({
      purpose: 'Testing that agent refuses to cancel a non-refundable basic economy ticket.',
      reward_basis: ['DB', 'COMMUNICATE'],
    });
    expect(cancel?.policy).toEqual({ model: 'claude-3-7-sonnet-20250219', checkpoint: null, agent: 'llm_agent' });
    expect(cancel?.verifier).toEqual({ reward: 1, components: { DB: 1, COMMUNICATE: 1 } });
    expect(cancel?.exitStatus).toBe('user_stop');
    expect(cancel?.startedAt).toBe('2025-06-12T10:01:00.100000');
    expect(cancel?.endedAt).toBe('2025-06-12T10:02:10.500000');
    expect(cancel?.usage).toEqual({ promptTokens: 10610, completionTokens: 101, costUsd: 0.0312 });
    expect(cancel?.metadata).toMatchObject({ trial: 0, seed: 300, duration_s: 70.4, user_cost: 0.0041, user_model: 'gpt-4.1-2025-04-14' });

    expect(cancel?.steps.map((s) => s.source)).toEqual(['agent', 'user', 'agent', 'tool', 'agent', 'user']);
    expect(cancel?.steps[0]?.text).toBe('Hi! How can I help you today?');
    expect(cancel?.steps[0]?.timestamp).toBe('2025-06-12T10:01:00.200000');
    expect(cancel?.steps[2]?.toolCalls).toEqual([
      { id: 'toolu_01A', name: 'get_reservation_details', arguments: { reservation_id: 'EHGLP3' } },
    ]);
    expect(cancel?.steps[2]?.usage).toEqual({ promptTokens: 5210, completionTokens: 61, costUsd: 0.011 });
    expect(cancel?.steps[3]?.observations).toEqual([
      { toolCallId: 'toolu_01A', content: '{"reservation_id": "EHGLP3", "cabin": "basic_economy", "insurance": "no"}', isError: false },
    ]);
    // the simulated user's cost is not the policy's usage
    expect(cancel?.steps[1]?.usage).toBeNull();

    // user-side tool calls, a MultiToolMessage, an erroring tool, env assertions, string instructions
    expect(telecom?.task.name).toBe('[mobile_data_issue]airplane_mode_on');
    expect(telecom?.task.instruction).toBe("Your phone has no mobile data. Fix it with the agent's help.");
    expect(telecom?.task.acceptanceCriteria).toEqual([
      {
        key: 'action-toggle-airplane-mode-0',
        text: 'Expected action (by the user): toggle_airplane_mode({})',
        origin: 'task',
        verdict: null,
      },
      {
        key: 'env-assert-mobile-data-status-expected-status-true',
        text: 'Environment assertion: assert_mobile_data_status({"expected_status":true})',
        origin: 'task',
        verdict: false,
      },
    ]);
    expect(telecom?.steps.map((s) => s.source)).toEqual(['agent', 'user', 'agent', 'user', 'tool', 'user', 'tool']);
    expect(telecom?.steps[3]?.toolCalls).toEqual([{ id: 'call_u1', name: 'check_status_bar', arguments: {} }]);
    expect(telecom?.steps[4]?.observations).toEqual([{ toolCallId: 'call_u1', content: 'Airplane mode: ON', isError: false }]);
    expect(telecom?.steps[6]?.observations).toEqual([{ toolCallId: 'call_u2', content: "Error: invalid argument 'on'", isError: true }]);
    expect(telecom?.verifier).toEqual({ reward: 0, components: { ENV_ASSERTION: 0 } });
    expect(telecom?.exitStatus).toBe('max_steps');
    expect(telecom?.usage).toEqual({ promptTokens: null, completionTokens: null, costUsd: 0.2 });
  });

  it('maps a single SimulationRun, taking criteria from reward_info when the task is absent', async () => {
    const t = only(await collect(tau2Importer, await fixtureInput(SINGLE)));
    expect(t.externalId).toBe('sim-single-0001');
    expect(t.task.name).toBe('5');
    expect(t.task.instruction).toBe("I want to cancel reservation EHGLP3. I'm emma_kim_9957.");
    expect(t.task.environment).toBeNull();
    expect(t.task.acceptanceCriteria).toEqual([
      {
        key: 'action-0-0',
        text: 'Expected action: get_reservation_details({"reservation_id":"EHGLP3"})',
        origin: 'verifier',
        verdict: true,
      },
      { key: 'communicate-ehglp3', text: 'Communicate: EHGLP3', origin: 'verifier', verdict: true },
      {
        key: 'agent-explains-the-basic-economy-cancellation-policy',
        text: 'Agent explains the basic economy cancellation policy.',
        origin: 'verifier',
        verdict: false,
      },
    ]);
    expect(t.verifier).toEqual({ reward: 0, components: { DB: 1, COMMUNICATE: 1, NL_ASSERTION: 0 } });
    // no run info: the model comes from the provider response kept on the message
    expect(t.policy).toEqual({ model: 'claude-3-7-sonnet-20250219', checkpoint: null, agent: null });
  });

  it('reads the directory format (results.json + simulations/)', async () => {
    const items = await collect(tau2Importer, await fixtureInput(RUN_DIR));
    expect(items.map((i) => i.where)).toEqual([
      'simulations/6a1c9b2e-0d2f-4d0e-9a61-1f7f1d3c0001.json',
      'simulations/6a1c9b2e-0d2f-4d0e-9a61-1f7f1d3c0002.json',
    ]);
    const [a, b] = trajectories(items);
    expect(a?.task.acceptanceCriteria.map((c) => c.verdict)).toEqual([true, true, null]);
    expect(a?.task.environment).toBe('airline');
    expect(b?.task.name).toBe('[mobile_data_issue]airplane_mode_on');
  });

  it('keeps going when one simulation of a directory is broken', async () => {
    const dir = memoryDir('run', {
      'results.json': JSON.stringify({ info: { agent_info: { implementation: 'llm_agent', llm: 'gpt-4.1' } }, tasks: [] }),
      'simulations/a.json': JSON.stringify({
        id: 'a',
        task_id: '1',
        termination_reason: 'agent_stop',
        messages: [{ role: 'user', content: 'hi' }],
      }),
      'simulations/b.json': '{"id": "b", "task_id": "2", "messages": [',
    });
    const items = await collect(tau2Importer, { kind: 'dir', dir });
    expect(items[0]?.ok).toBe(true);
    expect(errors(items)).toEqual([
      {
        where: 'simulations/b.json line 1',
        message: expect.stringMatching(/^invalid JSON at line 1, column \d+: unexpected end of input/),
      },
    ]);
  });

  it('reports malformed simulations at their pointer and keeps the others', async () => {
    const results = {
      info: {},
      tasks: [],
      simulations: [
        { id: 'ok', task_id: '1', termination_reason: 'user_stop', messages: [{ role: 'user', content: 'hi' }] },
        { id: 'no-task', termination_reason: 'user_stop', messages: [] },
        { id: 'bad-reward', task_id: '2', reward_info: { reward: 'yes' }, messages: [] },
        { id: 'bad-role', task_id: '3', messages: [{ role: 'robot', content: 'x' }] },
        { id: 'bad-call', task_id: '4', messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'c1', arguments: {} }] }] },
      ],
    };
    const items = await collect(tau2Importer, memoryInput('results.json', JSON.stringify(results)));
    expect(items).toHaveLength(5);
    expect(items[0]?.ok).toBe(true);
    expect(errors(items)).toEqual([
      { where: '/simulations/1/task_id', message: 'missing: expected the task id' },
      { where: '/simulations/2/reward_info/reward', message: 'expected the reward as a number, found a string' },
      { where: '/simulations/3/messages/0/role', message: 'expected role assistant, user, tool or system, found "robot"' },
      { where: '/simulations/4/messages/0/tool_calls/0/name', message: 'expected the tool name as a non-empty string, found nothing' },
    ]);
  });

  it('explains a directory-format metadata file given alone, and reports truncated JSON', async () => {
    const meta = await collect(tau2Importer, await fixtureInput('tau2/run-dir/results.json'));
    expect(errors(meta)[0]?.message).toMatch(/directory-format tau2 run/);
    const cut = await collect(tau2Importer, memoryInput('r.json', '{\n "info": {},\n "simulations": [\n  {"id": "x", "task_id": "1",'));
    expect(errors(cut)).toEqual([jsonCutAt(4)]);
  });
});

// Shapes from sierra-research/tau2-bench: `SimulationRun` and `Tick` (src/tau2/data_model/simulation.py,
// message.py), the leaderboard's trimmed trajectories (src/tau2/scripts/leaderboard/trim_trajectories.py
// drops raw_data, message ids and requestor), and the voice test data's simulations
// (tests/test_voice/test_interaction_metrics/testdata/experiment/simulations/*.json: messages absent,
// ticks only). The fixtures are written for these tests.
describe('tau2 bare lists and full-duplex simulations', () => {
  it('reads a bare list of simulations (a leaderboard submission) with reward, criteria and termination reason', async () => {
    const input = await fixtureInput('tau2/leaderboard-simulations.json');
    expect(tau2Importer.detect(await probeOf(input))).toBe(true);
    const items = await collect(tau2Importer, input);
    expect(items.map((i) => i.where)).toEqual(['/0', '/1']);
    const [a, b] = trajectories(items);
    expect(a?.task.name).toBe('5');
    expect(a?.verifier).toEqual({ reward: 0, components: { DB: 1, COMMUNICATE: 1, NL_ASSERTION: 0 } });
    expect(a?.task.acceptanceCriteria.map((c) => [c.text, c.origin, c.verdict])).toEqual([
      ['Expected action: get_reservation_details({"reservation_id":"EHGLP3"})', 'verifier', true],
      ['Communicate: EHGLP3', 'verifier', true],
      ['Agent explains the basic economy cancellation policy.', 'verifier', false],
    ]);
    expect(a?.exitStatus).toBe('user_stop');
    expect(a?.steps).toHaveLength(6);
    expect(b?.exitStatus).toBe('max_steps');
    expect(b?.verifier).toEqual({ reward: 0, components: { DB: 0 } });
    expect(b?.metadata).toMatchObject({ trial: 1 });
  });

  it('refuses an empty list and reports a bad element where it is', async () => {
    expect(await collect(tau2Importer, memoryInput('s.json', '[]'))).toEqual([
      { ok: false, where: '/', message: 'expected a list of tau2 simulations, found an empty list' },
    ]);
    const items = await collect(
      tau2Importer,
      memoryInput(
        's.json',
        JSON.stringify([
          { termination_reason: 'user_stop', messages: [] },
          { task_id: '1', messages: [] },
        ]),
      ),
    );
    expect(errors(items)).toEqual([
      { where: '/0/task_id', message: 'missing: expected the task id' },
      { where: '/1/messages', message: 'no steps: this simulation has no messages, so there is nothing to import' },
    ]);
  });

  it('flattens the ticks of a full-duplex simulation into steps, as tau2 get_messages() does', async () => {
    const t = only(await collect(tau2Importer, await fixtureInput('tau2/full-duplex-simulation.json')));
    expect(t.steps.map((s) => [s.source, s.text])).toEqual([
      ['agent', 'Hello, thanks for calling. How can I help?'],
      ['user', 'My phone has no data since this morning.'],
      ['agent', ''],
      ['tool', ''],
      ['agent', 'Your data was suspended; I have re-enabled it.'],
      ['user', 'Thanks, bye.'],
    ]);
    expect(t.steps[2]?.toolCalls).toEqual([{ id: 'call_1', name: 'get_line_status', arguments: { phone: '555-0100' } }]);
    expect(t.steps[3]?.observations).toEqual([{ toolCallId: 'call_1', content: '{"data": "suspended"}', isError: false }]);
    expect(t.steps[0]?.timestamp).toBe('2026-06-30T11:40:30.000000');
    expect(t.verifier?.reward).toBe(1);
    expect(t.metadata).toMatchObject({ mode: 'full_duplex', ticks: 8 });
  });

  it('refuses ticks that carry no text or tool calls instead of importing 0 steps as a success', async () => {
    const silent = {
      id: 'v',
      task_id: '40',
      termination_reason: 'user_stop',
      mode: 'full_duplex',
      ticks: [1, 2].map((i) => ({
        tick_id: i,
        timestamp: '2026-06-30T11:40:29',
        agent_chunk: { role: 'assistant', contains_speech: false },
        user_chunk: { role: 'user', contains_speech: false },
      })),
    };
    expect(errors(await collect(tau2Importer, memoryInput('v.json', JSON.stringify(silent))))).toEqual([
      {
        where: '/ticks',
        message:
          'no steps: the 2 ticks of this full-duplex simulation carry no text and no tool calls (audio only?), so there is nothing to import',
      },
    ]);
  });
});
