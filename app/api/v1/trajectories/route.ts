import { z } from 'zod';
import { ensureProject, projectSlugSchema } from '@/lib/db/trajectories/projects';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors';
import { memorySource } from '@/lib/formats/source';
import { formatNames, splitSchema } from '@/lib/formats/trajectory';
import type { CollectedInput } from '@/lib/ingest/collect-inputs';
import { importTrajectories } from '@/lib/ingest/import-trajectories';
import { renderAfterImport } from '@/lib/video-renders/render-after-import';
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
 * Body: one document in any supported format (Content-Type application/json), or NDJSON
 * (application/x-ndjson): one document per line, each imported and answered on its own.
 * Same importer code as `witness import`; answers its report: 200 when anything was imported
 * or skipped as a duplicate, 422 when every item failed. Leads and admins only.
 */
export const POST = apiRoute('lead', async (request, user) => {
  const url = new URL(request.url);
  const query = parseInput(querySchema, Object.fromEntries(url.searchParams), 'query parameter');
  const maxBytes = env().WITNESS_API_MAX_MB * 1024 * 1024;
  const body = await readLimited(request, maxBytes);
  if (body.trim() === '') throw new AppError('BAD_INPUT', 'empty body: send one JSON document, or NDJSON with one document per line');

  const contentType = request.headers.get('content-type') ?? '';
  const ndjson = /ndjson|jsonl|json-seq/i.test(contentType);
  const inputs: CollectedInput[] = ndjson
    ? body
        .split(/\r?\n/)
        .flatMap((line, i) =>
          line.trim() === ''
            ? []
            : [{ ok: true as const, path: `line ${i + 1}`, input: { kind: 'file' as const, file: memorySource(`line ${i + 1}`, line) } }],
        )
    : [{ ok: true, path: 'body', input: { kind: 'file', file: memorySource('body', body) } }];

  const project = await ensureProject({ slug: query.project, name: query.project });
  const report = await importTrajectories(inputs, {
    projectId: project.id,
    format: query.format,
    environment: query.environment ?? null,
    policy: query.policy ?? null,
    split: query.split ?? null,
    importedById: user.id,
  });
  await renderAfterImport(
    env().DATABASE_URL!,
    project.id,
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

async function readLimited(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  const tooLarge = () =>
    new AppError(
      'TOO_LARGE',
      `request body over the API limit of ${Math.round(maxBytes / 1024 / 1024)} MiB: split it into smaller NDJSON batches`,
    );
  if (declared > maxBytes) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
}
