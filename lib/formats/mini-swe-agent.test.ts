import { describe, expect, it } from 'vitest';
import { collect, errors, fixtureInput, fixtureProbe, headProbe, memoryInput, only, onlyNormalised } from './chat-testing';
import { miniSweAgentImporter } from './mini-swe-agent';

const V1 = 'mini-swe-agent/sympy__sympy-20590.traj.json';
const V2 = 'mini-swe-agent/hello-v2.traj.json';

describe('miniSweAgentImporter', () => {
  it('detects v1 and v2 trajectories, and a big file whose trajectory_format is past the head', async () => {
    expect(miniSweAgentImporter.detect(await fixtureProbe(V1))).toBe(true);
    expect(miniSweAgentImporter.detect(await fixtureProbe(V2))).toBe(true);
    const head =
      '{\n  "info": {\n    "exit_status": "Submitted",\n    "submission": "diff",\n    "model_stats": {"instance_cost": 1.2, "api_calls": 40},\n    "mini_version": "1.14.2",\n    "config": {"agent": {"system_template": "You are';
    expect(miniSweAgentImporter.detect(headProbe('x.json', head))).toBe(true);
  });

  it('maps a v1 text-based trajectory field by field', async () => {
    const t = await onlyNormalised(miniSweAgentImporter, await fixtureInput(V1));
    expect(t.format).toBe('mini-swe-agent');
    expect(t.externalId).toBe('sympy__sympy-20590');
    expect(t.task.name).toBe('sympy__sympy-20590');
    expect(t.task.instruction).toBe(
      '<pr_description>\nPlease solve this issue: `sympy.Symbol` instances have `__dict__` since 1.7\n</pr_description>',
    );
    expect(t.task.environment).toBe('docker.io/swebench/sweb.eval.x86_64.sympy_1776_sympy-20590:latest');
    expect(t.policy).toEqual({ model: 'anthropic/claude-sonnet-4-20250514', checkpoint: null, agent: 'mini-swe-agent' });

    expect(t.steps.map((s) => s.source)).toEqual([
      'system',
      'user',
      'agent',
      'tool',
      'agent',
      'environment',
      'agent',
      'tool',
      'agent',
      'environment',
    ]);
    expect(t.steps[2]?.toolCalls).toEqual([{ id: null, name: 'bash', arguments: { command: 'grep -rn "class Printable" sympy/core' } }]);
    expect(t.steps[2]?.text).toMatch(/^THOUGHT: Find where Printable is defined/);
    expect(t.steps[3]?.observations).toEqual([
      {
        toolCallId: null,
        content: '<returncode>0</returncode>\n<output>\nsympy/core/_print_helpers.py:8:class Printable:\n</output>',
        isError: false,
      },
    ]);
    // two actions -> the harness's format error is an environment step, not an observation
    expect(t.steps[4]?.toolCalls).toHaveLength(2);
    expect(t.steps[5]?.text).toBe('Please always provide EXACTLY ONE action in triple backticks, found 2 actions.');
    expect(t.steps[9]?.text).toMatch(/^diff --git/);

    expect(t.usage).toEqual({ promptTokens: null, completionTokens: null, costUsd: 0.0712 });
    expect(t.exitStatus).toBe('Submitted');
    expect(t.submission).toBe('diff --git a/sympy/core/_print_helpers.py b/sympy/core/_print_helpers.py\n+    __slots__ = ()\n');
    expect(t.verifier).toBeNull();
    expect(t.startedAt).toBeNull();
    expect(t.metadata).toMatchObject({ trajectory_format: 'mini-swe-agent-1', mini_version: '1.9.0', api_calls: 4 });
  });

  it('maps a v2 tool-calling trajectory with extra, usage, timestamps and the exit message', async () => {
    const t = only(await collect(miniSweAgentImporter, await fixtureInput(V2)));
    expect(t.task.name).toBe('hello-v2');
    expect(t.externalId).toBeNull();
    expect(t.policy.model).toBe('openai/gpt-5-mini');
    expect(t.steps.map((s) => s.source)).toEqual(['system', 'user', 'agent', 'tool', 'agent', 'environment']);
    const agent = t.steps[2];
    expect(agent?.text).toBe("I'll create the file.");
    expect(agent?.reasoning).toBe('Simple: use printf.');
    expect(agent?.toolCalls).toEqual([{ id: 'call_a', name: 'bash', arguments: { command: 'printf hi > hello.txt && cat hello.txt' } }]);
    expect(agent?.timestamp).toBe('2025-01-01T00:00:00.500Z');
    expect(agent?.usage).toEqual({ promptTokens: 812, completionTokens: 40, costUsd: 0.0012 });
    expect(t.steps[3]?.observations).toEqual([
      { toolCallId: 'call_a', content: '<returncode>0</returncode>\n<output>\nhi</output>', isError: false },
    ]);
    expect(t.steps[5]?.text).toBe('hello.txt created\n');
    expect(t.usage).toEqual({ promptTokens: 1712, completionTokens: 70, costUsd: 0.0031 });
    expect(t.startedAt).toBe('2025-01-01T00:00:00.500Z');
    expect(t.endedAt).toBe('2025-01-01T00:00:02.000Z');
    expect(t.exitStatus).toBe('Submitted');
    expect(t.submission).toBe('hello.txt created\n');
  });

  it('pairs v2 text-based observations by returncode in extra', async () => {
    const doc = {
      trajectory_format: 'mini-swe-agent-1.1',
      info: { exit_status: 'LimitsExceeded' },
      messages: [
        { role: 'user', content: 'task' },
        { role: 'assistant', content: '```mswea_bash_command\nls\n```', extra: { actions: [{ command: 'ls' }] } },
        { role: 'user', content: 'a.txt', extra: { returncode: 0, raw_output: 'a.txt' } },
        { role: 'assistant', content: '```mswea_bash_command\nsleep 100\n```' },
        { role: 'user', content: 'took too long', extra: { returncode: -1, exception_info: 'timeout' } },
      ],
    };
    const t = only(await collect(miniSweAgentImporter, memoryInput('x.traj.json', JSON.stringify(doc))));
    expect(t.steps.map((s) => s.source)).toEqual(['user', 'agent', 'tool', 'agent', 'tool']);
    expect(t.steps[1]?.toolCalls).toEqual([{ id: null, name: 'bash', arguments: { command: 'ls' } }]);
    expect(t.steps[3]?.toolCalls).toEqual([{ id: null, name: 'bash', arguments: { command: 'sleep 100' } }]);
    expect(t.steps[4]?.observations[0]?.isError).toBe(true);
    expect(t.exitStatus).toBe('LimitsExceeded');
  });

  it('reports truncated JSON, wrong types and missing keys', async () => {
    const cut = await collect(
      miniSweAgentImporter,
      memoryInput('x.traj.json', '{"info": {"exit_status": "Submitted"}, "messages": [{"role": "user", "content": "do it"}'),
    );
    expect(errors(cut)).toEqual([{ where: 'line 1', message: expect.stringMatching(/^invalid JSON at line 1, column \d+: /) }]);
    const wrongRole = {
      messages: [
        { role: 'user', content: 'x' },
        { role: ['assistant'], content: 'y' },
      ],
    };
    expect(errors(await collect(miniSweAgentImporter, memoryInput('x.json', JSON.stringify(wrongRole))))).toEqual([
      { where: '/messages/1/role', message: 'expected a role string, found an array' },
    ]);
    const wrongContent = { messages: [{ role: 'user', content: 12 }] };
    expect(errors(await collect(miniSweAgentImporter, memoryInput('x.json', JSON.stringify(wrongContent))))[0]?.where).toBe(
      '/messages/0/content',
    );
    expect(
      errors(await collect(miniSweAgentImporter, memoryInput('x.json', '{"info": {}, "trajectory_format": "mini-swe-agent-1"}'))),
    ).toEqual([{ where: '/messages', message: 'missing: expected an array of messages' }]);
  });
});
