import type { MeanEstimate, Proportion } from '@/lib/insight/intervals';
import type { IntervalPoint } from './interval-chart';

/** A figure as a chart's bar or point: its value, its 95% interval's ends (null when it has none) and n. */
export function intervalPoint(value: number | null, ci: readonly [number, number] | null | undefined, n: number): IntervalPoint {
  return { value, low: ci?.[0] ?? null, high: ci?.[1] ?? null, n };
}

/** A rate with its Wilson interval, as a chart's bar or point. */
export const ratePoint = (p: Proportion) => intervalPoint(p.rate, p.ci, p.n);

/** A mean with its t interval, as a chart's bar or point. */
export const meanPoint = (m: MeanEstimate) => intervalPoint(m.mean, m.ci, m.n);
