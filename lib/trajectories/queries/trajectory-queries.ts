import { decompressRawSourcePrefix, rawSourceEncoding } from '../../ingest/raw-source-codec';
import type { Criterion, Observation, Split, StepSource, ToolCall, Usage } from '../../formats/trajectory';
import { parseCriteria } from '../../formats/criteria';
import { db } from '../../db/client';
import { sql } from '../../db/sql';
import { storedComponents, storedDirBundle, storedObservations, storedStepSource, storedToolCalls, storedUsage } from '../stored-columns';
import type { ParsedTrajectoryListParams } from '../trajectory-list-params';

/**
 * Read-side queries for trajectories: the studio's list (filters, server-side pagination,
 * facets), one trajectory's detail, and its stored raw source. Everything returned is
 * JSON-safe (dates as ISO strings) so pages and API routes pass it on as is. Agent output in
 * here is untrusted text: callers render it as text only.
 */

export const TRAJECTORY_PAGE_SIZE = 50;

export interface JudgeSummary {
  count: number;
  /** mean of the numeric scores, null when no judge gave a number */
  mean: number | null;
  judges: { judge: string; score: number | null; label: string | null }[];
}

export interface TrajectoryRow {
  id: string;
  projectSlug: string;
  taskName: string;
  environment: string | null;
  policy: string;
  split: Split;
  steps: number;
  verifierReward: number | null;
  judge: JudgeSummary;
  /** current reviews and pairwise comparisons, across campaigns */
  reviews: number;
  format: string;
  createdAt: string;
}

export interface FacetOption {
  id: string;
  name: string;
  projectSlug: string;
}

export interface TrajectoryList {
  rows: TrajectoryRow[];
  /** how many match: exact when `totalExact`, else the planner's estimate (above EXACT_COUNT_LIMIT) */
  total: number;
  totalExact: boolean;
  page: number;
  pageSize: number;
  pageCount: number;
  /** the project the list is scoped to, when one was asked for */
  project: { id: string; slug: string; name: string } | null;
  facets: {
    projects: { id: string; slug: string; name: string }[];
    environments: FacetOption[];
    policies: FacetOption[];
  };
}

/** above this many matches the list says "about N" (the planner's estimate) instead of counting every row */
export const EXACT_COUNT_LIMIT = 10_000;

/** A project by slug (any case) or id, or null. */
export async function projectByRef(ref: string): Promise<{ id: string; slug: string; name: string } | null> {
  return db().project.findFirst({
    where: { OR: [{ slug: ref.toLowerCase() }, { id: ref }] },
    select: { id: true, slug: true, name: true },
  });
}

function judgeSummary(scores: { judge: string; score: number | null; label: string | null }[]): JudgeSummary {
  const numeric = scores.map((s) => s.score).filter((s): s is number => s !== null);
  return { count: scores.length, mean: numeric.length > 0 ? numeric.reduce((a, b) => a + b, 0) / numeric.length : null, judges: scores };
}

/** current reviews and pairwise comparisons per trajectory, across campaigns (each side through its own index) */
async function reviewCounts(ids: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  const rows = await sql<{ id: string; n: number }>(
    `SELECT i.id, sum(
              (SELECT count(*) FROM review r WHERE r."campaignItemId" = i.item AND r."isCurrent")
            + (SELECT count(*) FROM pairwise_comparison c WHERE c."campaignItemId" = i.item AND c."isCurrent"))::int AS n
     FROM (
       SELECT ci."trajectoryId" AS id, ci.id AS item FROM campaign_item ci WHERE ci."trajectoryId" = ANY($1::text[])
       UNION ALL
       SELECT ci."trajectoryBId" AS id, ci.id AS item FROM campaign_item ci WHERE ci."trajectoryBId" = ANY($1::text[])
     ) i
     GROUP BY i.id`,
    [ids],
  );
  for (const r of rows) counts.set(r.id, r.n);
  return counts;
}

