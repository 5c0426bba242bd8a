import { describe, expect, it } from 'vitest';
import { teachability } from './teachability';

describe('teachability', () => {
  it('counts tasks solved sometimes but not always, among tasks with two or more attempts', () => {
    const t = teachability([
      { attempts: 2, passes: 1 },
      { attempts: 3, passes: 3 },
      { attempts: 4, passes: 0 },
      { attempts: 1, passes: 1 },
      { attempts: 5, passes: 2 },
    ]);
    expect(t.teachable.k).toBe(2);
    expect(t.teachable.n).toBe(4);
    expect(t.teachable.rate).toBe(0.5);
    expect(t.teachable.ci![0]).toBeCloseTo(0.15, 2);
    expect(t.teachable.ci![1]).toBeCloseTo(0.85, 2);
    expect(t.alwaysSolved).toBe(1);
    expect(t.neverSolved).toBe(1);
    expect(t.tooFewAttempts).toBe(1);
  });

  it('no scored tasks: no share', () => {
    expect(teachability([{ attempts: 0, passes: 0 }]).teachable.rate).toBeNull();
  });
});
