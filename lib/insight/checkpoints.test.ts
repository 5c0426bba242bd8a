import { describe, expect, it } from 'vitest';
import { checkpointGroups, checkpointKey, checkpointOf, checkpointSeries, spelling } from './checkpoints';
import { policyReport } from './policy-report';

describe('checkpoints', () => {
  it('reads family and checkpoint from the fields, else from name@checkpoint', () => {
    expect(checkpointOf({ name: 'acme-coder-7b@ckpt-2000', model: null, checkpoint: null })).toEqual({
      family: 'acme-coder-7b',
      checkpoint: 'ckpt-2000',
      step: 2000,
    });
    expect(checkpointOf({ name: 'x', model: 'm', checkpoint: 'step_120k' })).toEqual({ family: 'm', checkpoint: 'step_120k', step: 120 });
    expect(checkpointOf({ name: 'gpt@ckpt-12 / terminus-2', model: null, checkpoint: null })).toEqual({
      family: 'gpt',
      checkpoint: 'ckpt-12',
      step: 12,
    });
    expect(checkpointOf({ name: 'claude', model: 'claude', checkpoint: null }).checkpoint).toBeNull();
  });

  it('orders checkpoints numerically, keeps families with two or more', () => {
    const series = checkpointSeries([
      { name: 'acme@ckpt-10000', model: null, checkpoint: null },
      { name: 'acme@ckpt-2000', model: null, checkpoint: null },
      { name: 'acme@ckpt-1000', model: null, checkpoint: null },
      { name: 'acme@final', model: null, checkpoint: null },
      { name: 'solo@ckpt-1', model: null, checkpoint: null },
      { name: 'claude', model: null, checkpoint: null },
    ]);
    expect(series).toHaveLength(1);
    expect(series[0]!.points.map((p) => p.checkpoint)).toEqual(['ckpt-1000', 'ckpt-2000', 'ckpt-10000', 'final']);
  });

  it('one checkpoint under two names is one checkpoint: acme-coder-7b@ckpt-2000 and acme/coder-7b@ckpt-2000 / generate', () => {
    // the demo's sweep policy (model and checkpoint fields) and its imported run of the same weights (prisma/seed)
    const sweep = { id: 's', name: 'acme-coder-7b@ckpt-2000', model: 'acme-coder-7b', checkpoint: 'ckpt-2000' };
    const imported = { id: 'i', name: 'acme/coder-7b@ckpt-2000 / generate', model: null, checkpoint: null };
    const shell = { id: 'h', name: 'acme/coder-7b@ckpt-1000 / acme-shell', model: null, checkpoint: null };
    const other = { id: 'o', name: 'claude', model: null, checkpoint: null };
    expect(spelling('Acme/Coder_7B')).toBe('acme-coder-7b');
    expect(checkpointKey(sweep)).toBe('acme-coder-7b@ckpt-2000');
    expect(checkpointKey(imported)).toBe('acme-coder-7b@ckpt-2000');
    expect(checkpointKey(other)).toBeNull();
    expect(checkpointGroups([imported, sweep, shell, other])).toEqual([
      { name: 'acme-coder-7b@ckpt-2000', members: [imported, sweep] },
      { name: shell.name, members: [shell] },
      { name: 'claude', members: [other] },
    ]);
    // one family, one point per checkpoint
    const series = checkpointSeries([imported, sweep, shell]);
    expect(series).toHaveLength(1);
    expect(series[0]!.points.map((p) => p.checkpoint)).toEqual(['ckpt-1000', 'ckpt-2000']);

    // the leaderboard: one row for the checkpoint, its counts summed, the other name kept as an alias
    const stat = (policyId: string, trajectories: number, passes: number) => ({
      policyId,
      trajectories,
      scored: trajectories,
      verifierPasses: passes,
      humanPass: 0,
      humanJudged: 0,
      likertN: 0,
      likertSum: 0,
      likertSumSquares: 0,
    });
    const report = policyReport(
      [sweep, imported, shell],
      [
        { policyA: 'h', policyB: 's', outcome: 'b', count: 3 },
        { policyA: 'h', policyB: 'i', outcome: 'b', count: 2 },
        { policyA: 's', policyB: 'i', outcome: 'tie', count: 5 },
      ],
      [stat('s', 6, 3), stat('i', 4, 3), stat('h', 5, 1)],
    );
    expect(report.policies.map((p) => p.name).sort()).toEqual(['acme-coder-7b@ckpt-2000', shell.name].sort());
    const merged = report.policies.find((p) => p.name === 'acme-coder-7b@ckpt-2000')!;
    expect(merged).toMatchObject({ aliases: [imported.name], trajectories: 10, battles: 5 });
    expect(merged.verifierPass).toMatchObject({ n: 10, rate: 0.6 });
    expect(report.nComparisons).toBe(5); // the checkpoint against itself is left out
    expect(report.trends).toHaveLength(1);
    expect(report.trends[0]!.points.map((p) => p.checkpoint)).toEqual(['ckpt-1000', 'ckpt-2000']);
  });
});
