import { z } from 'zod';
import { projectSlugSchema } from '@/lib/trajectories/project-schemas';
import { env } from '@/lib/env';
import { formatNames, splitSchema } from '@/lib/formats/trajectory';
import { bodyInputs } from '@/lib/ingest/body-inputs';
import { importTrajectories } from '@/lib/ingest/import-trajectories';
import { parseLargeOnThread } from '@/lib/ingest/body-parse-thread';
import { importProjectFor } from '@/lib/ingest/resolve-import-project';
import { readBodyBytes } from '@/lib/http/read-body';
import { apiRoute } from '../../../_server/api-route';
import { parseInput } from '@/lib/parse-input';

export const dynamic = 'force-dynamic';

const querySchema = z.object({
  project: projectSlugSchema.default('default'),
  format: z.enum(['auto', ...formatNames]).default('auto'),
  environment: z.string().trim().min(1).max(120).optional(),
  policy: z.string().trim().min(1).max(200).optional(),
  split: splitSchema.optional(),
});

/**
 * POST /api/v1/trajectories?project=SLUG[&format=…&environment=…&policy=…&split=train|eval]
 * Body: one document in any supported format, its bytes as the file's (JSON, JSONL, a cast, an
 * Inspect `.eval` zip sent as application/zip or application/octet-stream), or NDJSON
 * (application/x-ndjson): one document per line, each imported and answered on its own (a body
 * that is itself a stream of events, a cast or a Claude Code / Codex session, stays one document).
 * Same importer code as `witness import`; answers its report: 200 when anything was imported
 * or skipped as a duplicate, 422 when every item failed. Leads and admins only: into a project the
 * caller leads (another project answers 404), or a new one, which makes them its lead.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const url = new URL(request.url);
  const query = parseInput(querySchema, Object.fromEntries(url.searchParams), 'query parameter');
  // membership (issue 14): an existing project takes imports from its leads only (another project: 404, as if absent);
  // a new one is created by the first import that stores something, and its creator becomes its lead
  const project = await importProjectFor(user, query.project);
  const maxBytes = env().WITNESS_API_MAX_MB * 1024 * 1024;
  const body = await readBodyBytes(request, maxBytes, 'split it into smaller NDJSON batches');
  const inputs = await bodyInputs(body, request.headers.get('content-type') ?? '', query.format);

  // the project is created when the first trajectory is stored: an import that stores nothing leaves nothing behind
  const report = await importTrajectories(inputs, {
    projectId: project.projectId,
    existingProjectId: project.existingProjectId,
    format: query.format,
    environment: query.environment ?? null,
    policy: query.policy ?? null,
    split: query.split ?? null,
    importedById: user.id,
    // a large body is parsed on the process's parse thread: the event loop keeps answering other requests meanwhile
    parseFile: parseLargeOnThread(),
    // a video render for each new trajectory, when the project renders automatically
    followUps: { databaseUrl: env().DATABASE_URL! },
  });
  const status = report.failed > 0 && report.imported + report.skipped === 0 ? 422 : 200;
  return Response.json(
    {
      imported: report.imported,
      skipped: report.skipped,
      failed: report.failed,
      unchangedFiles: report.unchangedFiles,
      trajectories: report.trajectories.map(({ id, format, steps, task, policy, created }) => ({
        id,
        format,
        steps,
        task,
        policy,
        created,
      })),
      errors: report.errors,
    },
    { status },
  );
});
