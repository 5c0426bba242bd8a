import { describe, expect, it } from 'vitest';
import { addReading, agentReading, MAX_STILLS_KEPT, mergeRange, stepsRead } from './agent-reading';

describe('what an agent reviewer fetched', () => {
  it('merges step ranges that overlap or touch, keeps the others apart', () => {
    expect(mergeRange([], [3, 5])).toEqual([[3, 5]]);
    expect(mergeRange([[3, 5]], [6, 8])).toEqual([[3, 8]]);
    expect(mergeRange([[3, 5]], [0, 1])).toEqual([
      [0, 1],
      [3, 5],
    ]);
    expect(
      mergeRange(
        [
          [0, 1],
          [3, 5],
          [9, 9],
        ],
        [2, 9],
      ),
    ).toEqual([[0, 9]]);
  });

  it('counts distinct steps over trajectories and stills in order, bounded', () => {
    let r = agentReading.parse({});
    r = addReading(r, 'a', { steps: [0, 4] });
    r = addReading(r, 'a', { steps: [2, 6], still: { step: 3 } });
    r = addReading(r, 'b', { steps: [10, 10], still: { timeSec: 1.5 } });
    expect(stepsRead(r)).toBe(8);
    expect(r.stills).toEqual([
      { trajectoryId: 'a', step: 3 },
      { trajectoryId: 'b', timeSec: 1.5 },
    ]);
    for (let i = 0; i < MAX_STILLS_KEPT + 5; i++) r = addReading(r, 'a', { still: { step: 0 } });
    expect(r.stills).toHaveLength(MAX_STILLS_KEPT);
  });

  it('reads a malformed stored value as nothing fetched', () => {
    expect(agentReading.parse('x')).toEqual({ steps: {}, stills: [] });
  });
});
