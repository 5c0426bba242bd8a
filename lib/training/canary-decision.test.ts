import { describe, expect, it } from 'vitest';
import { canaryDecision, decidingCount } from './canary-decision';

const ppi = { figure: 'ppi', above: 0.5 } as const;

describe('canary decision', () => {
  it('promotes when the lower bound is above the threshold', () => {
    const d = canaryDecision({ estimate: 0.75, ci: [0.6, 0.86], n: 40 }, ppi, 40);
    expect(d).toMatchObject({ verdict: 'promote', moreVotes: null });
    expect(d.sentence).toBe('Promote: the PPI win rate 0.75 [0.60, 0.86] (n = 40) is above 0.50.');
  });

  it('rejects when the upper bound is below the threshold', () => {
    const d = canaryDecision({ estimate: 0.25, ci: [0.14, 0.4], n: 40 }, { figure: 'human', above: 0.5 }, 40);
    expect(d).toMatchObject({ verdict: 'reject', moreVotes: null });
    expect(d.sentence).toContain('Reject: the human win rate 0.25');
  });

  it('holds when the interval straddles it, with the votes that would decide it', () => {
    // ((1.96*.5 + .8416*sqrt(.6*.4)) / .1)^2 = 193.9 -> 194 needed, 20 in hand -> 174 more
    expect(decidingCount(0.6, 0.5)).toBe(194);
    const d = canaryDecision({ estimate: 0.6, ci: [0.39, 0.78], n: 20 }, ppi, 20);
    expect(d).toMatchObject({ verdict: 'hold', moreVotes: 174 });
    expect(d.sentence).toBe('Hold: the PPI win rate 0.60 [0.39, 0.78] (n = 20) includes 0.50; about 174 more votes would decide it.');
  });

  it('a threshold other than 0.5: the one-proportion formula against it', () => {
    // ((1.959964*sqrt(.6*.4) + .841621*sqrt(.7*.3)) / .1)^2 = 181.13 -> 182
    expect(decidingCount(0.7, 0.6)).toBe(182);
    expect(decidingCount(0.6, 0.6)).toBeNull();
    const d = canaryDecision({ estimate: 0.6, ci: [0.5, 0.7], n: 90 }, { figure: 'judge', above: 0.6 }, 90);
    expect(d).toMatchObject({ verdict: 'hold', moreVotes: null });
    expect(d.sentence).toContain('no number of judged tasks would decide it');
  });

  it('holds with no figure yet', () => {
    expect(canaryDecision({ estimate: null, ci: null, n: 0 }, ppi, 0)).toMatchObject({
      verdict: 'hold',
      moreVotes: null,
      sentence: 'Hold: no PPI win rate yet (n = 0).',
    });
  });
});
