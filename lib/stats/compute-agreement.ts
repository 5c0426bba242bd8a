import { AppError } from '../errors';
import { bootstrapCoefficient, type Coefficient } from './bootstrap';
import { cohenKappa } from './cohen-kappa';
import { fleissKappa } from './fleiss-kappa';
import { gwetAc } from './gwet-ac';
import { krippendorffAlpha } from './krippendorff-alpha';
import { percentAgreement } from './percent-agreement';
import { type EncodedRatings, encodeRatings, type MeasurementLevel, type Rating, type RatingColumns } from './ratings';
import type { WeightScheme } from './weights';

/**
 * One agreement coefficient with its bootstrap interval, chosen by name: the use case behind
 * `witness agreement`. `level` applies to alpha only, `weights` to Cohen's kappa and Gwet's AC
 * (AC2 when weighted); passing them to another metric is an error rather than silently ignored.
 */
export type AgreementMetric = 'alpha' | 'cohen' | 'fleiss' | 'gwet' | 'percent';
export const agreementMetrics: readonly AgreementMetric[] = ['alpha', 'cohen', 'fleiss', 'gwet', 'percent'];

export interface AgreementOptions {
  metric: AgreementMetric;
  /** alpha only; default nominal */
  level?: MeasurementLevel;
  /** cohen and gwet only; default none */
  weights?: WeightScheme;
  /** bootstrap replicates; default 1000; 0 disables the interval */
  bootstrap?: number;
  seed?: number;
}

export interface AgreementReport {
  metric: AgreementMetric;
  /** the level used (alpha), else null */
  level: MeasurementLevel | null;
  /** the weights used (cohen, gwet), else null */
  weights: WeightScheme | null;
  /** NaN when the coefficient is undefined for the data */
  value: number;
  /** units that entered the coefficient */
  nUnits: number;
  /** units in the data */
  nUnitsTotal: number;
  nRaters: number;
  nRatings: number;
  ci: [number, number] | null;
  /** bootstrap replicates requested and defined */
  replicates: number;
  validReplicates: number;
}

export const metricNames: Record<AgreementMetric, string> = {
  alpha: "Krippendorff's alpha",
  cohen: "Cohen's kappa",
  fleiss: "Fleiss' kappa",
  gwet: "Gwet's AC1",
  percent: 'Percent agreement',
};

export function computeAgreement(ratings: readonly Rating[] | RatingColumns | EncodedRatings, options: AgreementOptions): AgreementReport {
  const { metric } = options;
  if (options.level !== undefined && metric !== 'alpha') {
    throw new AppError('BAD_INPUT', `A measurement level applies to Krippendorff's alpha only, not to ${metricNames[metric]}`);
  }
  if (options.weights !== undefined && options.weights !== 'none' && metric !== 'cohen' && metric !== 'gwet') {
    throw new AppError('BAD_INPUT', `Weights apply to Cohen's kappa and Gwet's AC only, not to ${metricNames[metric]}`);
  }
  const replicates = options.bootstrap ?? 1000;
  if (!Number.isInteger(replicates) || replicates < 0) {
    throw new AppError('BAD_INPUT', `Bootstrap replicates must be a non-negative integer; got ${replicates}`);
  }
  const data = 'unitStart' in ratings ? ratings : encodeRatings(ratings);
  if (data.nRatings === 0) throw new AppError('BAD_INPUT', 'There are no ratings');

  const level = metric === 'alpha' ? (options.level ?? 'nominal') : null;
  const weights = metric === 'cohen' || metric === 'gwet' ? (options.weights ?? 'none') : null;
  let coefficient: Coefficient;
  switch (metric) {
    case 'alpha':
      coefficient = krippendorffAlpha(data, level!);
      break;
    case 'cohen':
      coefficient = cohenKappa(data, weights!);
      break;
    case 'fleiss':
      coefficient = fleissKappa(data);
      break;
    case 'gwet':
      coefficient = gwetAc(data, weights!);
      break;
    case 'percent':
      coefficient = percentAgreement(data);
      break;
  }
  const boot = bootstrapCoefficient(coefficient, { replicates, seed: options.seed ?? 1 });
  return {
    metric,
    level,
    weights,
    value: coefficient.value,
    nUnits: coefficient.nUnits,
    nUnitsTotal: data.units.length,
    nRaters: data.raters.length,
    nRatings: data.nRatings,
    ci: boot.ci,
    replicates,
    validReplicates: boot.valid,
  };
}

/** Krippendorff's guidance (2004): >= 0.800 reliable, >= 0.667 tentative conclusions only. */
export type ReliabilityBand = 'reliable' | 'tentative' | 'unusable' | 'undefined';

export function reliabilityBand(value: number): ReliabilityBand {
  if (Number.isNaN(value)) return 'undefined';
  if (value >= 0.8) return 'reliable';
  if (value >= 0.667) return 'tentative';
  return 'unusable';
}
