import { describe, expect, it } from 'vitest';
import { checkpointOf, checkpointSeries } from './checkpoints';

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
});
