import { z } from 'zod';
import type { EnvironmentInsightData, FlaggedMomentRow } from './queries/insight-environments';
import { evidenceNote } from '../review/evidence';
import { binaryAlpha, verifierKappa } from './agreement';
import { rankEnvironments, type EnvironmentSignals, type RankedEnvironment } from './environment-ranking';
import { wilson } from './intervals';
import { teachability } from './teachability';
import { toCsv } from '../csv';
import { figureColumns, r4 } from './figure-columns';

/** A flagged review in the "flagged moments" list: its first three well-formed evidence notes. */
export interface FlaggedMoment extends Omit<FlaggedMomentRow, 'evidence'> {
  notes: { frame: number; stepIndex: number | null; note: string }[];
}

const notes = z.array(z.unknown()).catch([]);

function flaggedMoment({ evidence, ...row }: FlaggedMomentRow): FlaggedMoment {
  return {
    ...row,
    notes: notes
      .parse(evidence)
      .flatMap((n) => {
        const parsed = evidenceNote.safeParse(n);
        return parsed.success ? [{ frame: parsed.data.frame, stepIndex: parsed.data.stepIndex, note: parsed.data.note }] : [];
      })
      .slice(0, 3),
  };
}

/** One environment's figures (every rate with n and a 95% interval) plus its flagged moments. */
export interface EnvironmentFigures extends EnvironmentSignals {
  id: string;
  tasks: number;
  trajectories: number;
  flagged: FlaggedMoment[];
}

export type EnvironmentReport = RankedEnvironment<EnvironmentFigures>[];

export function environmentReport(data: EnvironmentInsightData): EnvironmentReport {
  const figures = data.environments.map((env): EnvironmentFigures => {
    const tasks = data.tasks.filter((t) => t.environmentId === env.id);
    const scored = tasks.reduce((a, t) => a + t.scored, 0);
    const passes = tasks.reduce((a, t) => a + t.passes, 0);
    const r = data.reviewed.find((x) => x.environmentId === env.id);
    const reviewed = r?.reviewed ?? 0;
    return {
      id: env.id,
      name: env.name,
      tasks: tasks.length,
      trajectories: tasks.reduce((a, t) => a + t.trajectories, 0),
      verifierPass: wilson(passes, scored),
      reviewerPass: wilson(r?.humanPass ?? 0, r?.humanJudged ?? 0),
      rewardHacking: wilson(r?.rewardHacking ?? 0, reviewed),
      answerLeakage: wilson(r?.answerLeakage ?? 0, reviewed),
      verifierAgreement: verifierKappa({ pp: r?.pp ?? 0, pf: r?.pf ?? 0, fp: r?.fp ?? 0, ff: r?.ff ?? 0 }),
      reviewerAgreement: binaryAlpha(data.itemVerdicts.filter((x) => x.environmentId === env.id)),
      teachability: teachability(tasks.map((t) => ({ attempts: t.scored, passes: t.passes }))),
      reviewedTrajectories: reviewed,
      flagged: data.flagged.filter((f) => f.environmentId === env.id).map(flaggedMoment),
    };
  });
  return rankEnvironments(figures);
}

/** The ranked table as plain rows: the CSV download and the API's JSON share it. */
export function environmentTableRows(report: EnvironmentReport) {
  return report.map(({ rank, environment: e, reasons }) => ({
    rank,
    environment: e.name,
    tasks: e.tasks,
    trajectories: e.trajectories,
    ...figureColumns('verifierPass', e.verifierPass.rate, e.verifierPass),
    ...figureColumns('reviewerPass', e.reviewerPass.rate, e.reviewerPass),
    ...figureColumns('verifierKappa', e.verifierAgreement.value, e.verifierAgreement, ''),
    ...figureColumns('reviewerAlpha', e.reviewerAgreement.value, e.reviewerAgreement, ''),
    rewardHackingRate: r4(e.rewardHacking.rate),
    rewardHackingLow: r4(e.rewardHacking.ci?.[0]),
    rewardHackingHigh: r4(e.rewardHacking.ci?.[1]),
    answerLeakageRate: r4(e.answerLeakage.rate),
    answerLeakageLow: r4(e.answerLeakage.ci?.[0]),
    answerLeakageHigh: r4(e.answerLeakage.ci?.[1]),
    flagN: e.rewardHacking.n,
    ...figureColumns('teachable', e.teachability.teachable.rate, e.teachability.teachable, 'Share'),
    alwaysSolved: e.teachability.alwaysSolved,
    neverSolved: e.teachability.neverSolved,
    reasons: reasons.map((x) => `${x.severity}: ${x.text}`).join('; '),
    // the names before 0.2 (one naming now: <measure>Rate/Low/High/N), kept one version for scripts
    verifierN: e.verifierPass.n,
    reviewerN: e.reviewerPass.n,
  }));
}

export function rowsToCsv(rows: readonly Record<string, string | number | boolean | null>[]): string {
  if (rows.length === 0) return '\r\n';
  const header = Object.keys(rows[0]!);
  return toCsv(
    header,
    rows.map((r) => header.map((h) => r[h])),
  );
}