/** the WHERE of a list (on trajectory t joined to task tk) and its parameters */
function listWhere(p: ParsedTrajectoryListParams & { environmentIds?: string[] }, projectIds: string[] | null, projectId: string | null) {
  const values: unknown[] = [];
  const arg = (v: unknown) => {
    values.push(v);
    return `$${values.length}`;
  };
  const and: string[] = [];
  // membership (issue 14): only the caller's projects (null: every project)
  if (projectIds !== null)
    and.push(projectIds.length === 1 ? `t."projectId" = ${arg(projectIds[0])}` : `t."projectId" = ANY(${arg(projectIds)}::text[])`);
  if (projectId) and.push(`t."projectId" = ${arg(projectId)}`);
  if (p.environmentIds) and.push(`tk."environmentId" = ANY(${arg(p.environmentIds)}::text[])`);
  else if (p.environment) and.push(`tk."environmentId" = ${arg(p.environment)}`);
  if (p.policy) and.push(`t."policyId" = ${arg(p.policy)}`);
  if (p.split) and.push(`tk.split = ${arg(p.split)}::"Split"`);
  if (p.q) and.push(`tk.name ILIKE ${arg(`%${p.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  if (p.reward === 'none') and.push(`t."verifierReward" IS NULL`);
  else if (p.reward === 'scored' || p.rewardMin !== undefined || p.rewardMax !== undefined) {
    and.push(`t."verifierReward" IS NOT NULL`);
    if (p.rewardMin !== undefined) and.push(`t."verifierReward" >= ${arg(p.rewardMin)}`);
    if (p.rewardMax !== undefined) and.push(`t."verifierReward" <= ${arg(p.rewardMax)}`);
  }
  if (p.review !== 'any') {
    const reviewed = `EXISTS (SELECT 1 FROM campaign_item ci WHERE (ci."trajectoryId" = t.id OR ci."trajectoryBId" = t.id)
      AND (EXISTS (SELECT 1 FROM review r WHERE r."campaignItemId" = ci.id AND r."isCurrent")
        OR EXISTS (SELECT 1 FROM pairwise_comparison c WHERE c."campaignItemId" = ci.id AND c."isCurrent")))`;
    and.push(p.review === 'reviewed' ? reviewed : `NOT ${reviewed}`);
  }
  return { where: and.length > 0 ? `WHERE ${and.join(' AND ')}` : '', values };
}

/**
 * How many trajectories match: counted exactly up to EXACT_COUNT_LIMIT (a count stops there),
 * above it the planner's estimate, marked as such (a list of 100k runs would otherwise count
 * every row on every page).
 */
async function countMatches(where: string, values: unknown[], limit: number): Promise<{ total: number; exact: boolean }> {
  const from = `FROM trajectory t JOIN task tk ON tk.id = t."taskId" ${where}`;
  const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${limit + 1}) s`, values);
  const n = row?.n ?? 0;
  if (n <= limit) return { total: n, exact: true };
  const [plan] = await sql<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(`EXPLAIN (FORMAT JSON) SELECT 1 ${from}`, values);
  const estimate = Math.round(plan?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
  return { total: Math.max(n, estimate), exact: false };
}

/**
 * Trajectories after `after` (a row of a previous page: its createdAt and id), newest first, at most
 * `limit` of them, with the same filters and scope as the list (the API's cursor pages walk the
 * (projectId, createdAt DESC, id DESC) index instead of counting an offset).
 */
export async function listTrajectoriesAfter(
  p: ParsedTrajectoryListParams,
  projectIds: string[] | null,
  projectId: string | null,
  after: { createdAt: string; id: string } | null,
  limit: number,
): Promise<TrajectoryRow[]> {
  const { where, values } = listWhere(p, projectIds, projectId);
  if (!after) return trajectoryRows(where, values, `LIMIT ${Math.trunc(limit)}`);
  values.push(after.createdAt, after.id);
  const keyset = `(t."createdAt", t.id) < ($${values.length - 1}::timestamp(3), $${values.length})`;
  return trajectoryRows(where ? `${where} AND ${keyset}` : `WHERE ${keyset}`, values, `LIMIT ${Math.trunc(limit)}`);
}

/** The list's rows (newest first) for a WHERE and a LIMIT/OFFSET tail, with their judge scores and review counts. */
async function trajectoryRows(where: string, values: unknown[], tail: string): Promise<TrajectoryRow[]> {
  const rows = await sql<{
    id: string;
    stepCount: number;
    verifierReward: number | null;
    sourceFormat: string;
    createdAt: Date;
    projectSlug: string;
    taskName: string;
    split: Split;
    environment: string | null;
    policy: string;
  }>(
    `SELECT t.id, t."stepCount", t."verifierReward", t."sourceFormat", t."createdAt", pr.slug AS "projectSlug",
            tk.name AS "taskName", tk.split::text AS split, e.name AS environment, po.name AS policy
     FROM trajectory t
     JOIN task tk ON tk.id = t."taskId"
     JOIN project pr ON pr.id = t."projectId"
     JOIN policy po ON po.id = t."policyId"
     LEFT JOIN environment e ON e.id = tk."environmentId"
     ${where}
     ORDER BY t."createdAt" DESC, t.id DESC
     ${tail}`,
    values,
  );
  const ids = rows.map((r) => r.id);
  const [reviews, judges] = await Promise.all([
    reviewCounts(ids),
    ids.length === 0
      ? []
      : sql<{ trajectoryId: string; judge: string; score: number | null; label: string | null }>(
          `SELECT "trajectoryId", judge, score, label FROM judge_score WHERE "trajectoryId" = ANY($1::text[]) ORDER BY judge`,
          [ids],
        ),
  ]);
  const judgesOf = new Map<string, { judge: string; score: number | null; label: string | null }[]>();
  for (const j of judges) {
    const list = judgesOf.get(j.trajectoryId) ?? [];
    list.push({ judge: j.judge, score: j.score, label: j.label });
    judgesOf.set(j.trajectoryId, list);
  }
  return rows.map((r) => ({
    id: r.id,
    projectSlug: r.projectSlug,
    taskName: r.taskName,
    environment: r.environment,
    policy: r.policy,
    split: r.split,
    steps: r.stepCount,
    verifierReward: r.verifierReward,
    judge: judgeSummary(judgesOf.get(r.id) ?? []),
    reviews: reviews.get(r.id) ?? 0,
    format: r.sourceFormat,
    createdAt: r.createdAt.toISOString(),
  }));
}

/**
 * One page (50 rows, newest first) of trajectories matching the filters (parsed), how many match
 * (exact up to EXACT_COUNT_LIMIT, else an estimate, `totalExact` false), and the facet lists for
 * the filter dropdowns (environments and policies of `project`, or of every visible project when
 * none is chosen), of the projects in `projectIds` (null: every project). Plain SQL: the page
 * walks the (projectId, createdAt DESC, id DESC) index.
 */
export async function listTrajectoryPage(
  p: ParsedTrajectoryListParams & { environmentIds?: string[] },
  projectIds: string[] | null,
  project: { id: string; slug: string; name: string } | null,
  options: { exactCountLimit?: number } = {},
): Promise<TrajectoryList> {
  const { where, values } = listWhere(p, projectIds, project?.id ?? null);
  const visible = projectIds === null ? {} : { projectId: { in: projectIds } };
  const facetScope = project ? { projectId: project.id } : visible;
  const [count, rows, projects, environments, policies] = await Promise.all([
    countMatches(where, values, options.exactCountLimit ?? EXACT_COUNT_LIMIT),
    trajectoryRows(where, values, `LIMIT ${TRAJECTORY_PAGE_SIZE} OFFSET ${(p.page - 1) * TRAJECTORY_PAGE_SIZE}`),
    db().project.findMany({
      where: projectIds === null ? {} : { id: { in: projectIds } },
      select: { id: true, slug: true, name: true },
      orderBy: { slug: 'asc' },
    }),
    db().environment.findMany({
      where: facetScope,
      select: { id: true, name: true, project: { select: { slug: true } } },
      orderBy: [{ name: 'asc' }],
      take: 500,
    }),
    db().policy.findMany({
      where: facetScope,
      select: { id: true, name: true, project: { select: { slug: true } } },
      orderBy: [{ name: 'asc' }],
      take: 500,
    }),
  ]);
  const { total, exact } = count;
  return {
    rows,
    total,
    totalExact: exact,
    page: p.page,
    pageSize: TRAJECTORY_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / TRAJECTORY_PAGE_SIZE)),
    project,
    facets: {
      projects,
      environments: environments.map((e) => ({ id: e.id, name: e.name, projectSlug: e.project.slug })),
      policies: policies.map((x) => ({ id: x.id, name: x.name, projectSlug: x.project.slug })),
    },
  };
}

/**
 * The environments a list filter names: the one with that id, else those with that name, of
 * `projectId` when given, else of the projects in `projectIds` (null: every project).
 */
export async function environmentIdsByRef(ref: string, projectIds: string[] | null, projectId: string | null): Promise<string[]> {
  const scope = projectId ? { projectId } : projectIds === null ? {} : { projectId: { in: projectIds } };
  const rows = await db().environment.findMany({
    where: { AND: [scope, { OR: [{ id: ref }, { name: ref }] }] },
    select: { id: true, name: true },
    take: 100,
  });
  const byId = rows.filter((r) => r.id === ref);
  return (byId.length ? byId : rows).map((r) => r.id);
}

// ---------------------------------------------------------------- detail

export interface TrajectoryStep {
  index: number;
  source: StepSource | 'unknown';
  text: string;
  reasoning: string | null;
  toolCalls: ToolCall[];
  observations: Observation[];
  timestamp: string | null;
  castTime: number | null;
  usage: Usage | null;
}

export interface TrajectoryDetail {
  id: string;
  externalId: string | null;
  project: { id: string; slug: string; name: string };
  task: {
    id: string;
    name: string;
    instruction: string;
    acceptanceCriteria: Criterion[];
    split: Split;
    environment: string | null;
    metadata: unknown;
    /** for optimistic concurrency when editing criteria */
    updatedAt: string;
  };
  policy: { id: string; name: string; model: string | null; checkpoint: string | null; agent: string | null };
  /** every step, or the window asked for (see getTrajectoryDetail's `steps`) */
  steps: TrajectoryStep[];
  /** how many steps the trajectory has (steps.length unless a window was asked for) */
  stepCount: number;
  verifier: { reward: number | null; components: Record<string, number> };
  judgeScores: { judge: string; score: number | null; label: string | null; explanation: string | null }[];
  usage: Usage | null;
  submission: string | null;
  exitStatus: string | null;
  startedAt: string | null;
  endedAt: string | null;
  metadata: unknown;
  format: string;
  source: { id: string; path: string; format: string; sizeBytes: number; sha256: string; where: string | null; importedAt: string } | null;
  importedBy: string | null;
  hasTerminalRecording: boolean;
  createdAt: string;
}

/**
 * One trajectory with everything the detail page shows; null when there is none. `steps`:
 * only the steps from index `from` on, `take` of them (a page of a long run's transcript).
 */
export async function trajectoryDetail(
  id: string,
  options: { steps?: { from: number; take: number } } = {},
): Promise<TrajectoryDetail | null> {
  const window = options.steps;
  const t = await db().trajectory.findUnique({
    where: { id },
    select: {
      id: true,
      externalId: true,
      sourceFormat: true,
      verifierReward: true,
      verifierComponents: true,
      usage: true,
      submission: true,
      exitStatus: true,
      startedAt: true,
      endedAt: true,
      metadata: true,
      sourceWhere: true,
      createdAt: true,
      importedById: true,
      project: { select: { id: true, slug: true, name: true } },
      task: {
        select: {
          id: true,
          name: true,
          instruction: true,
          acceptanceCriteria: true,
          split: true,
          metadata: true,
          updatedAt: true,
          environment: { select: { name: true } },
        },
      },
      policy: { select: { id: true, name: true, model: true, checkpoint: true, agent: true } },
      _count: { select: { steps: true } },
      steps: {
        orderBy: { index: 'asc' },
        ...(window ? { where: { index: { gte: window.from } }, take: window.take } : {}),
        select: {
          index: true,
          source: true,
          text: true,
          reasoning: true,
          toolCalls: true,
          observations: true,
          timestamp: true,
          castTime: true,
          usage: true,
        },
      },
      judgeScores: { select: { judge: true, score: true, label: true, explanation: true }, orderBy: { judge: 'asc' } },
      source: { select: { id: true, path: true, format: true, sizeBytes: true, sha256: true, createdAt: true } },
      blobs: { where: { kind: 'terminal' }, select: { kind: true } },
    },
  });
  if (!t) return null;
  const importedBy = t.importedById
    ? ((await db().user.findUnique({ where: { id: t.importedById }, select: { name: true } }))?.name ?? null)
    : null;
  return {
    id: t.id,
    externalId: t.externalId,
    project: t.project,
    task: {
      id: t.task.id,
      name: t.task.name,
      instruction: t.task.instruction,
      acceptanceCriteria: parseCriteria(t.task.acceptanceCriteria),
      split: t.task.split,
      environment: t.task.environment?.name ?? null,
      metadata: t.task.metadata,
      updatedAt: t.task.updatedAt.toISOString(),
    },
    policy: t.policy,
    steps: t.steps.map((s) => {
      return {
        index: s.index,
        source: storedStepSource(s.source),
        text: s.text,
        reasoning: s.reasoning,
        toolCalls: storedToolCalls(s.toolCalls),
        observations: storedObservations(s.observations),
        timestamp: s.timestamp?.toISOString() ?? null,
        castTime: s.castTime,
        usage: storedUsage(s.usage),
      };
    }),
    stepCount: t._count.steps,
    verifier: { reward: t.verifierReward, components: storedComponents(t.verifierComponents) },
    judgeScores: t.judgeScores,
    usage: storedUsage(t.usage),
    submission: t.submission,
    exitStatus: t.exitStatus,
    startedAt: t.startedAt?.toISOString() ?? null,
    endedAt: t.endedAt?.toISOString() ?? null,
    metadata: t.metadata,
    format: t.sourceFormat,
    source: t.source
      ? {
          id: t.source.id,
          path: t.source.path,
          format: t.source.format,
          sizeBytes: t.source.sizeBytes,
          sha256: t.source.sha256,
          where: t.sourceWhere,
          importedAt: t.source.createdAt.toISOString(),
        }
      : null,
    importedBy,
    hasTerminalRecording: t.blobs.length > 0,
    createdAt: t.createdAt.toISOString(),
  };
}

// ---------------------------------------------------------------- raw source

/** Raw sources are shown up to this many bytes of text. */
export const RAW_SOURCE_LIMIT = 2 * 1024 * 1024;
/** A directory bundle is at most 32 MiB of text (lib/ingest/raw-source.ts) plus JSON escaping. */
const DIR_BUNDLE_MAX = 96 * 1024 * 1024;

export interface RawSourceText {
  path: string;
  format: string;
  /** where inside the source this trajectory came from (line, JSON pointer) */
  where: string | null;
  sizeBytes: number;
  /** `file`: the file as received; `directory`: its text files, each under a `=== path ===` header */
  kind: 'file' | 'directory';
  text: string;
  /** true when the text stops at RAW_SOURCE_LIMIT (the text then ends with a marker line) */
  truncated: boolean;
  /** true when the file looked binary: nothing is shown */
  binary: boolean;
}

const DIR_PREFIX = '{"files":{';

function truncationMarker(shown: number, total: number | null): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `\n\n[… truncated by Witness: showing the first ${mib(shown)}${total !== null ? ` of ${mib(total)}` : ''} …]\n`;
}

/**
 * The stored import source of a trajectory as text (at most ~2 MiB, then a truncation marker),
 * `source` null when the trajectory has none; null when there is no such trajectory. A directory
 * source (a Harbor trial) is shown as its files one after another.
 */
export async function rawSourceText(trajectoryId: string): Promise<{ source: RawSourceText | null } | null> {
  const t = await db().trajectory.findUnique({
    where: { id: trajectoryId },
    select: { sourceWhere: true, source: { select: { path: true, format: true, sizeBytes: true, content: true, contentEncoding: true } } },
  });
  if (!t) return null;
  return { source: t.source ? await textOfSource(t.source, t.sourceWhere) : null };
}

async function textOfSource(
  s: { path: string; format: string; sizeBytes: number; content: Uint8Array; contentEncoding: string },
  where: string | null,
): Promise<RawSourceText> {
  const base = { path: s.path, format: s.format, where, sizeBytes: s.sizeBytes };

  const encoding = rawSourceEncoding(s.contentEncoding);
  const head = await decompressRawSourcePrefix(s.content, encoding, RAW_SOURCE_LIMIT);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  if (head.bytes.subarray(0, DIR_PREFIX.length).toString('latin1') === DIR_PREFIX) {
    const whole = head.truncated ? await decompressRawSourcePrefix(s.content, encoding, DIR_BUNDLE_MAX) : head;
    const files = whole.truncated ? null : storedDirBundle(safeJson(decoder.decode(whole.bytes)));
    if (files) {
      const parts = Object.entries(files)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([path, text]) => `=== ${path} ===\n${text}${text.endsWith('\n') ? '' : '\n'}`);
      const all = parts.join('\n');
      const truncated = all.length > RAW_SOURCE_LIMIT;
      return {
        ...base,
        kind: 'directory',
        text: truncated ? all.slice(0, RAW_SOURCE_LIMIT) + truncationMarker(RAW_SOURCE_LIMIT, all.length) : all,
        truncated,
        binary: false,
      };
    }
  }
  if (looksBinary(head.bytes)) return { ...base, kind: 'file', text: '', truncated: head.truncated, binary: true };
  const text = decoder.decode(head.bytes);
  return {
    ...base,
    kind: 'file',
    text: head.truncated ? text + truncationMarker(RAW_SOURCE_LIMIT, s.sizeBytes) : text,
    truncated: head.truncated,
    binary: false,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** NUL bytes in the first 8 KiB: a zip, an image, a database file. */
function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8192).includes(0);
}

/** Ids of every trajectory of a project (oldest first), e.g. to queue their videos. */
export async function trajectoryIdsOfProject(projectId: string): Promise<string[]> {
  const rows = await db().trajectory.findMany({ where: { projectId }, select: { id: true }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => r.id);
}
