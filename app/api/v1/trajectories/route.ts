import { z } from 'zod';
import { ensureProject, projectSlugSchema } from '@/lib/db/trajectories/projects';
import { env } from '@/lib/env';
import { formatNames, splitSchema } from '@/lib/formats/trajectory';
import { bodyInputs } from '@/lib/ingest/body-inputs';
import { importTrajectories } from '@/lib/ingest/import-trajectories';
import { renderAfterImport } from '@/lib/video-renders/render-after-import';
import { readBodyBytes } from '../../../_server/read-body';
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
 * or skipped as a duplicate, 422 when every item failed. Leads and admins only.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const url = new URL(request.url);
  const query = parseInput(querySchema, Object.fromEntries(url.searchParams), 'query parameter');
  const maxBytes = env().WITNESS_API_MAX_MB * 1024 * 1024;
  const body = await readBodyBytes(request, maxBytes, 'split it into smaller NDJSON batches');
  const inputs = await bodyInputs(body, request.headers.get('content-type') ?? '', query.format);

  // the project is created when the first trajectory is stored: an import that stores nothing leaves nothing behind
  let projectId: string | null = null;
  const report = await importTrajectories(inputs, {
    projectId: async () => (projectId = (await ensureProject({ slug: query.project, name: query.project })).id),
    format: query.format,
    environment: query.environment ?? null,
    policy: query.policy ?? null,
    split: query.split ?? null,
    importedById: user.id,
  });
  if (projectId)
    await renderAfterImport(
      env().DATABASE_URL!,
      projectId,
      report.trajectories.filter((t) => t.created).map((t) => t.id),
    );
  const status = report.failed > 0 && report.imported + report.skipped === 0 ? 422 : 200;
  return Response.json(
    {
      imported: report.imported,
      skipped: report.skipped,
      failed: report.failed,
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
