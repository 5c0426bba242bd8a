import { z } from 'zod';
import { projectRoleSchema } from '../auth/project-access';
import { formatNames, splitSchema } from '../formats/trajectory';
import { projectSlugSchema } from './project-schemas';

/**
 * The public API's trajectory and project shapes (app/api/v1/projects, app/api/v1/trajectories…):
 * what the routes parse and what they answer, one schema each; lib/http/openapi/api-contract.ts
 * publishes them (GET /api/v1/openapi.json).
 */

const isoTime = z.iso.datetime();

/** GET /api/v1/projects?role=reviewer|lead */
export const projectsQuery = z.object({ role: projectRoleSchema.default('reviewer') });

export const projectsAnswer = z.object({
  projects: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      createdAt: isoTime,
      counts: z.object({
        environments: z.number().int(),
        tasks: z.number().int(),
        trajectories: z.number().int(),
        campaigns: z.number().int(),
        members: z.number().int(),
      }),
      role: projectRoleSchema.nullable(),
    }),
  ),
});

/** One row of a trajectory list (lib/trajectories/queries/trajectory-queries.ts `TrajectoryRow`). */
export const trajectoryRowSchema = z.object({
  id: z.string(),
  projectSlug: z.string(),
  taskName: z.string(),
  environment: z.string().nullable(),
  policy: z.string(),
  split: splitSchema,
  steps: z.number().int(),
  verifierReward: z.number().nullable(),
  judge: z.object({
    count: z.number().int(),
    mean: z.number().nullable(),
    judges: z.array(z.object({ judge: z.string(), score: z.number().nullable(), label: z.string().nullable() })),
  }),
  reviews: z.number().int(),
  format: z.string(),
  createdAt: isoTime,
});

/** The largest page of GET /api/v1/trajectories. */
export const TRAJECTORY_API_MAX_LIMIT = 200;

/** GET /api/v1/trajectories?project=&cursor=&limit= (and the list's filters), newest first. */
export const trajectoryPageQuery = z.object({
  /** a project's slug (or id); absent: every project the caller leads */
  project: z.string().trim().min(1).max(200).optional(),
  /** `nextCursor` of the previous page */
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(TRAJECTORY_API_MAX_LIMIT).default(50),
  /** environment id */
  environment: z.string().trim().min(1).max(200).optional(),
  /** policy id */
  policy: z.string().trim().min(1).max(200).optional(),
  split: splitSchema.optional(),
  /** free text on the task name (case-insensitive substring) */
  q: z.string().trim().min(1).max(200).optional(),
});
export type TrajectoryPageQuery = z.input<typeof trajectoryPageQuery>;

export const trajectoryPageAnswer = z.object({
  trajectories: z.array(trajectoryRowSchema),
  /** pass as `cursor` for the next page; null on the last */
  nextCursor: z.string().nullable(),
});
export type TrajectoryPageAnswer = z.infer<typeof trajectoryPageAnswer>;

const stepSchema = z.object({
  index: z.number().int(),
  source: z.string(),
  text: z.string(),
  reasoning: z.string().nullable(),
  toolCalls: z.array(z.unknown()),
  observations: z.array(z.unknown()),
  timestamp: z.string().nullable(),
  castTime: z.number().nullable(),
  usage: z.record(z.string(), z.unknown()).nullable(),
});

/** GET /api/v1/trajectories/ID (lib/trajectories/queries/trajectory-queries.ts `TrajectoryDetail`). */
export const trajectoryDetailAnswer = z.object({
  trajectory: z.object({
    id: z.string(),
    externalId: z.string().nullable(),
    project: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    task: z.object({
      id: z.string(),
      name: z.string(),
      instruction: z.string(),
      acceptanceCriteria: z.array(z.unknown()),
      split: splitSchema,
      environment: z.string().nullable(),
      metadata: z.unknown(),
      updatedAt: isoTime,
    }),
    policy: z.object({
      id: z.string(),
      name: z.string(),
      model: z.string().nullable(),
      checkpoint: z.string().nullable(),
      agent: z.string().nullable(),
    }),
    steps: z.array(stepSchema),
    stepCount: z.number().int(),
    verifier: z.object({ reward: z.number().nullable(), components: z.record(z.string(), z.number()) }),
    judgeScores: z.array(
      z.object({ judge: z.string(), score: z.number().nullable(), label: z.string().nullable(), explanation: z.string().nullable() }),
    ),
    usage: z.record(z.string(), z.unknown()).nullable(),
    submission: z.string().nullable(),
    exitStatus: z.string().nullable(),
    startedAt: z.string().nullable(),
    endedAt: z.string().nullable(),
    metadata: z.unknown(),
    format: z.string(),
    source: z
      .object({
        id: z.string(),
        path: z.string(),
        format: z.string(),
        sizeBytes: z.number(),
        sha256: z.string(),
        where: z.string().nullable(),
        importedAt: isoTime,
      })
      .nullable(),
    importedBy: z.string().nullable(),
    hasTerminalRecording: z.boolean(),
    createdAt: isoTime,
  }),
});

/** POST /api/v1/trajectories?project=SLUG[&format=…&environment=…&policy=…&split=train|eval] */
export const importQuery = z.object({
  project: projectSlugSchema.default('default'),
  format: z.enum(['auto', ...formatNames]).default('auto'),
  environment: z.string().trim().min(1).max(120).optional(),
  policy: z.string().trim().min(1).max(200).optional(),
  split: splitSchema.optional(),
});

/** The import's report (lib/ingest/import-trajectories.ts `ImportReport`, as the route answers it). */
export const importAnswer = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  unchangedFiles: z.number().int(),
  trajectories: z.array(
    z.object({
      id: z.string(),
      format: z.string(),
      steps: z.number().int(),
      task: z.string(),
      policy: z.string(),
      created: z.boolean(),
    }),
  ),
  errors: z.array(z.object({ path: z.string(), where: z.string(), message: z.string() })),
});
