import { notFound } from 'next/navigation';
import { cache, Suspense, type ReactNode } from 'react';
import { z } from 'zod';
import { CriteriaChecklist } from '@/components/trajectories/criteria-checklist';
import { CriteriaEditor } from '@/components/trajectories/criteria-editor';
import { TypesetExpandableText } from '@/components/trajectories/typeset-expandable-text';
import { formatBytes, formatDateTime, formatReward } from '@/components/ui/format';
import { formatCount } from '@/lib/video/text';
import { inert, prettyJson } from '@/lib/rich-text/inert-text';
import { IntentLink } from '@/components/ui/intent-link';
import { Facts, Panel } from '@/components/trajectories/panel';
import { RawSourceView } from '@/components/trajectories/raw-source-view';
import { SubmissionDiff } from '@/components/trajectories/submission-diff';
import { TrajectoryHeader } from '@/components/trajectories/trajectory-header';
import { Transcript } from '@/components/trajectories/transcript';
import { canAccess } from '@/lib/auth/roles';
import type { TrajectoryDetail } from '@/lib/trajectories/queries/trajectory-queries';
import { getRawSource, getTrajectoryDetail } from '@/lib/trajectories/view-trajectory';
import { AppError } from '@/lib/errors';
import { VideoPanel } from '@/components/video/video-panel';
import { choosePacing } from '@/lib/video/choose-pacing';
import { latestTrajectoryVideo } from '@/lib/video/read-video';
import { pacingSchema } from '@/lib/video/pacing';
import { requirePageProjectRole, requirePageUser } from '../../../_server/current-user';
import { requestRenderAction, updateCriteriaAction } from './actions';

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** steps of the transcript a page shows: a long run's transcript is paged (`?from=N`), the video seeks to any step */
const STEP_PAGE = 50;

const loadDetail = cache(async (id: string, from: number): Promise<TrajectoryDetail | null> => {
  try {
    return await getTrajectoryDetail(id, { steps: { from, take: STEP_PAGE } });
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
});

const fromParam = z.coerce.number().int().min(0).max(10_000_000).catch(0);
const fromOf = (query: Record<string, string | string[] | undefined>) =>
  fromParam.parse(Array.isArray(query.from) ? query.from[0] : query.from);

export async function generateMetadata({ params, searchParams }: Props) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  await requirePageProjectRole(user, 'trajectory', id, 'lead');
  const t = await loadDetail(id, fromOf(await searchParams));
  return { title: t ? inert(t.task.name) : 'Trajectory' };
}

const frameParam = z.coerce.number().int().min(0).max(10_000_000).catch(0);
const pacingParam = pacingSchema.optional().catch(undefined);

/** "Steps 51–100 of 1,000" with the previous and next pages (nothing when every step is shown) */
function StepPager({ id, from, shown, total, pacing }: { id: string; from: number; shown: number; total: number; pacing: string | null }) {
  if (from === 0 && shown >= total) return null;
  const href = (at: number) =>
    `/trajectories/${id}?${new URLSearchParams({ ...(pacing ? { pacing } : {}), ...(at > 0 ? { from: String(at) } : {}) })}#transcript`;
  const link = 'rounded-md border border-zinc-300 px-2 py-1 hover:bg-zinc-50';
  return (
    <nav aria-label="Transcript pages" className="my-2 flex flex-wrap items-center gap-2 text-xs text-zinc-600">
      <span>
        Steps {formatCount(Math.min(from + 1, total))}–{formatCount(from + shown)} of {formatCount(total)}
      </span>
      {from > 0 ? (
        <IntentLink href={href(Math.max(0, from - STEP_PAGE))} className={link}>
          ← Previous {STEP_PAGE}
        </IntentLink>
      ) : null}
      {from + shown < total ? (
        <IntentLink href={href(from + STEP_PAGE)} className={link}>
          Next {Math.min(STEP_PAGE, total - from - shown)} →
        </IntentLink>
      ) : null}
      <span className="text-zinc-400">the video&apos;s chapters reach every step</span>
    </nav>
  );
}

function isEmptyObject(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
}

