import { describe, expect, it } from 'vitest';
import { curvesOf, lineageAtAGlance, type HillClimbCheckpoint } from './view-hill-climb';

/* Issue 41 §4: the hill-climb page answers at a glance; a lineage of 100 checkpoints lists the chosen line and the newest. */
const chain = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => ({ id: `c${i}`, parentId: i === 0 ? null : `c${i - 1}`, depth: i }) as unknown as HillClimbCheckpoint,
  );

describe('lineageAtAGlance', () => {
  it('lists every checkpoint when there are few', () => {
    expect(lineageAtAGlance({ checkpoints: chain(5), focus: 'c4' }, 25)).toHaveLength(5);
  });

  it('else the focused checkpoint and its ancestors, and the newest, in tree order', () => {
    const rows = lineageAtAGlance({ checkpoints: chain(100), focus: 'c3' }, 10);
    expect(rows.map((r) => r.id)).toEqual(['c0', 'c1', 'c2', 'c3', ...Array.from({ length: 10 }, (_, i) => `c${90 + i}`)]);
    expect(lineageAtAGlance({ checkpoints: chain(100), focus: null }, 10)).toHaveLength(10);
    // a long chain: the focus and 5 ancestors, not the whole line
    expect(
      lineageAtAGlance({ checkpoints: chain(100), focus: 'c50' }, 10)
        .map((r) => r.id)
        .slice(0, 6),
    ).toEqual(['c45', 'c46', 'c47', 'c48', 'c49', 'c50']);
  });
});

describe('curvesOf', () => {
  it('groups the points by name (sorted), then by checkpoint in the chain order, keeping each series in step order', () => {
    const points = [
      { runId: 'r2', name: 'loss', step: 0, value: 0.9 },
      { runId: 'r1', name: 'reward', step: 0, value: 0.1 },
      { runId: 'r1', name: 'loss', step: 0, value: 1 },
      { runId: 'r2', name: 'loss', step: 5, value: 0.5 },
      { runId: 'r1', name: 'loss', step: 5, value: 0.6 },
      { runId: 'other', name: 'loss', step: 0, value: 7 },
    ];
    const chain = [
      { name: 'base', run: null },
      { name: 'ck1', run: { id: 'r1' } },
      { name: 'ck2', run: { id: 'r2' } },
    ];
    expect(curvesOf(points, chain)).toEqual([
      {
        name: 'loss',
        series: [
          {
            checkpoint: 'ck1',
            runId: 'r1',
            points: [
              { step: 0, value: 1 },
              { step: 5, value: 0.6 },
            ],
          },
          {
            checkpoint: 'ck2',
            runId: 'r2',
            points: [
              { step: 0, value: 0.9 },
              { step: 5, value: 0.5 },
            ],
          },
        ],
      },
      { name: 'reward', series: [{ checkpoint: 'ck1', runId: 'r1', points: [{ step: 0, value: 0.1 }] }] },
    ]);
    expect(curvesOf([], chain)).toEqual([]);
  });
});
