import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, headProbe, memoryInput, only, onlyNormalised, jsonCutAt } from './chat-testing';
import { sweAgentImporter } from './swe-agent';

const TEXT_MODE = 'swe-agent/marshmallow-code__marshmallow-1867.traj';
const FUNCTION_CALLING = 'swe-agent/django__django-11099.traj';

describe('sweAgentImporter', () => {
  it('detects .traj content', async () => {
    expect(sweAgentImporter.detect(await fixtureProbe(TEXT_MODE))).toBe(true);
    expect(sweAgentImporter.detect(await fixtureProbe(FUNCTION_CALLING))).toBe(true);
  });

  it('detects from a head cut mid-file (big trajectories)', () => {
    const head =
      '{\n  "trajectory": [\n    {\n      "action": "ls -F\\n",\n      "observation": "AUTHORS.rst\\n",\n      "response": "Let\'s list",\n      "thought": "Let\'s list",\n      "state": "{}",\n      "execution_time": 0.1,\n      "query": [{"role": "system", "content": "You are';
    expect(sweAgentImporter.detect(headProbe('x.traj', head))).toBe(true);
  });

  it('maps a text-mode trajectory field by field', async () => {
    const t = await onlyNormalised(sweAgentImporter, await fixtureInput(TEXT_MODE));
    expect(t.format).toBe('swe-agent');
    expect(t.externalId).toBe('marshmallow-code__marshmallow-1867');
    expect(t.task.name).toBe('marshmallow-code__marshmallow-1867');
    // the problem statement from replay_config, untrusted HTML kept verbatim
    expect(t.task.instruction).toContain('TimeDelta serialization precision');
    expect(t.task.instruction).toContain("<script>alert('x')</script>");
    expect(t.task.acceptanceCriteria).toEqual([
      {
        key: 'tests-test-fields-py-testtimedelta-test-precision',
        text: 'tests/test_fields.py::TestTimeDelta::test_precision',
        origin: 'task',
        verdict: null,
      },
    ]);
    expect(t.task.environment).toBe('swebench/sweb.eval.x86_64.marshmallow-code_1776_marshmallow-1867:latest');
    expect(t.task.split).toBeNull();
    expect(t.policy).toEqual({ model: 'claude-3-5-sonnet-20241022', checkpoint: null, agent: 'swe-agent' });

    expect(t.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'agent', 'tool', 'agent', 'tool']);
    expect(t.steps.map((s) => s.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(t.steps[0]?.text).toMatch(/^SETTING: You are an autonomous programmer/);
    // the demonstration (is_demo) is skipped; the instance prompt is the user step
    expect(t.steps[1]?.text).toMatch(/^We're currently solving the following issue/);

    const first = t.steps[2];
    expect(first?.text).toBe("Let's first reproduce the issue with a small script.");
    expect(first?.reasoning).toBeNull();
    expect(first?.toolCalls).toEqual([{ id: null, name: 'create', arguments: 'create reproduce.py\n' }]);
    expect(t.steps[3]?.observations).toEqual([
      { toolCallId: null, content: '[File: /marshmallow-code__marshmallow/reproduce.py (1 lines total)]\n1:', isError: false },
    ]);
    // a response that says more than thought + action is kept whole
    expect(t.steps[4]?.text).toBe('Now run it.\n\n```\npython reproduce.py\n```\nI expect 345.');
    // ANSI escapes in observations are kept as-is
    expect(t.steps[5]?.observations[0]?.content).toBe('\u001b[31m344\u001b[0m\n');
    expect(t.steps[6]?.toolCalls[0]?.name).toBe('submit');
    expect(t.steps.every((s) => s.timestamp === null && s.castTime === null)).toBe(true);

    expect(t.usage).toEqual({ promptTokens: 120345, completionTokens: 2210, costUsd: 0.4213 });
    expect(t.exitStatus).toBe('submitted');
    expect(t.submission).toMatch(/^diff --git a\/src\/marshmallow\/fields.py/);
    expect(t.verifier).toBeNull();
    expect(t.judgeScores).toEqual([]);
    expect(t.terminal).toBeNull();
    expect(t.metadata).toMatchObject({ api_calls: 3, swe_agent_version: '1.0.1', environment_name: 'main' });
  });

  it('takes call ids, parsed arguments and thinking from function-calling history', async () => {
    const t = only(await collect(sweAgentImporter, await fixtureInput(FUNCTION_CALLING)));
    expect(t.task.name).toBe('django__django-11099');
    expect(t.task.instruction).toContain('UsernameValidator allows trailing newline');
    expect(t.policy.model).toBeNull();
    const agent = t.steps.filter((s) => s.source === 'agent');
    expect(agent[0]?.text).toBe('Let me look at the validators.');
    expect(agent[0]?.reasoning).toBe('The regex uses $ which matches before a trailing newline.');
    expect(agent[0]?.toolCalls).toEqual([
      { id: 'toolu_01', name: 'str_replace_editor', arguments: { command: 'view', path: '/testbed/django/contrib/auth/validators.py' } },
    ]);
    expect(agent[1]?.toolCalls[0]?.arguments).toEqual({
      command: 'str_replace',
      path: '/testbed/django/contrib/auth/validators.py',
      old_str: '$',
      new_str: '\\Z',
    });
    const tool = t.steps.filter((s) => s.source === 'tool');
    expect(tool.map((s) => s.observations[0]?.toolCallId)).toEqual(['toolu_01', 'toolu_02']);
    expect(t.exitStatus).toBe('exit_cost');
    expect(t.submission).toBeNull();
    expect(t.usage).toEqual({ promptTokens: 900000, completionTokens: 12000, costUsd: 3.01 });
  });

  it('maps a resolved flag to the verifier and falls back to the file name for the task', async () => {
    const doc = { trajectory: [], info: { exit_status: 'submitted', resolved: true }, history: [{ role: 'user', content: 'Fix bug 1' }] };
    const t = only(await collect(sweAgentImporter, memoryInput('runs/astropy__astropy-12907.traj', JSON.stringify(doc))));
    expect(t.task.name).toBe('astropy__astropy-12907');
    expect(t.task.instruction).toBe('Fix bug 1');
    expect(t.verifier).toEqual({ reward: 1, components: {} });
    expect(t.steps.map((s) => s.source)).toEqual(['user']);
  });

  it('reads the last attempt of a retry-agent file that has no chosen attempt merged in', async () => {
    const attempt = (n: number) => ({
      trajectory: [{ action: `echo ${n}`, observation: `${n}`, thought: `try ${n}` }],
      info: { exit_status: `attempt-${n}` },
    });
    const t = only(await collect(sweAgentImporter, memoryInput('i.traj', JSON.stringify({ attempts: [attempt(1), attempt(2)] }))));
    expect(t.exitStatus).toBe('attempt-2');
    expect(t.steps[0]?.toolCalls).toEqual([{ id: null, name: 'echo', arguments: 'echo 2' }]);
    expect(t.metadata.attempts).toBe(2);
    const bad = { attempts: [attempt(1), { trajectory: [{ action: 1 }] }] };
    expect(errors(await collect(sweAgentImporter, memoryInput('i.traj', JSON.stringify(bad))))[0]?.where).toBe(
      '/attempts/1/trajectory/0/action',
    );
  });

  it('reports truncated JSON with line and column', async () => {
    const text = '{\n  "trajectory": [\n    {"action": "ls", "observation": "a\\nb"';
    const items = await collect(sweAgentImporter, memoryInput('cut.traj', text));
    expect(errors(items)).toEqual([jsonCutAt(3)]);
  });

  it('reports wrong types at a JSON pointer', async () => {
    const bad = {
      trajectory: [
        { action: 'ls', observation: 'x', thought: '' },
        { action: 42, observation: 'y' },
      ],
      info: {},
    };
    expect(errors(await collect(sweAgentImporter, memoryInput('bad.traj', JSON.stringify(bad))))).toEqual([
      { where: '/trajectory/1/action', message: 'expected a string, found a number' },
    ]);
    const obs = { trajectory: [{ action: 'ls', observation: ['x'] }] };
    expect(errors(await collect(sweAgentImporter, memoryInput('bad.traj', JSON.stringify(obs))))[0]?.where).toBe(
      '/trajectory/0/observation',
    );
  });

  it('reports a missing trajectory key', async () => {
    expect(errors(await collect(sweAgentImporter, memoryInput('x.traj', '{"info": {"exit_status": "submitted"}}')))).toEqual([
      { where: '/trajectory', message: 'missing: expected an array of trajectory steps' },
    ]);
    expect(errors(await collect(sweAgentImporter, memoryInput('x.traj', '[1, 2]')))).toEqual([
      { where: '/', message: 'expected a SWE-agent trajectory object, found an array' },
    ]);
  });
});
