import type { RateSideBySide } from './policy-report';

/**
 * The rows the compare page charts: the verifier and reviewer pass rates, then the criteria with
 * the most data on both sides (min of the two n), at most `maxCriteria`, in the table's order.
 * Tasks bring their own criteria, so a project can have dozens of n=1 criteria; charted side by
 * side they overlap into noise. The table below the chart keeps every row.
 */
export const CHART_CRITERIA = 6;

export function compareChartRows(
  rows: readonly RateSideBySide[],
  maxCriteria = CHART_CRITERIA,
): { rows: RateSideBySide[]; leftOut: number } {
  const [verifier, reviewers, ...criteria] = rows;
  const kept = new Set(
    criteria
      .filter((r) => Math.min(r.a.n, r.b.n) > 0)
      .sort((x, y) => Math.min(y.a.n, y.b.n) - Math.min(x.a.n, x.b.n) || (x.label < y.label ? -1 : x.label > y.label ? 1 : 0))
      .slice(0, maxCriteria),
  );
  const charted = criteria.filter((r) => kept.has(r));
  return {
    rows: [verifier, reviewers].filter((r): r is RateSideBySide => r !== undefined).concat(charted),
    leftOut: criteria.length - charted.length,
  };
}
