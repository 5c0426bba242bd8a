import { z } from 'zod';
import type { SessionUser } from '../auth/session-user';
import { visibleProjectIds } from '../auth/project-access';
import { AppError } from '../errors';
import { wilson, type Proportion } from '../insight/intervals';
import { parseInput, firstValue } from '../parse-input';
import { listProjectSettingsFor } from '../trajectories/list-projects-for';
import {
  downsampledMetrics,
  evalPassCounts,
  lineagePolicies,
  runLabelStats,
  type LineagePolicyRow,
  type MetricPointRow,
  type RunLabelStatsRow,
} from './queries/hill-climb';
import { loadWinRates, type WinRates } from './win-rates-vs-parent';

/** At most this many points per (run, metric name) reach a page: the curves are downsampled in Postgres. */
export const MAX_CURVE_POINTS = 200;
/** The curves panel: the chosen checkpoint and at most this many of its ancestors that a run produced. */
export const CURVE_ANCESTORS = 4;

export const hillClimbFigures = ['pass', 'human', 'judge', 'ppi'] as const;
export type HillClimbFigure = (typeof hillClimbFigures)[number];
export const hillClimbFigureLabel: Record<HillClimbFigure, string> = {
  pass: 'Verifier pass rate (eval split)',
  human: 'Human blind win rate vs parent',
  judge: 'Judge win rate vs parent',
  ppi: 'Prediction-powered win rate vs parent',
};

const hillClimbQuery = z.object({
  project: z.preprocess(firstValue, z.string().trim().min(1).max(200).optional()),
  figure: z.preprocess(firstValue, z.enum(hillClimbFigures).default('pass')),
  checkpoint: z.preprocess(firstValue, z.string().trim().min(1).max(200).optional()),
});

export interface HillClimbCheckpoint {
  id: string;
  name: string;
  parentId: string | null;
  parentName: string | null;
  /** 0 for a root (a base policy with children), its parent's depth + 1 otherwise */
  depth: number;
  model: string | null;
  createdAt: string;
  run: { id: string; status: string; recipe: string; checkpointUri: string | null; canaryCampaignId: string | null } | null;
  labels: Omit<RunLabelStatsRow, 'runId'> | null;
  /** verifier pass rate of its eval-split trajectories (reward >= 1), Wilson 95% interval */
  pass: Proportion;
  /** win rate vs its parent from the canary comparison (null: none yet, or unavailable) */
  winRates: WinRates | null;
  /** why its win rates could not be computed (null: they were, or there is no canary comparison yet) */
  winRatesUnavailable: string | null;
}

export interface CurveSeries {
  checkpoint: string;
  runId: string;
  points: { step: number; value: number }[];
}

export interface HillClimbView {
  query: z.infer<typeof hillClimbQuery>;
  projects: { slug: string; name: string }[];
  project: { id: string; slug: string; name: string } | null;
  figure: HillClimbFigure;
  checkpoints: HillClimbCheckpoint[];
  /** the checkpoint whose curves are shown (its ancestors' beside), null when no run has produced one */
  focus: string | null;
  /** one entry per metric name: a series per checkpoint of the focus chain, oldest first */
  curves: { name: string; series: CurveSeries[] }[];
  /** the chosen figure across checkpoints (tree order), with its interval and n */
  chart: { checkpoint: string; value: number | null; low: number | null; high: number | null; n: number }[];
}

/** Checkpoints in tree order: each root (oldest first), then its children depth-first (oldest first). */
function treeOrder(rows: LineagePolicyRow[]): { row: LineagePolicyRow; depth: number }[] {
  const byParent = new Map<string | null, LineagePolicyRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const r of rows) {
    const key = r.parentId && ids.has(r.parentId) ? r.parentId : null;
    byParent.set(key, [...(byParent.get(key) ?? []), r]);
  }
  const out: { row: LineagePolicyRow; depth: number }[] = [];
  const seen = new Set<string>();
  const visit = (r: LineagePolicyRow, depth: number) => {
    if (seen.has(r.id)) return;
    seen.add(r.id);
    out.push({ row: r, depth });
    for (const c of byParent.get(r.id) ?? []) visit(c, depth + 1);
  };
  for (const r of byParent.get(null) ?? []) visit(r, 0);
  // a cycle (never written by a run, but parentId is a plain column) would leave rows unvisited: list them as roots
  for (const r of rows) visit(r, 0);
  return out;
}

