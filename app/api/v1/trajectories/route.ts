import { visibleProjectIds } from '@/lib/auth/project-access';
import { env } from '@/lib/env';
import { shaped } from '@/lib/http/openapi/contract-answer';
import { pageTrajectories } from '@/lib/trajectories/page-trajectories';
import { importAnswer, importQuery, trajectoryPageAnswer } from '@/lib/trajectories/trajectory-schemas';
import { bodyImport } from '@/lib/ingest/body-inputs';
import { importTrajectories } from '@/lib/ingest/import-trajectories';
import { parseLargeOnThread } from '@/lib/ingest/body-parse-thread';
import { importProjectFor } from '@/lib/ingest/resolve-import-project';
import { readBodyBytes } from '@/lib/http/read-body';
import { apiRoute } from '../../../_server/api-route';
import { parseInput } from '@/lib/parse-input';

export const dynamic = 'force-dynamic';

/**
 * GET /api/v1/trajectories[?project=SLUG&cursor=…&limit=50&environment=ID&policy=ID&split=train|eval&q=TEXT]:
 * the trajectories of the projects the caller leads (admins: all), newest first, a page at a time:
 * `{trajectories, nextCursor}` (pass nextCursor as cursor for the next page; null on the last).
 * Leads and admins; a project the caller does not lead answers 404.
 */
export const GET = apiRoute('lead', async (request, user) => {
  const page = await pageTrajectories(Object.fromEntries(new URL(request.url).searchParams), visibleProjectIds(user.access, 'lead'));
  return Response.json(shaped(trajectoryPageAnswer, page), { headers: { 'cache-control': 'no-store' } });
});

/**
 * POST /api/v1/trajectories?project=SLUG[&format=…&environment=…&policy=…&split=train|eval]
 * Body: one document in any supported format, its bytes as the file's (JSON, JSONL, a cast, an
 * Inspect `.eval` zip sent as application/zip or application/octet-stream), a zip of runs (any other
 * zip: expanded with its relative paths kept and collected as `witness import DIR` collects a
 * directory; application/zip bodies up to WITNESS_IMPORT_MAX_MB), or NDJSON
 * (application/x-ndjson): one document per line, each imported and answered on its own (a body
 * that is itself a stream of events, a cast or a Claude Code / Codex session, stays one document).
 * Same importer code as `witness import`; answers its report: 200 when anything was imported
 * or skipped as a duplicate, 422 when every item failed. Leads and admins only: into a project the
 * caller leads (another project answers 404), or a new one, which makes them its lead.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const url = new URL(request.url);
  const query = parseInput(importQuery, Object.fromEntries(url.searchParams), 'query parameter');
  // membership (issue 14): an existing project takes imports from its leads only (another project: 404, as if absent);
  // a new one is created by the first import that stores something, and its creator becomes its lead
  const project = await importProjectFor(user, query.project);
  // a zip (an Inspect .eval, or a zip of runs from the import page) may be as large as the CLI's import limit
  const contentType = request.headers.get('content-type') ?? '';
  const zip = /^application\/(zip|x-zip-compressed)\b/i.test(contentType.trim());
  const importMax = env().WITNESS_IMPORT_MAX_MB * 1024 * 1024;
  const maxBytes = zip ? Math.max(importMax, env().WITNESS_API_MAX_MB * 1024 * 1024) : env().WITNESS_API_MAX_MB * 1024 * 1024;
  const body = await readBodyBytes(request, maxBytes, zip ? 'split the folder into smaller zips' : 'split it into smaller NDJSON batches');
  const { inputs, dispose } = await bodyImport(body, contentType, query.format, { maxFileBytes: importMax, maxTotalBytes: 4 * importMax });

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
  }).finally(dispose);
  const status = report.failed > 0 && report.imported + report.skipped === 0 ? 422 : 200;
  return Response.json(
    shaped(importAnswer, {
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
    }),
    { status },
  );
});
