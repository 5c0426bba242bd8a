import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { firstDivergentStep } from './first-divergent-step';
import { blindTranscript } from './transcript';

const run = (last: string, agent = 'secret-agent') =>
  buildTrajectory({
    format: 'openai',
    task: { name: 't', instruction: 'i' },
    policy: { model: 'secret-model', agent },
    steps: [
      { source: 'user', text: 'Derive it.' },
      {
        source: 'agent',
        text: 'Edit the file.',
        toolCalls: [{ id: 'c1', name: 'str_replace', arguments: { path: 'a.py', old_str: 'x = 1', new_str: 'x = 2' } }],
      },
      { source: 'tool', text: '', observations: [{ toolCallId: 'c1', content: 'done', isError: false }] },
      { source: 'agent', text: last },
    ],
  });

describe('blindTranscript', () => {
  it('keeps every step in full, names the agent only when the policy is shown, and turns edits into diffs', () => {
    const hidden = blindTranscript(run('The answer is $x = 2$.'), { blind: { hidePolicy: true, hideReward: true } });
    expect(hidden.map((s) => s.actor)).toEqual(['user', 'agent', 'tool', 'agent']);
    expect(JSON.stringify(hidden)).not.toMatch(/secret|c1/);
    expect(hidden[1]!.diffs).toEqual([{ path: 'a.py', text: '@@ edit @@\n-x = 1\n+x = 2' }]);
    expect(hidden[2]!.observations).toEqual([{ toolName: 'str_replace', content: 'done', isError: false }]);
    expect(blindTranscript(run('x'))[1]!.actor).toBe('secret-agent');
  });

  it('finds the first step where two runs differ', () => {
    const a = blindTranscript(run('The answer is $x = 2$.'));
    expect(firstDivergentStep(a, blindTranscript(run('The answer is  $x = 2$. ', 'other')))).toBeNull();
    expect(firstDivergentStep(a, blindTranscript(run('The answer is $x = 3$.')))).toBe(3);
    expect(firstDivergentStep(a, a.slice(0, 2))).toBe(2);
  });
});

describe('blindTranscript tool calls (issue 43 §3)', () => {
  it('a python call carries its source as code, not as escaped JSON', () => {
    const source = 'import numpy as np\nprint(np.sqrt(9.81 / 0.5))';
    const t = buildTrajectory({
      format: 'openai',
      task: { name: 't', instruction: 'i' },
      policy: { model: 'm' },
      steps: [
        { source: 'agent', text: 'Check numerically.', toolCalls: [{ id: 'c', name: 'python', arguments: { code: source, timeout: 10 } }] },
      ],
    });
    const [call] = blindTranscript(t)[0]!.toolCalls;
    expect(call!.code).toEqual({ language: 'python', text: source });
    expect(call!.arguments).toBe('{\n  "timeout": 10\n}');
    expect(JSON.stringify(call!.code)).not.toContain('\\\\n');
  });
});
