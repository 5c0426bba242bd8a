import { describe, expect, it } from 'vitest';
import { SWEEP_TASKS, sweepTrajectories } from './demo-sweep';

describe('demo checkpoint sweep', () => {
  it('two checkpoints never write the same transcript for runs reviewers judge differently (no chosen == rejected pair)', () => {
    const runs = sweepTrajectories();
    const steps = (r: (typeof runs)[number]) =>
      JSON.stringify(r.trajectory.steps.map((s) => [s.source, s.text, s.toolCalls, s.observations]));
    let compared = 0;
    for (const task of SWEEP_TASKS) {
      const own = runs.filter((r) => r.task.name === task.name);
      for (let i = 0; i < own.length; i++)
        for (let j = i + 1; j < own.length; j++) {
          if (own[i]!.truth.quality === own[j]!.truth.quality) continue;
          compared++;
          expect(steps(own[i]!), `${task.name}: ${own[i]!.checkpoint} vs ${own[j]!.checkpoint}`).not.toBe(steps(own[j]!));
        }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('physics tasks with a known result carry it as the reference answer (slime label)', () => {
    const withAnswer = sweepTrajectories().filter((r) => typeof r.trajectory.task.metadata.referenceAnswer === 'string');
    expect(new Set(withAnswer.map((r) => r.task.name))).toEqual(
      new Set(['projectile-max-range-with-height', 'rc-circuit-charging-time', 'damped-oscillator-q-factor']),
    );
  });
});
