import { describe, expect, it } from 'vitest';
import { lineageAtAGlance, type HillClimbCheckpoint } from './view-hill-climb';

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
