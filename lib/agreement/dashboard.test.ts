import { describe, expect, it } from 'vitest';
import { toCsv } from '../csv';
import { agreementDashboard } from './dashboard';
import { dashboardParams } from './dashboard-params';
import { agreementTable, agreementTables } from './tables';
import { campaign, item, review } from './test/campaign-fixture';

describe('the agreement dashboard', () => {
  // Krippendorff (2011)'s 4 coders x 12 units example as Likert answers (. = missing):
  // ordinal alpha 0.815 is the published value
  const coders: Record<string, (number | null)[]> = {
    A: [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
    B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
    C: [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
    D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
  };
  const rubric = {
    title: 'k',
    instructions: '',
    questions: [{ id: 'quality', type: 'likert' as const, prompt: 'Quality', points: 5, anchors: {}, required: true }],
  };
  const items = Array.from({ length: 12 }, (_, u) => item(`u${String(u).padStart(2, '0')}`));
  const reviews = Object.entries(coders).flatMap(([coder, values]) =>
    values.flatMap((v, u) => (v === null ? [] : [review(`u${String(u).padStart(2, '0')}`, coder, { quality: v })])),
  );
  const d = agreementDashboard(campaign(items, reviews, rubric), { replicates: 500 });

  it('reproduces the published ordinal alpha, with an interval around it, its band and counts', () => {
    const q = d.questions[0]!;
    expect(q.value).toBeCloseTo(0.815, 3);
    expect(q.band).toBe('reliable');
    expect(q.ci![0]).toBeLessThan(0.815);
    expect(q.ci![1]).toBeGreaterThan(0.815);
    // unit 12 has one rating: it drops out
    expect(q).toMatchObject({ nItems: 11, nRaters: 4, nRatings: 41, level: 'ordinal' });
  });

  it('writes every table as CSV with a header row', () => {
    for (const name of agreementTables) {
      const t = agreementTable(d, name);
      expect(toCsv(t.headers, t.rows).split('\r\n')[0]).toBe(t.headers.join(','));
    }
    expect(agreementTable(d, 'questions').rows[0]!.slice(0, 4)).toEqual(['quality', 'Quality', 'ordinal', 0.8154]);
    expect(agreementTable(d, 'reviewers').rows.map((r) => r[1])).toEqual(['A', 'B', 'C', 'D']);
    expect(agreementTable(d, 'matrix').rows).toHaveLength(6);
  });

  it('computes only the parts asked for (one CSV download needs one)', () => {
    const only = agreementDashboard(campaign(items, reviews, rubric), { replicates: 10, parts: ['matrix'] });
    expect(only.questions).toEqual([]);
    expect(only.reviewers).toEqual([]);
    expect(only.matrix.matrix.cells).toHaveLength(6);
  });

  it('reads its URL parameters leniently: bad values fall back to the defaults', () => {
    expect(dashboardParams({ q: 'flags.unsafe', threshold: '0.7', cut: '0.6', range: '3' })).toEqual({
      matrixQuestion: 'flags.unsafe',
      threshold: 0.7,
      majorityCut: 0.6,
      ordinalRange: 3,
    });
    expect(dashboardParams({ q: 'DROP TABLE', threshold: 'x', cut: '7', range: ['2', '5'] })).toEqual({ ordinalRange: 2 });
  });
});
