import {
  type AgreementMetric,
  agreementMetrics,
  type AgreementReport,
  computeAgreement,
  reliabilityBand,
} from '../../lib/stats/compute-agreement';
import { type MeasurementLevel, measurementLevels } from '../../lib/stats/ratings';
import { readRatingsFile } from '../../lib/stats/read-ratings-file';
import { type WeightScheme, weightSchemes } from '../../lib/stats/weights';
import { CliError } from '../command';
import { bootstrapFlags, bootstrapOptions, fileCommand, oneOfFlag } from '../file-command';

const help = `witness agreement --input FILE [options]

Inter-rater agreement of a ratings file, with a bootstrap confidence interval.

FILE is JSONL ({"unit": …, "rater": …, "value": …} per line; "value": null = missing) or CSV
with columns unit,rater,value (empty, NA or . = missing).

Options:
  --input FILE        the ratings file (required)
  --metric M          alpha (Krippendorff, default) | cohen (two raters) | fleiss (equal ratings
                      per unit) | gwet (AC1; AC2 with --weights) | percent (pairwise agreement)
  --level L           alpha only: nominal (default) | ordinal | interval | ratio
  --weights W         cohen and gwet only: none (default) | linear | quadratic
  --bootstrap N       bootstrap replicates over units (default 1000; 0 = no interval)
  --seed S            seed of the bootstrap (default 1)
  --json              print {"metric","level","weights","value","n_units","n_raters","n_ratings","ci"}
                      (n_units: units that entered the coefficient; value null when undefined)

Exit codes: 0 ok, 1 the data does not meet the metric's preconditions or cannot be read, 2 usage.`;

const flags = { metric: { type: 'string' }, level: { type: 'string' }, weights: { type: 'string' }, ...bootstrapFlags } as const;

function options(values: { metric?: string; level?: string; weights?: string; bootstrap?: string; seed?: string }) {
  const metric: AgreementMetric = oneOfFlag('metric', values.metric, agreementMetrics) ?? 'alpha';
  const level: MeasurementLevel | undefined = oneOfFlag('level', values.level, measurementLevels);
  const weights: WeightScheme | undefined = oneOfFlag('weights', values.weights, weightSchemes);
  if (level !== undefined && metric !== 'alpha') throw new CliError(`--level applies to --metric alpha only, not ${metric}`, 2);
  if (weights !== undefined && weights !== 'none' && metric !== 'cohen' && metric !== 'gwet') {
    throw new CliError(`--weights applies to --metric cohen and gwet only, not ${metric}`, 2);
  }
  return { metric, level, weights, ...bootstrapOptions(values) };
}

function title(report: AgreementReport): string {
  switch (report.metric) {
    case 'alpha':
      return `Krippendorff's alpha (${report.level})`;
    case 'cohen':
      return report.weights === 'none' ? "Cohen's kappa" : `Cohen's kappa (${report.weights} weights)`;
    case 'gwet':
      return report.weights === 'none' ? "Gwet's AC1" : `Gwet's AC2 (${report.weights} weights)`;
    case 'fleiss':
      return "Fleiss' kappa";
    case 'percent':
      return 'Percent agreement';
  }
}

const fmt = (x: number) => (Number.isNaN(x) ? 'undefined' : x.toFixed(3));

function human(report: AgreementReport, seed: number): string {
  const lines = [`${title(report)}: ${fmt(report.value)}`];
  if (Number.isNaN(report.value)) lines.push('  (undefined for this data: no variation, or too few paired ratings)');
  if (report.ci) {
    lines.push(`95% CI: [${fmt(report.ci[0])}, ${fmt(report.ci[1])}] (${report.replicates} bootstrap replicates over units, seed ${seed})`);
  } else if (report.replicates > 0) {
    lines.push('95% CI: none (no bootstrap replicate was defined)');
  }
  lines.push(
    `Data: ${report.nRatings} ratings by ${report.nRaters} raters on ${report.nUnitsTotal} units; ${report.nUnits} units entered the coefficient`,
  );
  const band = reliabilityBand(report.value);
  const verdict = {
    reliable: 'reliable (>= 0.800)',
    tentative: 'tentative (>= 0.667): draw tentative conclusions only',
    unusable: 'below 0.667: not usable as a reward',
    undefined: 'no verdict',
  }[band];
  const note = report.metric === 'alpha' ? '' : ' (bands defined for alpha; read with care for other coefficients)';
  lines.push(`Verdict: ${verdict}${note}`);
  lines.push("Krippendorff's guidance: >= 0.800 reliable, >= 0.667 tentative, below: not usable as a reward");
  return `${lines.join('\n')}\n`;
}

export const agreementCommand = fileCommand({
  name: 'agreement',
  summary: "Inter-rater agreement of a ratings file (Krippendorff's alpha, Cohen, Fleiss, Gwet) with bootstrap CI",
  help,
  flags,
  options,
  read: readRatingsFile,
  run(ratings, options, io) {
    const report = computeAgreement(ratings, {
      metric: options.metric,
      level: options.level,
      weights: options.weights,
      bootstrap: options.bootstrap,
      seed: options.seed,
    });
    if (options.json) {
      io.stdout(
        `${JSON.stringify({
          metric: report.metric,
          level: report.level,
          weights: report.weights ?? 'none',
          value: Number.isNaN(report.value) ? null : report.value,
          n_units: report.nUnits,
          n_raters: report.nRaters,
          n_ratings: report.nRatings,
          ci: report.ci,
        })}\n`,
      );
    } else {
      io.stdout(human(report, options.seed));
    }
    return 0;
  },
});