export default async function TrajectoryPage({ params, searchParams }: Props) {
  const user = await requirePageUser('lead');
  const { id } = await params;
  await requirePageProjectRole(user, 'trajectory', id, 'lead');
  const query = await searchParams;
  const view = query.view === 'source' ? 'source' : 'transcript';
  // ?frame=N opens the video at that frame (links to evidence, e.g. the insight page's flagged moments)
  const frame = frameParam.parse(Array.isArray(query.frame) ? query.frame[0] : query.frame);
  const from = fromOf(query);
  const t = await loadDetail(id, from);
  if (!t) notFound();
  const raw = view === 'source' ? await getRawSource(id) : null;
  // ?pacing=read|skim; by default the pacing its campaigns watch it at (read where an expert checks every line at 1x)
  const pacing = await choosePacing(id, pacingParam.parse(Array.isArray(query.pacing) ? query.pacing[0] : query.pacing));
  // no video props in the page (a 1,000-step run's head alone is 0.75 MB): the Player asks the
  // video route for the stored head, then loads the parts as it plays; the route never derives
  // them either (a worker's video.props job does, when they are missing or stale)
  const videoRow = view === 'transcript' ? await latestTrajectoryVideo(id, pacing) : null;
  const canEdit = canAccess(user.role, 'lead');

  const tab = (name: 'transcript' | 'source', label: string) => (
    <IntentLink
      href={name === 'source' ? `/trajectories/${t.id}?view=source` : `/trajectories/${t.id}`}
      aria-current={view === name ? 'page' : undefined}
      className={`-mb-px border-b-2 px-3 py-2 text-sm ${view === name ? 'border-indigo-600 font-medium text-indigo-700' : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900'}`}
    >
      {label}
    </IntentLink>
  );

  const components = Object.entries(t.verifier.components);
  const usage = t.usage;

  return (
    <>
      <TrajectoryHeader t={t} />
      <nav aria-label="Trajectory views" className="mb-5 flex gap-1 border-b border-zinc-200">
        {tab('transcript', `Transcript (${t.stepCount === 1 ? '1 step' : `${formatCount(t.stepCount)} steps`})`)}
        {tab('source', 'Raw source')}
      </nav>

      {view === 'source' ? (
        <RawSourceView source={raw} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          {view === 'transcript' ? (
            <div className="min-w-0 lg:col-span-2">
              <VideoPanel
                head={null}
                videoUrl={`/api/v1/trajectories/${t.id}/video?pacing=${pacing}`}
                initialStatus={
                  videoRow
                    ? {
                        id: videoRow.id,
                        status: videoRow.status,
                        progress: videoRow.progress,
                        error: videoRow.error,
                        sizeBytes: videoRow.sizeBytes,
                      }
                    : null
                }
                requestRender={requestRenderAction.bind(null, { trajectoryId: t.id, pacing })}
                initialFrame={frame}
                pacing={pacing}
                pacingHrefs={{ read: `/trajectories/${t.id}?pacing=read`, skim: `/trajectories/${t.id}?pacing=skim` }}
              />
            </div>
          ) : null}
          <div className="min-w-0 space-y-6">
            <Panel title="Instruction" id="instruction">
              {t.task.instruction.trim() === '' ? (
                <p className="text-sm text-zinc-500">The source gave no instruction.</p>
              ) : (
                <TypesetExpandableText text={t.task.instruction} maxLines={30} className="font-sans text-sm text-zinc-800" />
              )}
            </Panel>
            <section aria-labelledby="transcript">
              <div className="mb-2 flex flex-wrap items-baseline justify-between gap-2">
                <h2 id="transcript" className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
                  Transcript
                </h2>
                <p className="flex flex-wrap gap-3 text-[11px] text-zinc-500" aria-label="Colour legend">
                  {(
                    [
                      ['bg-zinc-400', 'system'],
                      ['bg-sky-500', 'user'],
                      ['bg-indigo-500', 'agent'],
                      ['bg-amber-500', 'tool'],
                      ['bg-emerald-500', 'environment'],
                      ['bg-fuchsia-500', 'hook'],
                    ] as const
                  ).map(([colour, label]) => (
                    <span key={label} className="flex items-center gap-1">
                      <span aria-hidden className={`inline-block h-2 w-2 rounded-full ${colour}`} />
                      {label}
                    </span>
                  ))}
                </p>
              </div>
              <StepPager id={t.id} from={from} shown={t.steps.length} total={t.stepCount} pacing={query.pacing ? pacing : null} />
              {/* its own hydration boundary: the steps' rich text re-parses on the client (seconds for 50 steps of a long
                  run), and the video panel above must not wait for it to show and play the video */}
              <Suspense>
                <Transcript steps={t.steps} />
              </Suspense>
              {t.steps.length > 10 ? (
                <StepPager id={t.id} from={from} shown={t.steps.length} total={t.stepCount} pacing={query.pacing ? pacing : null} />
              ) : null}
            </section>
            {t.submission ? (
              <section aria-labelledby="submission">
                <h2 id="submission" className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">
                  Submission
                </h2>
                <SubmissionDiff submission={t.submission} />
              </section>
            ) : null}
          </div>

          <aside className="space-y-4" aria-label="Task and scores">
            <Panel title="Acceptance criteria" id="criteria">
              {canEdit ? (
                <CriteriaEditor
                  taskId={t.task.id}
                  criteria={t.task.acceptanceCriteria}
                  updatedAt={t.task.updatedAt}
                  save={updateCriteriaAction}
                />
              ) : (
                <CriteriaChecklist criteria={t.task.acceptanceCriteria} />
              )}
            </Panel>

            <Panel title="Verifier" id="verifier">
              {t.verifier.reward === null && components.length === 0 ? (
                <p className="text-sm text-zinc-500">No verifier result in the source.</p>
              ) : (
                <Facts
                  rows={[
                    [
                      'reward',
                      <span key="r" className="font-mono font-semibold">
                        {formatReward(t.verifier.reward)}
                      </span>,
                    ],
                    ...components.map(([k, v]): [string, ReactNode] => [
                      inert(k),
                      <span key={k} className="font-mono">
                        {formatReward(v)}
                      </span>,
                    ]),
                  ]}
                />
              )}
            </Panel>

            {t.judgeScores.length > 0 ? (
              <Panel title="Judges" id="judges">
                <ul className="space-y-3">
                  {t.judgeScores.map((j, i) => (
                    <li key={i} className="text-sm">
                      <div className="flex items-baseline justify-between gap-2">
                        <span className="truncate font-mono text-xs text-zinc-700">{inert(j.judge)}</span>
                        <span className="font-mono font-semibold tabular-nums">
                          {j.score !== null ? formatReward(j.score) : null}
                          {j.label ? <span className="ml-1 text-xs font-normal text-zinc-500">{inert(j.label)}</span> : null}
                        </span>
                      </div>
                      {j.explanation ? (
                        <details className="mt-1">
                          <summary className="cursor-pointer text-xs text-zinc-500 hover:text-zinc-800">Explanation</summary>
                          <p className="mt-1 whitespace-pre-wrap break-words text-xs text-zinc-700">{inert(j.explanation)}</p>
                        </details>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </Panel>
            ) : null}

            <Panel title="Run" id="run">
              <Facts
                rows={[
                  ['model', t.policy.model ? <span className="font-mono text-xs">{inert(t.policy.model)}</span> : '—'],
                  ...(t.policy.checkpoint
                    ? ([
                        [
                          'checkpoint',
                          <span key="c" className="font-mono text-xs">
                            {inert(t.policy.checkpoint)}
                          </span>,
                        ],
                      ] as [string, ReactNode][])
                    : []),
                  ['agent', t.policy.agent ? inert(t.policy.agent) : '—'],
                  ...(usage
                    ? ([
                        ['tokens', `${formatCount(usage.promptTokens ?? 0)} in · ${formatCount(usage.completionTokens ?? 0)} out`],
                        ...(usage.costUsd !== null ? ([['cost', `$${usage.costUsd.toFixed(4)}`]] as [string, string][]) : []),
                      ] as [string, string][])
                    : []),
                  ...(t.startedAt ? ([['started', formatDateTime(t.startedAt)]] as [string, string][]) : []),
                  ...(t.endedAt ? ([['ended', formatDateTime(t.endedAt)]] as [string, string][]) : []),
                  ['exit', t.exitStatus ? inert(t.exitStatus) : '—'],
                  ...(t.externalId
                    ? ([
                        [
                          'run id',
                          <span key="x" className="font-mono text-xs">
                            {inert(t.externalId)}
                          </span>,
                        ],
                      ] as [string, ReactNode][])
                    : []),
                  ['terminal', t.hasTerminalRecording ? 'recorded' : 'no recording'],
                ]}
              />
            </Panel>

            <Panel
              title="Source"
              id="source"
              actions={
                t.source ? (
                  <IntentLink href={`/trajectories/${t.id}?view=source`} className="text-xs font-medium text-indigo-700 hover:underline">
                    View raw
                  </IntentLink>
                ) : null
              }
            >
              {t.source ? (
                <Facts
                  rows={[
                    [
                      'path',
                      <span key="p" className="break-all font-mono text-xs">
                        {inert(t.source.path)}
                      </span>,
                    ],
                    ['where', t.source.where ? <span className="font-mono text-xs">{inert(t.source.where)}</span> : '—'],
                    ['format', t.source.format],
                    ['size', formatBytes(t.source.sizeBytes)],
                    [
                      'sha256',
                      <span key="s" className="font-mono text-xs" title={t.source.sha256}>
                        {t.source.sha256.slice(0, 12)}…
                      </span>,
                    ],
                  ]}
                />
              ) : (
                <p className="text-sm text-zinc-500">No raw source stored.</p>
              )}
            </Panel>

            {!isEmptyObject(t.metadata) || !isEmptyObject(t.task.metadata) ? (
              <Panel title="Metadata" id="metadata">
                {!isEmptyObject(t.task.metadata) ? (
                  <details className="mb-2">
                    <summary className="cursor-pointer text-xs font-medium text-zinc-600">Task</summary>
                    <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-2 font-mono text-[11px] text-zinc-700">
                      {inert(prettyJson(t.task.metadata))}
                    </pre>
                  </details>
                ) : null}
                {!isEmptyObject(t.metadata) ? (
                  <details open={isEmptyObject(t.task.metadata)}>
                    <summary className="cursor-pointer text-xs font-medium text-zinc-600">Trajectory</summary>
                    <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded bg-zinc-50 p-2 font-mono text-[11px] text-zinc-700">
                      {inert(prettyJson(t.metadata))}
                    </pre>
                  </details>
                ) : null}
              </Panel>
            ) : null}
          </aside>
        </div>
      )}
    </>
  );
}
