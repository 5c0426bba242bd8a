import path from 'node:path';
import { z } from 'zod';

/**
 * The one place that reads process.env (ESLint forbids it elsewhere). Parsed once per process.
 * Every process (web, worker, CLI) uses this module; the web server gets the values that
 * `witness start` resolved (embedded database URL, secret) through its environment.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** an external PostgreSQL; when absent, Witness runs an embedded one under the data dir */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'DATABASE_URL must be a postgres:// or postgresql:// URL' }).optional(),
  WITNESS_DATA_DIR: z.string().min(1).default('.data'),
  WITNESS_DB_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  WITNESS_HOST: z.string().min(1).default('127.0.0.1'),
  /** the public URL of the studio (for links and auth origin checks); defaults to http://localhost:PORT */
  WITNESS_BASE_URL: z.url().optional(),
  /** secret for sessions and signatures; generated into the data dir when absent */
  WITNESS_SECRET: z.string().min(32, 'WITNESS_SECRET must be at least 32 characters').optional(),
  CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
  /** seed the demo project and users on start */
  WITNESS_DEMO: z.enum(['0', '1']).default('1'),
  /** render videos automatically after import (and for the demo); 0 = only on request */
  WITNESS_AUTO_RENDER: z.enum(['0', '1']).default('1'),
  /** largest file `witness import` reads (MiB) */
  WITNESS_IMPORT_MAX_MB: z.coerce.number().int().positive().default(256),
  /** largest request body POST /api/v1/trajectories accepts (MiB) */
  WITNESS_API_MAX_MB: z.coerce.number().int().positive().default(64),
  /** connections of the hot-path SQL pool (lib/db/sql.ts) per process; `npm run bench -- review` compares sizes */
  WITNESS_SQL_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /** where videos and exports are stored: local files under the data dir by default, or s3://bucket/prefix */
  STORAGE_URL: z
    .string()
    .regex(/^(file:|s3:\/\/[a-z0-9.-]+(\/.*)?$)/, 'STORAGE_URL must be s3://bucket[/prefix] (or unset for local files)')
    .optional(),
  /** S3-compatible endpoint (e.g. http://127.0.0.1:5000 for moto_server, MinIO); default AWS */
  S3_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  /**
   * hosts, addresses or CIDR ranges (comma separated, optional :port) that webhook sinks may reach
   * although they are loopback, private or link-local (e.g. `127.0.0.1:8787` for a receiver on this machine)
   */
  WITNESS_SINK_ALLOW: z.string().default(''),
  /** the folder directory sinks write under (default: sinks/ in the data dir); a sink's path is confined to it */
  WITNESS_SINK_DIR_ROOT: z.string().min(1).optional(),
  /**
   * how many reverse proxies in front of the studio append to X-Forwarded-For (0: clients talk to
   * it directly, and any X-Forwarded-For they send is ignored); the per-address rate limits count
   * the address this many hops from the right
   */
  WITNESS_TRUSTED_PROXIES: z.coerce.number().int().min(0).max(10).default(0),
  /** extra trusted origins for sign-in (comma separated) */
  WITNESS_TRUSTED_ORIGINS: z.string().default(''),
  /** `witness mcp`: the studio it bridges to (its /api/mcp) */
  WITNESS_URL: z.url({ protocol: /^https?$/, error: 'WITNESS_URL must be the http(s):// URL of the studio' }).optional(),
  /** `witness mcp`: the API token it acts as (wit_…) */
  WITNESS_TOKEN: z.string().min(1).optional(),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const first = parsed.error.issues[0]!;
      throw new Error(`Invalid environment: ${first.path.join('.')}: ${first.message}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Forget the parsed values (the CLI sets variables for child processes, tests override). */
export function resetEnvCache(): void {
  cached = undefined;
}

/**
 * Remembers the environment now; the returned function puts it back (variables set since are
 * removed, changed ones restored) and re-parses on next read. `npm run bench` wraps each area in
 * it, so one area's DATABASE_URL never reaches the next.
 */
export function snapshotEnv(): () => void {
  const saved = { ...process.env };
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    cached = undefined;
  };
}

/** Set a variable for this process and its children (undefined: remove it), and re-parse on next read. */
export function setEnv(name: keyof Env, value: string | undefined): void {
  if (value === undefined) delete (process.env as Record<string, string>)[name];
  else (process.env as Record<string, string>)[name] = value;
  cached = undefined;
}

/** The raw value of a variable as this process has it (to restore it after a test or bench sets it). */
export function rawEnv(name: keyof Env): string | undefined {
  return (process.env as Record<string, string | undefined>)[name];
}

export function dataDir(): string {
  return path.resolve(env().WITNESS_DATA_DIR);
}

/** Where directory sinks may write (lib/training/sink-config.ts confines each sink's path to it). */
export function sinkDirectoryRoot(): string {
  return path.resolve(env().WITNESS_SINK_DIR_ROOT ?? path.join(dataDir(), 'sinks'));
}

export function baseUrl(): string {
  const e = env();
  return e.WITNESS_BASE_URL ?? `http://localhost:${e.PORT}`;
}

/** Origins trusted to send sign-ins and server actions: the base URL and WITNESS_TRUSTED_ORIGINS. */
export function trustedOrigins(): string[] {
  return [
    baseUrl(),
    ...env()
      .WITNESS_TRUSTED_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  ].map((o) => o.replace(/\/+$/, ''));
}

/** The process's full environment, for spawning children that must see the same settings. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}
