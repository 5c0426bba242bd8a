import { describe, expect, it } from 'vitest';
import { wilson } from './intervals';
import { compareChartRows } from './compare-chart-rows';
import { sideBySide } from './policy-report';

const row = (label: string, na: number, nb: number) => sideBySide(label, wilson(Math.floor(na / 2), na), wilson(Math.floor(nb / 2), nb));

describe('compareChartRows', () => {
  it('keeps the two pass rates and the criteria with most data on both sides, in table order', () => {
    const rows = [
      row('Verifier pass', 10, 10),
      row('Reviewers pass', 8, 9),
      row('Criterion: a', 1, 1),
      row('Criterion: b', 6, 2),
      row('Criterion: c', 4, 4),
      row('Criterion: d', 0, 7),
      row('Criterion: e', 3, 5),
    ];
    const { rows: charted, leftOut } = compareChartRows(rows, 2);
    expect(charted.map((r) => r.label)).toEqual(['Verifier pass', 'Reviewers pass', 'Criterion: c', 'Criterion: e']);
    expect(leftOut).toBe(3);
    expect(compareChartRows(rows).rows).toHaveLength(2 + 4); // d has no data on A
  });
});
