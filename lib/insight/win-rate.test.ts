import { describe, expect, it } from 'vitest';
import { outcomeOf, winRate } from './win-rate';

describe('win rate of B over A', () => {
  it('maps a preference to an outcome; both bad is always a tie', () => {
    expect(outcomeOf(2, false)).toBe('b');
    expect(outcomeOf(1, false)).toBe('b');
    expect(outcomeOf(-1, false)).toBe('a');
    expect(outcomeOf(0, false)).toBe('tie');
    expect(outcomeOf(2, true)).toBe('tie');
  });

  it('30 wins of 40: 75% [59.8%, 85.8%], distinguishable from a coin flip', () => {
    const w = winRate({ bWins: 30, aWins: 10, ties: 0 });
    expect(w.rate).toBe(0.75);
    expect(w.n).toBe(40);
    expect(w.ci![0]).toBeCloseTo(0.598, 3);
    expect(w.ci![1]).toBeCloseTo(0.8581, 3);
    expect(w.distinguishable).toBe(true);
    // ((1.96*.5 + .8416*sqrt(.1875)) / .25)^2 = 28.9 -> 29 needed, 40 in hand
    expect(w.needed).toBe(29);
    expect(w.more).toBe(0);
  });

  it('ties count half; an even split cannot be settled', () => {
    const w = winRate({ bWins: 10, aWins: 10, ties: 20 });
    expect(w.rate).toBe(0.5);
    expect(w.distinguishable).toBe(false);
    expect(w.needed).toBeNull();
    const small = winRate({ bWins: 6, aWins: 4, ties: 0 });
    expect(small.distinguishable).toBe(false);
    expect(small.needed).toBe(194);
    expect(small.more).toBe(184);
  });

  it('no comparisons: no rate, no interval', () => {
    const w = winRate({ bWins: 0, aWins: 0, ties: 0 });
    expect(w.rate).toBeNull();
    expect(w.ci).toBeNull();
    expect(w.distinguishable).toBe(false);
  });
});
