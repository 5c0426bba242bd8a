import { parseArgs } from 'node:util';
import { projectAccess } from '../../lib/auth/project-access';
import { datasetFormats, type DatasetFormat } from '../../lib/datasets/formats';
import { disconnectDb } from '../../lib/db/client';
import { cancelTrainingRun } from '../../lib/training/cancel-training-run';
import { listTrainingRuns } from '../../lib/training/list-training-runs';
import { startTrainingRun } from '../../lib/training/start-training-run';
import { trainingRunStatuses, type TrainingRunView } from '../../lib/training/training-run-schemas';
import type { TrainingCaller } from '../../lib/training/training-run-view';
import { viewTrainingRun } from '../../lib/training/view-training-run';
import { findProjectBySlug } from '../../lib/trajectories/find-project-by-slug';
import { CliError, type CliCommand, type CliIo } from '../command';
import { openDatabase } from '../database';

const help = `Usage: witness train start --project P --format F --base POLICY [--base-uri URI] [--campaign ID]
                           [--min-agreement A] [--min-reviews N] [--labels k=v,k=v] [--max-attempts N] [--json]
       witness train list [--project P] [--status S] [--limit N] [--json]
       witness train show ID [--no-metrics] [--json]
       witness train cancel ID [--json]

Training runs on the studio's database (as its operator: every project). A run trains on the
labels frozen when it starts: the train-split export of the project (or one campaign) in the
trainer format F, written at once and kept by its sha256. A trainer agent (\`witness-trainer\`,
clients/python) claims it, runs the training command, streams its logs and metrics back and
registers the checkpoint. Refused before anything is queued when BASE is not a policy of the
project, the labels touch an evaluation task, or they give 0 rows.

  --project P        the project (slug)
  --format F         the recipe: ${datasetFormats.join(', ')}
  --base POLICY      the base checkpoint: a policy name of the project (the run's checkpoint is its child)
  --base-uri URI     the base model's URI the command receives as {base_uri}
  --campaign ID      only this campaign's labels (default: every campaign of the project)
  --min-agreement A  leave out items whose reviewers agree less than A (0..1)
  --min-reviews N    leave out items with fewer than N reviews
  --labels k=v,k=v   routing: only an agent carrying every one of these labels claims the run
  --max-attempts N   attempts before the run fails (1..10; default 3)
  --status S         list: ${trainingRunStatuses.join(', ')}
  --no-metrics       show: leave the metric points out
  --json             start: {"id", "status", "rows", "sha256"}; list: {"runs": [run…]};
                     show and cancel: the run as GET /api/v1/training-runs/ID answers it

Exit codes: 0 ok, 1 refused or failed, 2 usage.`;

/** The operator at the studio's own terminal: every project, no user for the audit log. */
const operator: TrainingCaller = { id: null, access: projectAccess('admin', []) };

function number(flag: string, value: string | undefined, min: number, max: number, integer = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n)))
    throw new CliError(`--${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}; got ${JSON.stringify(value)}`, 2);
  return n;
}

