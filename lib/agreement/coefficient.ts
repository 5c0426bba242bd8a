import { computeAgreement, reliabilityBand, type ReliabilityBand } from '../stats/compute-agreement';
import type { MeasurementLevel, Rating } from '../stats/ratings';

/** Krippendorff's alpha with its bootstrap interval, its band, and how much data it rests on. */
export interface AlphaSummary {
  level: MeasurementLevel;
  /** null when undefined (fewer than two pairable ratings, or no variation at all) */
  value: number | null;
  ci: [number, number] | null;
  band: ReliabilityBand;
  /** units with at least two ratings (those that enter alpha) */
  nItems: number;
  nRaters: number;
  nRatings: number;
}

export interface AlphaOptions {
  replicates?: number;
  seed?: number;
}

export function alphaSummary(ratings: readonly Rating[], level: MeasurementLevel, options: AlphaOptions = {}): AlphaSummary {
  if (ratings.length === 0) return { level, value: null, ci: null, band: 'undefined', nItems: 0, nRaters: 0, nRatings: 0 };
  const report = computeAgreement(ratings, { metric: 'alpha', level, bootstrap: options.replicates ?? 1000, seed: options.seed ?? 1 });
  const value = Number.isNaN(report.value) ? null : report.value;
  return {
    level,
    value,
    ci: value === null ? null : report.ci,
    band: reliabilityBand(report.value),
    nItems: report.nUnits,
    nRaters: report.nRaters,
    nRatings: report.nRatings,
  };
}

/** The most common value and its share; `tied` when two values share the top count. */
export function modeOf<V>(values: readonly V[]): { value: V; count: number; share: number; tied: boolean } | null {
  if (values.length === 0) return null;
  const counts = new Map<V, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: V = values[0]!;
  let bestCount = 0;
  let tied = false;
  for (const [v, c] of counts) {
    if (c > bestCount) {
      best = v;
      bestCount = c;
      tied = false;
    } else if (c === bestCount) tied = true;
  }
  return { value: best, count: bestCount, share: bestCount / values.length, tied };
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function mean(values: readonly number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}