/**
 * The hill-climb page (/training/hill-climb?project=&figure=&checkpoint=): the project's
 * checkpoints as a lineage, per checkpoint the labels that trained it (count, campaigns,
 * reviewers, reviewer-hours, stale), its eval pass rate with a Wilson interval and its win rates
 * vs its parent, the training curves of the chosen checkpoint and its nearest ancestors (at most
 * MAX_CURVE_POINTS a series), and the chosen figure across checkpoints. Leads and admins of the
 * project; a project they do not lead is NOT_FOUND (field `project`).
 */
export async function viewHillClimb(user: SessionUser, params: Record<string, string | string[] | undefined>): Promise<HillClimbView> {
  const query = parseInput(hillClimbQuery, params, 'query parameter');
  // the projects' tabs need their slugs and names only (not the overview's counts)
  const projects = await listProjectSettingsFor(user.access);
  const visible = visibleProjectIds(user.access, 'lead');
  const project = query.project ? projects.find((p) => p.slug === query.project) : projects[0];
  if (query.project && (!project || (visible !== null && !visible.includes(project.id))))
    throw new AppError('NOT_FOUND', `No project named ${query.project}`, { details: { field: 'project' } });
  const base = { query, projects: projects.map((p) => ({ slug: p.slug, name: p.name })), figure: query.figure };
  if (!project) return { ...base, project: null, checkpoints: [], focus: null, curves: [], chart: [] };

  const rows = treeOrder(await lineagePolicies(project.id));
  const runIds = rows.flatMap(({ row }) => (row.runId ? [row.runId] : []));

  // the curves: the chosen checkpoint (by id or name; default the newest a run produced) and its nearest produced
  // ancestors, known from the lineage alone, so their points are read beside the other figures
  const chosen = query.checkpoint ? rows.find(({ row }) => row.id === query.checkpoint || row.name === query.checkpoint)?.row : undefined;
  if (query.checkpoint && !chosen)
    throw new AppError('BAD_INPUT', `query parameter checkpoint: no checkpoint ${query.checkpoint} in project ${project.slug}`, {
      details: { field: 'checkpoint' },
    });
  const focus =
    chosen ??
    rows
      .filter(({ row }) => row.runId)
      .map(({ row }) => row)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0] ??
    null;
  const chain: { name: string; run: { id: string } }[] = [];
  const rowOf = new Map(rows.map(({ row }) => [row.id, row]));
  const visited = new Set<string>();
  for (let c = focus ?? undefined; c && chain.length <= CURVE_ANCESTORS; c = c.parentId ? rowOf.get(c.parentId) : undefined) {
    // parentId is a plain column: a cycle, never written by a run, ends the walk
    if (visited.has(c.id)) break;
    visited.add(c.id);
    if (c.runId) chain.unshift({ name: c.name, run: { id: c.runId } });
  }

  const [stats, passes, winRates, points] = await Promise.all([
    runLabelStats(runIds),
    evalPassCounts(rows.map(({ row }) => row.id)),
    loadWinRates(
      user,
      project.id,
      rows.flatMap(({ row }) => (row.runId && row.canaryCampaignId ? [row.runId] : [])),
    ),
    downsampledMetrics(
      chain.map((c) => c.run.id),
      MAX_CURVE_POINTS,
    ),
  ]);
  const statsOf = new Map(stats.map((s) => [s.runId, s]));
  const passOf = new Map(passes.map((p) => [p.policyId, p]));
  const checkpoints: HillClimbCheckpoint[] = rows.map(({ row, depth }) => {
    const s = row.runId ? statsOf.get(row.runId) : undefined;
    const p = passOf.get(row.id);
    const w = row.runId ? winRates.get(row.runId) : undefined;
    return {
      id: row.id,
      name: row.name,
      parentId: row.parentId,
      parentName: row.parentId ? (rowOf.get(row.parentId)?.name ?? null) : null,
      depth,
      model: row.model,
      createdAt: row.createdAt.toISOString(),
      run: row.runId
        ? {
            id: row.runId,
            status: row.runStatus ?? 'queued',
            recipe: row.recipe ?? '',
            checkpointUri: row.checkpointUri,
            canaryCampaignId: row.canaryCampaignId,
          }
        : null,
      labels: row.runId
        ? s
          ? { labels: s.labels, reviewers: s.reviewers, reviewerHours: s.reviewerHours, stale: s.stale, campaigns: s.campaigns }
          : { labels: 0, reviewers: 0, reviewerHours: 0, stale: 0, campaigns: [] }
        : null,
      pass: wilson(p?.passes ?? 0, p?.scored ?? 0),
      winRates: w?.winRates ?? null,
      winRatesUnavailable: w?.unavailable ?? null,
    };
  });
  const curves = curvesOf(points, chain);

  const chart = checkpoints.map((c) => {
    const figure = query.figure === 'pass' ? c.pass : (c.winRates?.[query.figure] ?? null);
    return {
      checkpoint: c.name,
      value: figure?.rate ?? null,
      low: figure?.ci?.[0] ?? null,
      high: figure?.ci?.[1] ?? null,
      n: figure?.n ?? 0,
    };
  });
  return {
    ...base,
    project: { id: project.id, slug: project.slug, name: project.name },
    checkpoints,
    focus: focus?.id ?? null,
    curves,
    chart,
  };
}

