import { describe, expect, it } from 'vitest';
import { planChunks } from './chunks';

describe('planChunks', () => {
  it('keeps short videos whole', () => {
    expect(planChunks(90)).toEqual([{ fromFrame: 0, toFrame: 89 }]);
  });
  it('splits long videos into contiguous, even chunks that cover every frame once', () => {
    const chunks = planChunks(1000);
    expect(chunks.length).toBe(4);
    expect(chunks[0]!.fromFrame).toBe(0);
    expect(chunks.at(-1)!.toFrame).toBe(999);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.fromFrame).toBe(chunks[i - 1]!.toFrame + 1);
  });
  it('rounds the chunk count up to a multiple of the live workers, unless chunks would get too short', () => {
    expect(planChunks(1376, { workers: 1 })).toHaveLength(5);
    const two = planChunks(1376, { workers: 2 });
    expect(two).toHaveLength(6);
    expect(two.at(-1)!.toFrame).toBe(1375);
    for (let i = 1; i < two.length; i++) expect(two[i]!.fromFrame).toBe(two[i - 1]!.toFrame + 1);
    expect(planChunks(1376, { workers: 3 })).toHaveLength(6);
    // 8 workers would mean chunks of 172 frames: fine; 16 would mean 86: keep 5
    expect(planChunks(1376, { workers: 8 })).toHaveLength(8);
    expect(planChunks(1376, { workers: 16 })).toHaveLength(5);
    expect(planChunks(400, { workers: 4 })).toHaveLength(1);
  });
  it('never leaves a chunk under 5 frames', () => {
    for (const total of [451, 602, 903, 1204, 5001]) {
      for (const c of planChunks(total)) expect(c.toFrame - c.fromFrame + 1).toBeGreaterThanOrEqual(5);
    }
  });
});