/** `k=v,k=v` as {k: v}. */
export function parseLabels(text: string | undefined): Record<string, string> | undefined {
  if (text === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const eq = part.indexOf('=');
    if (eq <= 0 || eq === part.length - 1)
      throw new CliError(`--labels takes k=v pairs separated by commas; got ${JSON.stringify(part)}`, 2);
    out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return out;
}

function line(run: TrainingRunView): string {
  const checkpoint = run.checkpoint ? `  checkpoint ${run.checkpoint.name} (${run.checkpoint.uri})` : '';
  return `${run.id}  ${run.status.padEnd(9)}  ${run.project}  ${run.recipe}  base ${run.base.name}  attempt ${run.attempts}/${run.maxAttempts}  ${run.rows} rows${checkpoint}`;
}

function describe(run: TrainingRunView): string {
  const out = [
    line(run),
    `dataset   export ${run.exportId}, sha256 ${run.sha256}`,
    `labels    ${run.labelSet.reviews} reviews by ${run.labelSet.reviewers} reviewers in ${run.labelSet.campaigns.length} campaign(s), ${run.labelSet.reviewerHours.toFixed(2)} reviewer-hours${run.labelSet.staleReviews ? `, ${run.labelSet.staleReviews} revised since` : ''}`,
  ];
  if (run.agent) out.push(`agent     ${run.agent}${run.cancelRequested ? ' (cancel requested)' : ''}`);
  if (run.failureReason) out.push(`failure   ${run.failureReason}`);
  if (run.evalError) out.push(`eval      ${run.evalError}`);
  if (run.canaryCampaign) out.push(`canary    campaign ${run.canaryCampaign.id}`);
  if (run.metrics?.length) {
    const last = new Map<string, { step: number; value: number }>();
    for (const m of run.metrics) last.set(m.name, m);
    out.push(`metrics   ${[...last].map(([name, m]) => `${name} ${m.value} @${m.step}`).join(', ')}`);
  }
  if (run.logTail.length) out.push('log tail:', ...run.logTail.slice(-10).map((l) => `  ${l}`));
  return out.join('\n') + '\n';
}

async function withDatabase<T>(work: () => Promise<T>): Promise<T> {
  const database = await openDatabase();
  try {
    return await work();
  } finally {
    await disconnectDb();
    await database.stop();
  }
}

export const trainCommand: CliCommand = {
  name: 'train',
  summary: 'training runs on the reviews: train start, list, show ID, cancel ID (a trainer agent serves them)',
  help,
  async run(argv: string[], io: CliIo) {
    const [sub, ...rest] = argv;
    if (sub !== 'start' && sub !== 'list' && sub !== 'show' && sub !== 'cancel')
      throw new CliError(`unknown subcommand ${sub ?? '(none)'}: expected "witness train start", "list", "show ID" or "cancel ID"`, 2);
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: {
          project: { type: 'string' },
          format: { type: 'string' },
          base: { type: 'string' },
          'base-uri': { type: 'string' },
          campaign: { type: 'string' },
          'min-agreement': { type: 'string' },
          'min-reviews': { type: 'string' },
          labels: { type: 'string' },
          'max-attempts': { type: 'string' },
          status: { type: 'string' },
          limit: { type: 'string' },
          'no-metrics': { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
        },
        strict: true,
        allowPositionals: true,
      });
    } catch (error) {
      throw new CliError((error as Error).message, 2);
    }
    const { values, positionals } = parsed;
    const takesId = sub === 'show' || sub === 'cancel';
    if (takesId && positionals.length !== 1) throw new CliError(`witness train ${sub} ID: one run id (see "witness train list")`, 2);
    if (!takesId && positionals.length > 0) throw new CliError(`unexpected argument ${positionals[0]}`, 2);
    const startOnly = (
      ['format', 'base', 'base-uri', 'campaign', 'min-agreement', 'min-reviews', 'labels', 'max-attempts'] as const
    ).filter((k) => values[k] !== undefined);
    if (sub !== 'start' && startOnly.length > 0) throw new CliError(`--${startOnly[0]} is for "witness train start" only`, 2);
    if (sub !== 'list' && (values.status !== undefined || values.limit !== undefined))
      throw new CliError(`--${values.status !== undefined ? 'status' : 'limit'} is for "witness train list" only`, 2);
    if (sub !== 'start' && sub !== 'list' && values.project !== undefined)
      throw new CliError('--project is for "start" and "list" only', 2);

    if (sub === 'start') {
      if (!values.project) throw new CliError('--project P is required', 2);
      if (!values.format || !(datasetFormats as readonly string[]).includes(values.format))
        throw new CliError(
          `--format must be one of ${datasetFormats.join(', ')}${values.format ? `; got ${JSON.stringify(values.format)}` : ''}`,
          2,
        );
      if (!values.base) throw new CliError('--base POLICY is required (a policy name of the project)', 2);
      const request = {
        recipe: values.format as DatasetFormat,
        base: values.base,
        baseUri: values['base-uri'],
        campaignId: values.campaign,
        minAgreement: number('min-agreement', values['min-agreement'], 0, 1),
        minReviews: number('min-reviews', values['min-reviews'], 0, 100, true),
        labels: parseLabels(values.labels),
        maxAttempts: number('max-attempts', values['max-attempts'], 1, 10, true),
      };
      const run = await withDatabase(async () => {
        const project = await findProjectBySlug(values.project!, null);
        const { id } = await startTrainingRun({ ...request, projectId: project.id }, null);
        return viewTrainingRun(operator, id, { metrics: false });
      });
      if (values.json) io.stdout(JSON.stringify({ id: run.id, status: run.status, rows: run.rows, sha256: run.sha256 }) + '\n');
      else io.stdout(`Queued training run ${run.id}: ${run.rows} rows of ${run.recipe}, sha256 ${run.sha256}\n`);
      return 0;
    }
    if (sub === 'list') {
      if (values.status !== undefined && !(trainingRunStatuses as readonly string[]).includes(values.status))
        throw new CliError(`--status must be one of ${trainingRunStatuses.join(', ')}; got ${JSON.stringify(values.status)}`, 2);
      const limit = number('limit', values.limit, 1, 200, true);
      const page = await withDatabase(() =>
        listTrainingRuns(operator, {
          ...(values.project ? { project: values.project } : {}),
          ...(values.status ? { status: values.status as 'queued' } : {}),
          ...(limit ? { limit } : {}),
        }),
      );
      if (values.json) io.stdout(JSON.stringify({ runs: page.runs }) + '\n');
      else if (page.runs.length === 0) io.stdout('No training runs.\n');
      else io.stdout(page.runs.map(line).join('\n') + '\n');
      return 0;
    }
    const id = positionals[0]!;
    const run = await withDatabase(() =>
      sub === 'show' ? viewTrainingRun(operator, id, { metrics: !values['no-metrics'] }) : cancelTrainingRun(operator, id),
    );
    if (values.json) io.stdout(JSON.stringify(run) + '\n');
    else if (sub === 'cancel')
      io.stdout(
        run.status === 'cancelled' ? `Cancelled ${run.id}\n` : `Asked the agent to stop ${run.id} (${run.status}, cancel requested)\n`,
      );
    else io.stdout(describe(run));
    return 0;
  },
};