/** Metric points grouped by name, then by checkpoint (the chain's order); the points are grouped in one pass. */
export function curvesOf(
  points: MetricPointRow[],
  chain: { name: string; run: { id: string } | null }[],
): { name: string; series: CurveSeries[] }[] {
  const byName = new Map<string, Map<string, { step: number; value: number }[]>>();
  for (const p of points) {
    let runs = byName.get(p.name);
    if (!runs) byName.set(p.name, (runs = new Map()));
    const point = { step: p.step, value: p.value };
    const list = runs.get(p.runId);
    if (list) list.push(point);
    else runs.set(p.runId, [point]);
  }
  return [...byName.keys()].sort().map((name) => {
    const runs = byName.get(name)!;
    return {
      name,
      series: chain.flatMap((c) => {
        const mine = c.run ? runs.get(c.run.id) : undefined;
        return mine ? [{ checkpoint: c.name, runId: c.run!.id, points: mine }] : [];
      }),
    };
  });
}

/** The lineage rows the page shows without `?all=1`. */
export const LINEAGE_ROWS_AT_A_GLANCE = 25;
/** the focused checkpoint's ancestors it shows besides */
const GLANCE_ANCESTORS = 5;

/**
 * The lineage at a glance (pure): every checkpoint when there are few; else the focused one's
 * line (it and up to 5 ancestors) and the newest checkpoints (the tail of the tree order), in tree
 * order. The page links to all of them.
 */
export function lineageAtAGlance(
  view: Pick<HillClimbView, 'checkpoints' | 'focus'>,
  max = LINEAGE_ROWS_AT_A_GLANCE,
): HillClimbCheckpoint[] {
  const all = view.checkpoints;
  if (all.length <= max) return all;
  const byId = new Map(all.map((c) => [c.id, c]));
  const keep = new Set<string>();
  let line = 0;
  for (
    let c = view.focus ? byId.get(view.focus) : undefined;
    c && !keep.has(c.id) && line <= GLANCE_ANCESTORS;
    c = c.parentId ? byId.get(c.parentId) : undefined, line++
  )
    keep.add(c.id);
  for (const c of all.slice(-max)) keep.add(c.id);
  return all.filter((c) => keep.has(c.id));
}
