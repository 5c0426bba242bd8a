import path from 'node:path';
import { z } from 'zod';
import { datasetFormatSchema } from '../datasets/formats';
import { AppError } from '../errors';
import { parseInput } from '../parse-input';
import { checkUrlHost, type AllowEntry } from './outbound-address';
import { redactUrlCredentials } from './url-credentials';

/**
 * What an admin configures per training sink (kept in TrainingSink.config / filter as JSON and
 * parsed here at every read). Delivery tuning (batch size, timeout, retries) sits in the config
 * with sane defaults; tests set small retry delays through it.
 */
export const sinkKinds = ['webhook', 'directory', 's3'] as const;
export type SinkKind = (typeof sinkKinds)[number];

export const retryPolicySchema = z
  .object({
    /** attempts before a delivery is dead (the sink then stops until an admin retries it) */
    attempts: z.number().int().min(1).max(100).default(8),
    baseMs: z.number().int().min(1).max(3_600_000).default(2000),
    maxMs: z.number().int().min(1).max(86_400_000).default(600_000),
  })
  .strict();

const tuning = {
  /** label events per batch */
  batchSize: z.number().int().min(1).max(5000).default(200),
  retry: retryPolicySchema.default({ attempts: 8, baseMs: 2000, maxMs: 600_000 }),
};

export const webhookConfigSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL' }),
    /** the receiver must answer within this (ms) */
    timeoutMs: z.number().int().min(50).max(300_000).default(30_000),
    ...tuning,
  })
  .strict();

export const directoryConfigSchema = z
  .object({
    /** a folder under the sinks root (WITNESS_SINK_DIR_ROOT): relative to it, or absolute inside it */
    path: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .refine((p) => !p.includes('\0'), 'path must not contain a NUL byte'),
    ...tuning,
  })
  .strict();

export const s3ConfigSchema = z
  .object({
    bucket: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'bucket must be an S3 bucket name (lowercase letters, digits, dots, dashes)'),
    prefix: z
      .string()
      .trim()
      .default('')
      .transform((p) => p.replace(/^\/+|\/+$/g, ''))
      .refine((p) => p === '' || /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(p), 'prefix is folder names separated by /'),
    ...tuning,
  })
  .strict();

export type WebhookConfig = z.infer<typeof webhookConfigSchema>;
export type DirectoryConfig = z.infer<typeof directoryConfigSchema>;
export type S3Config = z.infer<typeof s3ConfigSchema>;
export type SinkConfig = ({ kind: 'webhook' } & WebhookConfig) | ({ kind: 'directory' } & DirectoryConfig) | ({ kind: 's3' } & S3Config);

/** Which labels a sink receives (the sink's project is implied). */
export const sinkFilterSchema = z
  .object({
    campaignId: z.string().min(1).optional(),
    minReviews: z.number().int().min(0).max(100).default(1),
    minAgreement: z.number().min(0).max(1).default(0),
    scoreGap: z.number().min(0).max(1).default(0.25),
  })
  .strict();
export type SinkFilter = z.infer<typeof sinkFilterSchema>;

/**
 * The absolute folder a directory sink writes to: its path taken under `root` (relative) or as
 * given (absolute), refused when it falls outside the root (`..`, another absolute folder). The
 * worker checks again after resolving links (send-batch.ts), so a link cannot lead out either.
 */
export function resolveSinkDirectory(configPath: string, root: string): string {
  const target = path.resolve(root, configPath);
  const rel = path.relative(root, target);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    throw new AppError('BAD_INPUT', `directory sink config.path: ${configPath} is not a folder under the sinks root ${root}`, {
      details: { field: 'config.path' },
    });
  return target;
}

/**
 * At creation: a webhook URL whose host is an address the send-time check would always refuse
 * (loopback, private, link-local, the metadata service, 0.0.0.0, ... in any spelling, or
 * localhost), unless `allow` (WITNESS_SINK_ALLOW) names it, is refused here with the reason,
 * instead of being stored and failing at its first send. Names are checked again, with what they
 * resolve to, at every send (send-batch.ts).
 */
export function assertSinkUrlAllowed(config: SinkConfig, allow: AllowEntry[]): void {
  if (config.kind !== 'webhook') return;
  const refused = checkUrlHost(config.url, allow);
  if (refused)
    throw new AppError('BAD_INPUT', `webhook sink config.url: ${redactUrlCredentials(config.url)} is refused: ${refused}`, {
      details: { field: 'config.url' },
    });
}

export function parseSinkConfig(kind: SinkKind, raw: unknown): SinkConfig {
  const schema = kind === 'webhook' ? webhookConfigSchema : kind === 'directory' ? directoryConfigSchema : s3ConfigSchema;
  return { kind, ...parseInput(schema as z.ZodType<object>, raw ?? {}, `${kind} sink`, { under: 'config' }) } as SinkConfig;
}

export function parseSinkFilter(raw: unknown): SinkFilter {
  return parseInput(sinkFilterSchema, raw ?? {}, 'sink', { under: 'filter' });
}

export const createSinkInput = z.object({
  name: z.string().trim().min(1, 'give the sink a name').max(80),
  kind: z.enum(sinkKinds),
  format: datasetFormatSchema,
  config: z.record(z.string(), z.unknown()),
  secret: z.string().min(16, 'the webhook secret needs 16+ characters').max(200).optional(),
  filter: z.record(z.string(), z.unknown()).default({}),
});
export type CreateSinkInput = z.input<typeof createSinkInput>;
