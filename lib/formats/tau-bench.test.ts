import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, memoryInput, only, trajectories, jsonCutAt } from './chat-testing';
import { runFromFileName, tauBenchImporter } from './tau-bench';
import { trajectorySchema } from './trajectory';

const RESULTS = 'tau-bench/tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0315143027.json';

describe('tauBenchImporter', () => {
  it('detects a results list', async () => {
    expect(tauBenchImporter.detect(await fixtureProbe(RESULTS))).toBe(true);
  });

  it('reads run settings from the results file name', () => {
    expect(runFromFileName('results/tool-calling-gpt-4o-0.0_range_0--1_user-gpt-4o-llm_0315143027.json')).toEqual({
      agentStrategy: 'tool-calling',
      model: 'gpt-4o',
      temperature: 0,
      userModel: 'gpt-4o',
      userStrategy: 'llm',
    });
    expect(runFromFileName('react-claude-3-5-sonnet-20240620-0.7_range_10-20_user-gpt-4-turbo-react_1201093000.json')).toMatchObject({
      agentStrategy: 'react',
      model: 'claude-3-5-sonnet-20240620',
      temperature: 0.7,
      userModel: 'gpt-4-turbo',
      userStrategy: 'react',
    });
    expect(runFromFileName('my-results.json').model).toBeNull();
  });

  it('yields one trajectory per result, field by field', async () => {
    const items = await collect(tauBenchImporter, await fixtureInput(RESULTS));
    expect(items.map((i) => i.where)).toEqual(['/0', '/1', '/2']);
    const [success, outputs] = trajectories(items.slice(0, 2));
    for (const t of [success, outputs]) expect(trajectorySchema.parse(t)).toEqual(t);

    expect(success?.format).toBe('tau-bench');
    expect(success?.task.name).toBe('0');
    expect(success?.externalId).toBe('0-trial-0');
    expect(success?.task.instruction).toMatch(/^You are Yusuf Rossi in 19122/);
    expect(success?.task.metadata).toEqual({ user_id: 'yusuf_rossi_9620' });
    expect(success?.task.acceptanceCriteria.map((c) => c.text)).toEqual([
      'Expected action: find_user_id_by_name_zip({"first_name":"Yusuf","last_name":"Rossi","zip":"19122"})',
      'Expected action: exchange_delivered_order_items({"order_id":"#W2378156","item_ids":["1151293680"],"new_item_ids":["7706410293"],"payment_method_id":"credit_card_9513926"})',
    ]);
    expect(success?.task.acceptanceCriteria.every((c) => c.origin === 'task' && c.verdict === null)).toBe(true);
    expect(success?.policy).toEqual({ model: 'gpt-4o', checkpoint: null, agent: 'tool-calling' });
    expect(success?.verifier).toEqual({ reward: 1, components: { r_actions: 1 } });
    expect(success?.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'agent', 'user']);
    expect(success?.steps[2]?.toolCalls).toEqual([
      { id: 'call_9x1', name: 'find_user_id_by_name_zip', arguments: { first_name: 'Yusuf', last_name: 'Rossi', zip: '19122' } },
    ]);
    expect(success?.steps[2]?.text).toBe('');
    expect(success?.steps[3]?.observations).toEqual([{ toolCallId: 'call_9x1', content: 'yusuf_rossi_9620', isError: false }]);
    expect(success?.steps[5]?.text).toBe('The keyboard, for one with clicky switches. ###STOP###');
    expect(success?.exitStatus).toBeNull();
    expect(success?.metadata).toMatchObject({ trial: 0, user_cost: 0.0123, gt_data_hash: 'e6f0a1', user_model: 'gpt-4o' });

    expect(outputs?.task.name).toBe('12');
    expect(outputs?.externalId).toBe('12-trial-1');
    expect(outputs?.task.acceptanceCriteria).toEqual([{ key: 'output-10', text: 'Expected output: 10', origin: 'task', verdict: false }]);
    expect(outputs?.verifier).toEqual({ reward: 0, components: { r_outputs: 0 } });

    // a run that crashed before any message has no steps: refused, with the error it recorded
    expect(items[2]).toEqual({
      ok: false,
      where: '/2',
      message:
        'no steps: this tau-bench trajectory (task "7") records nothing the agent did and no final answer (exit status "error": litellm.RateLimitError: rate limited), so it is not imported',
    });
  });

  it('keeps the other results when one is malformed', async () => {
    const good = { task_id: 1, reward: 1, info: {}, traj: [{ role: 'user', content: 'hi' }], trial: 0 };
    const list = [
      good,
      { task_id: 2, reward: 'high', info: {}, traj: [], trial: 0 },
      { task_id: 3, reward: 0, info: {}, trial: 0 },
      { reward: 0, info: {}, traj: [], trial: 0 },
      {
        task_id: 5,
        reward: 0,
        info: {},
        traj: [{ role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { arguments: '{}' } }] }],
        trial: 0,
      },
    ];
    const items = await collect(tauBenchImporter, memoryInput('results.json', JSON.stringify(list)));
    expect(items[0]?.ok).toBe(true);
    expect(errors(items)).toEqual([
      { where: '/1/reward', message: 'expected the reward as a number, found a string' },
      { where: '/2/traj', message: 'missing: expected an array of messages (traj)' },
      { where: '/3/task_id', message: 'missing: expected the task id (a number)' },
      { where: '/4/traj/0/tool_calls/0/function/name', message: 'expected the tool name as a non-empty string, found nothing' },
    ]);
  });

  it('accepts a single result object and takes the instruction from the first user message without a task', async () => {
    const t = only(
      await collect(
        tauBenchImporter,
        memoryInput(
          'one.json',
          JSON.stringify({ task_id: 4, reward: 0.5, info: {}, traj: [{ role: 'user', content: 'I need help' }], trial: 2 }),
        ),
      ),
    );
    expect(t.task.instruction).toBe('I need help');
    expect(t.verifier).toEqual({ reward: 0.5, components: {} });
    expect(t.policy.model).toBeNull();
  });

  it('reports truncated JSON with line and column', async () => {
    const items = await collect(
      tauBenchImporter,
      memoryInput('r.json', '[\n  {"task_id": 0,\n   "reward": 1.0,\n   "traj": [{"role": "user"'),
    );
    expect(errors(items)).toEqual([jsonCutAt(4)]);
  });
});
