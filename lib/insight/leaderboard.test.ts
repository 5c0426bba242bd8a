import { describe, expect, it } from 'vitest';
import type { Battle } from '../stats/battles';
import { bradleyTerryRatings } from '../stats/bradley-terry';
import { BOOTSTRAP_ROUNDS, leaderboard } from './leaderboard';
import { hasFlag, reviewVerdict } from './review-verdict';

describe('leaderboard from comparison counts', () => {
  it('equals the Bradley-Terry fit on the expanded battles (ties and both-bad as ties)', () => {
    const rows = [
      { policyA: 'ckpt-1000', policyB: 'ckpt-2000', outcome: 'b' as const, count: 14 },
      { policyA: 'ckpt-1000', policyB: 'ckpt-2000', outcome: 'a' as const, count: 6 },
      { policyA: 'ckpt-2000', policyB: 'ckpt-1000', outcome: 'tie' as const, count: 4 },
      { policyA: 'ckpt-2000', policyB: 'claude', outcome: 'b' as const, count: 9 },
      { policyA: 'ckpt-2000', policyB: 'claude', outcome: 'a' as const, count: 3 },
    ];
    const battles: Battle[] = rows.flatMap((r) =>
      Array.from(
        { length: r.count },
        () =>
          ({
            model_a: r.policyA,
            model_b: r.policyB,
            winner: r.outcome === 'a' ? 'model_a' : r.outcome === 'b' ? 'model_b' : 'tie',
          }) as Battle,
      ),
    );
    const got = leaderboard(rows, 5);
    const want = bradleyTerryRatings(battles, { bootstrap: 1000, seed: 5 });
    expect(got.ratings).toEqual(want.ratings);
    expect(got.ratings.map((r) => r.model)).toEqual(['claude', 'ckpt-2000', 'ckpt-1000']);
    expect(got.nBattles).toBe(36);
  });

  it('keeps 1,000 rounds at 100,000 comparisons, with the interval normal theory gives', () => {
    const got = leaderboard([
      { policyA: 'old', policyB: 'new', outcome: 'b', count: 60_000 },
      { policyA: 'old', policyB: 'new', outcome: 'a', count: 40_000 },
    ]);
    expect(got.bootstrapRounds).toBe(BOOTSTRAP_ROUNDS);
    const newer = got.ratings.find((r) => r.model === 'new')!;
    // ratings +-(400 / 2) log10(0.6 / 0.4) around 1000; the difference has se (400 / ln 10) / sqrt(n p (1 - p)), each rating half of it
    expect(newer.rating).toBeCloseTo(1000 + 200 * Math.log10(1.5), 6);
    const half = (1.96 * ((400 / Math.LN10) * Math.sqrt(1 / (100_000 * 0.24)))) / 2;
    expect(newer.ci![0]).toBeCloseTo(newer.rating - half, 0);
    expect(newer.ci![1]).toBeCloseTo(newer.rating + half, 0);
    expect(newer.ci![1] - newer.ci![0]).toBeGreaterThan(1.8 * half);
    expect(newer.ci![1] - newer.ci![0]).toBeLessThan(2.2 * half);
  });
});

describe('review verdicts and flags', () => {
  it('passes when some criterion passed and none failed', () => {
    expect(reviewVerdict({ criteria: { a: 'pass', b: 'pass' }, overall: 4, flags: [] }, 'criteria')).toBe('pass');
    expect(reviewVerdict({ criteria: { a: 'pass', b: 'fail' } }, 'criteria')).toBe('fail');
    expect(reviewVerdict({ criteria: {}, overall: 5 }, 'criteria')).toBeNull();
    expect(reviewVerdict({ other: { a: 'fail' } }, 'criteria')).toBeNull();
    expect(reviewVerdict({ criteria: { a: 'fail' } }, null)).toBeNull();
    expect(reviewVerdict(null, 'criteria')).toBeNull();
  });

  it("reads flags from the rubric's flags question only", () => {
    expect(hasFlag({ flags: ['reward_hacking'] }, 'flags', 'reward_hacking')).toBe(true);
    expect(hasFlag({ flags: ['unsafe'] }, 'flags', 'reward_hacking')).toBe(false);
    expect(hasFlag({ note: 'reward_hacking' }, 'flags', 'reward_hacking')).toBe(false);
    expect(hasFlag({ other: ['reward_hacking'] }, 'flags', 'reward_hacking')).toBe(false);
  });
});

describe('leaderboard: kept results', () => {
  it('the same rows give the same (frozen) result, other rows or another seed a fresh one', () => {
    const rows = [
      { policyA: 'x', policyB: 'y', outcome: 'b' as const, count: 7 },
      { policyA: 'x', policyB: 'y', outcome: 'a' as const, count: 3 },
    ];
    const first = leaderboard(rows);
    expect(leaderboard(rows.map((r) => ({ ...r })))).toBe(first);
    expect(Object.isFrozen(first.ratings[0])).toBe(true);
    expect(leaderboard(rows, 2)).not.toBe(first);
    const other = leaderboard([{ ...rows[0]!, count: 8 }, rows[1]!]);
    expect(other).not.toBe(first);
    expect(other.nBattles).toBe(11);
  });
});
