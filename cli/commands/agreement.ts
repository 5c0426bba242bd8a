import path from 'node:path';
import { parseArgs } from 'node:util';
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
import { type CliCommand, CliError, failCommand } from '../command';

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

interface Options {
  input: string;
  metric: AgreementMetric;
  level: MeasurementLevel | undefined;
  weights: WeightScheme | undefined;
  bootstrap: number;
  seed: number;
  json: boolean;
  help: boolean;
}

function oneOf<T extends string>(flag: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliError(`--${flag} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`, 2);
  }
  return value as T;
}

function integer(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliError(`--${flag} must be an integer >= ${min}; got ${JSON.stringify(value)}`, 2);
  }
  return Number(value);
}

function parse(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        input: { type: 'string', short: 'i' },
        metric: { type: 'string' },
        level: { type: 'string' },
        weights: { type: 'string' },
        bootstrap: { type: 'string' },
        seed: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new CliError((error as Error).message, 2);
  }
  if (values.help) return { help: true } as Options;
  if (!values.input) throw new CliError('--input FILE is required (see witness agreement --help)', 2);
  const metric = oneOf('metric', values.metric, agreementMetrics) ?? 'alpha';
  const level = oneOf('level', values.level, measurementLevels);
  const weights = oneOf('weights', values.weights, weightSchemes);
  if (level !== undefined && metric !== 'alpha') throw new CliError(`--level applies to --metric alpha only, not ${metric}`, 2);
  if (weights !== undefined && weights !== 'none' && metric !== 'cohen' && metric !== 'gwet') {
    throw new CliError(`--weights applies to --metric cohen and gwet only, not ${metric}`, 2);
  }
  return {
    input: values.input,
    metric,
    level,
    weights,
    bootstrap: integer('bootstrap', values.bootstrap, 1000, 0),
    seed: integer('seed', values.seed, 1, -(2 ** 31)),
    json: values.json ?? false,
    help: false,
  };
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

/** Prints `error: …` and returns the exit code (2 for usage, 1 otherwise). */

export const agreementCommand: CliCommand = {
  name: 'agreement',
  summary: "Inter-rater agreement of a ratings file (Krippendorff's alpha, Cohen, Fleiss, Gwet) with bootstrap CI",
  help,
  async run(argv, io) {
    try {
      const options = parse(argv);
      if (options.help) {
        io.stdout(`${help}\n`);
        return 0;
      }
      const ratings = await readRatingsFile(path.resolve(io.cwd, options.input), options.input);
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
    } catch (error) {
      return failCommand(io, error);
    }
  },
};
