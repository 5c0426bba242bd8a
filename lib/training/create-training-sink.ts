import { randomBytes } from 'node:crypto';
import { env, sinkDirectoryRoot } from '../env';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { kickDelivery } from './kick-delivery';
import { parseAllowList } from './outbound-address';
import { campaignIsInProject, insertSink, type SinkRow } from './queries/training-sinks';
import {
  assertSinkUrlAllowed,
  createSinkInput,
  parseSinkConfig,
  parseSinkFilter,
  resolveSinkDirectory,
  type CreateSinkInput,
} from './sink-config';

/**
 * Adds a training sink to a project: validates its kind's config (a directory under the sinks
 * root, a webhook URL the send-time check would not always refuse) and filter (a campaign of
 * this project), gives a webhook without a secret a generated one (returned once, on the row),
 * and with `databaseUrl` queues its first delivery run (without: the caller runs deliverSink,
 * as tests and benches do). CONFLICT when the project has a sink of that name.
 */
export async function createTrainingSink(
  projectId: string,
  raw: CreateSinkInput,
  options: { databaseUrl?: string } = {},
): Promise<SinkRow> {
  const input = parseInput(createSinkInput, raw, '');
  const config = parseSinkConfig(input.kind, input.config);
  const filter = parseSinkFilter(input.filter);
  if (config.kind === 'directory') resolveSinkDirectory(config.path, sinkDirectoryRoot());
  assertSinkUrlAllowed(config, parseAllowList(env().WITNESS_SINK_ALLOW));
  if (filter.campaignId && !(await campaignIsInProject(filter.campaignId, projectId)))
    throw new AppError('BAD_INPUT', `filter.campaignId: no campaign ${filter.campaignId} in this project`);
  const { kind: _kind, ...stored } = config;
  void _kind;
  const secret = input.kind === 'webhook' ? (input.secret ?? `whsec_${randomBytes(24).toString('hex')}`) : null;
  const sink = await insertSink(projectId, { name: input.name, kind: input.kind, format: input.format, config: stored, filter, secret });
  if (!sink) throw new AppError('CONFLICT', `A sink named "${input.name}" already exists in this project`);
  if (options.databaseUrl) await kickDelivery(options.databaseUrl, sink.id);
  return sink;
}
