import { IntentLink } from '@/components/ui/intent-link';
import { AdjudicationForm } from '@/components/agreement/adjudication-form';
import { EvidenceVideo, type EvidenceEntry } from '@/components/agreement/evidence-video';
import { inert } from '@/lib/rich-text/inert-text';
import { DataTable } from '@/components/ui/table';
import { Panel } from '@/components/trajectories/panel';
import { PageHeader } from '@/components/ui/page-header';
import { majorityAnswers } from '@/lib/agreement/majority-answers';
import type { AdjudicationView } from '@/lib/agreement/queries/adjudications';
import { viewAdjudication } from '@/lib/agreement/view-adjudication';
import { listRunsForReview } from '@/lib/training/list-runs-for-review';
import { TrainedOnPanel } from '@/components/training/trained-on-panel';
import type { RubricDefinition } from '@/lib/review/rubric';
import type { TrajectoryVideoProps } from '@/lib/video/schema';
import { videoPropsFor } from '@/lib/video/video-props-for';
import { orPageError } from '../../../../../../_server/or-not-found';
import { requirePageUser } from '../../../../../../_server/current-user';
import { recordAdjudicationAction } from './actions';
import { RichText } from '@/render/ui/rich-text';

export const metadata = { title: 'Adjudicate' };

type Props = { params: Promise<{ id: string; itemId: string }> };

async function videoOrNull(trajectoryId: string | null, pacing: 'read' | 'skim'): Promise<TrajectoryVideoProps | null> {
  if (!trajectoryId) return null;
  try {
    // the campaign's pacing: the reviewers' evidence frames are on that timeline
    return await videoPropsFor(trajectoryId, undefined, pacing);
  } catch (error) {
    console.error('[adjudication] video props', error);
    return null;
  }
}

const preferenceText: Record<string, string> = {
  '-2': 'A much better',
  '-1': 'A better',
  '0': 'Equal',
  '1': 'B better',
  '2': 'B much better',
};

function answerText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : 'none';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Rows of the answers table: one per question, criteria one per criterion. */
function answerRows(rubric: RubricDefinition, view: AdjudicationView) {
  const rows: { key: string; label: string; values: string[]; final: string }[] = [];
  const current = view.adjudications.find((a) => a.isCurrent);
  for (const q of rubric.questions) {
    if (q.type === 'criteria') {
      for (const c of view.item.criteria) {
        rows.push({
          key: `${q.id}.${c.key}`,
          label: `${q.prompt}: ${c.text}`,
          values: view.reviews.map((r) => answerText((r.answers[q.id] as Record<string, unknown> | undefined)?.[c.key])),
          final: current ? answerText((current.answers[q.id] as Record<string, unknown> | undefined)?.[c.key]) : '',
        });
      }
    } else {
      rows.push({
        key: q.id,
        label: q.prompt,
        values: view.reviews.map((r) => answerText(r.answers[q.id])),
        final: current ? answerText(current.answers[q.id]) : '',
      });
    }
  }
  return rows;
}

/** Marks a review by someone who uploaded the trajectory (the project allows self-review). */
function SelfReviewMark() {
  return (
    <span
      className="ml-1 rounded-full bg-rose-50 px-1.5 py-0.5 text-[10px] font-medium text-rose-800 ring-1 ring-inset ring-rose-600/20"
      title="This reviewer uploaded the trajectory"
      data-testid="self-review"
    >
      self-review
    </span>
  );
}

export default async function AdjudicateItem({ params }: Props) {
  const user = await requirePageUser('lead');
  const { id, itemId } = await params;
  const [view, runs] = await orPageError(Promise.all([viewAdjudication(user, id, itemId), listRunsForReview(user, itemId)]));
  const pairwise = view.campaign.mode === 'pairwise';
  const [videoA, videoB] = await Promise.all([
    videoOrNull(view.item.trajectoryId, view.campaign.pacing),
    videoOrNull(pairwise ? view.item.trajectoryBId : null, view.campaign.pacing),
  ]);
  const current = view.adjudications.find((a) => a.isCurrent) ?? null;
  // the latest decision was superseded by a reviewer's revision: the item is open again
  const reopened = !current && view.adjudications[0]?.supersededAt ? view.adjudications[0] : null;
  const rubric = view.rubric;
  const evidenceFor = (side: 'a' | 'b' | null): EvidenceEntry[] =>
    pairwise
      ? view.comparisons.flatMap((c) =>
          c.evidence
            .filter((e) => (e.side ?? 'a') === side)
            .map((e) => ({ reviewer: inert(c.reviewerName), frame: e.frame, stepIndex: e.stepIndex, note: inert(e.note) })),
        )
      : view.reviews.flatMap((r) =>
          r.evidence.map((e) => ({
            reviewer: inert(r.reviewerName),
            frame: e.frame,
            stepIndex: e.stepIndex,
            note: inert(e.note),
            wrongStep: e.wrongStep,
          })),
        );
  const initial = current
    ? { answers: current.answers, preference: current.preference, bothBad: current.bothBad }
    : pairwise
      ? (() => {
          const prefs = view.comparisons.map((c) => c.preference).sort((a, b) => a - b);
          return { answers: {}, preference: prefs.length ? prefs[(prefs.length - 1) >> 1]! : null, bothBad: false };
        })()
      : {
          answers: majorityAnswers(
            rubric,
            view.reviews.map((r) => r.answers),
          ),
          preference: null,
          bothBad: false,
        };

  return (
    <>
      <PageHeader
        title={inert(view.item.taskName)}
        description={
          <>
            <IntentLink href={`/lead/campaigns/${view.campaign.id}/adjudication`} className="text-indigo-700 hover:underline">
              ← Disagreements in {inert(view.campaign.name)}
            </IntentLink>{' '}
            ·{' '}
            <IntentLink href={`/trajectories/${view.item.trajectoryId}`} className="text-indigo-700 hover:underline">
              trajectory{pairwise ? ' A' : ''}
            </IntentLink>
            {pairwise && view.item.trajectoryBId ? (
              <>
                {' '}
                ·{' '}
                <IntentLink href={`/trajectories/${view.item.trajectoryBId}`} className="text-indigo-700 hover:underline">
                  trajectory B
                </IntentLink>
              </>
            ) : null}
            {view.item.isGold ? (
              <span className="ml-2 rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-800 ring-1 ring-inset ring-amber-600/20">
                gold item
              </span>
            ) : null}
            {current ? (
              <span
                className="ml-2 rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-inset ring-indigo-600/20"
                data-testid="adjudicated-badge"
              >
                Adjudicated
              </span>
            ) : null}
            {reopened ? (
              <span
                className="ml-2 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-800 ring-1 ring-inset ring-amber-600/20"
                data-testid="reopened-badge"
              >
                Revised after adjudication: decide again
              </span>
            ) : null}
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="min-w-0 space-y-6">
          <Panel title={`Answers (${pairwise ? view.comparisons.length : view.reviews.length} reviewers)`} id="answers">
            <div className="overflow-x-auto">
              {pairwise ? (
                <DataTable
                  frame="none"
                  testId="answers-table"
                  columnClassName="py-1 pr-2"
                  columns={['Reviewer', 'Preference', 'Criteria A / B', { label: 'Rationale', className: 'py-1' }]}
                >
                  {view.comparisons.map((c) => (
                    <tr key={c.reviewerId} className="align-top">
                      <td className="py-1.5 pr-2 font-medium text-zinc-900">
                        {inert(c.reviewerName)}
                        {c.selfReview ? <SelfReviewMark /> : null}
                      </td>
                      <td className="py-1.5 pr-2 whitespace-nowrap">
                        {preferenceText[String(c.preference)]}
                        {c.bothBad ? <span className="ml-1 text-xs text-rose-700">(both bad)</span> : null}
                      </td>
                      <td className="py-1.5 pr-2 font-mono text-xs text-zinc-700">
                        {view.item.criteria.map((k) => (
                          <div key={k.key} title={inert(k.text)}>
                            {inert(k.key)}: {c.criteria.a[k.key] ?? '—'} / {c.criteria.b[k.key] ?? '—'}
                          </div>
                        ))}
                      </td>
                      <td className="py-1.5 text-zinc-700">
                        <RichText text={c.rationale} />
                      </td>
                    </tr>
                  ))}
                </DataTable>
              ) : (
                <DataTable
                  frame="none"
                  testId="answers-table"
                  columns={[
                    { label: 'Question', className: 'py-1 pr-2' },
                    ...view.reviews.map((r) => ({
                      label: (
                        <span title={inert(r.reviewerName)}>
                          {inert(r.reviewerName)}
                          {r.selfReview ? <SelfReviewMark /> : null}
                        </span>
                      ),
                      className: 'max-w-40 truncate py-1 pr-2 normal-case',
                    })),
                    ...(current ? [{ label: 'Final', className: 'py-1 text-indigo-700' }] : []),
                  ]}
                >
                  {answerRows(rubric, view).map((row) => {
                    const split = new Set(row.values.filter((v) => v !== '—')).size > 1;
                    return (
                      <tr key={row.key} className={`align-top ${split ? 'bg-amber-50/60' : ''}`}>
                        <td className="max-w-56 py-1.5 pr-2 text-zinc-700">
                          <span className="line-clamp-2" title={inert(row.label)}>
                            <RichText text={row.label} inline />
                          </span>
                        </td>
                        {row.values.map((v, i) => (
                          <td key={i} className="max-w-40 py-1.5 pr-2 break-words font-mono text-xs text-zinc-900">
                            {inert(v)}
                          </td>
                        ))}
                        {current ? <td className="py-1.5 font-mono text-xs font-semibold text-indigo-800">{inert(row.final)}</td> : null}
                      </tr>
                    );
                  })}
                </DataTable>
              )}
            </div>
          </Panel>
          <EvidenceVideo
            title={pairwise ? 'Trajectory A' : 'Proof-of-work video'}
            video={videoA}
            evidence={evidenceFor(pairwise ? 'a' : null)}
          />
          {pairwise ? <EvidenceVideo title="Trajectory B" video={videoB} evidence={evidenceFor('b')} /> : null}
        </div>
        <div className="min-w-0 space-y-6">
          <Panel title={current ? `Final label · revision ${current.revision}` : 'Final label'} id="final">
            <AdjudicationForm
              campaignId={view.campaign.id}
              itemId={view.item.id}
              mode={view.campaign.mode}
              rubric={rubric}
              criteria={view.item.criteria.map((c) => ({ key: c.key, text: c.text }))}
              initial={initial}
              basedOnRevision={current?.revision ?? null}
              save={recordAdjudicationAction}
            />
          </Panel>
          {runs.length ? (
            <Panel title={`Training runs on these reviews (${runs.length})`} id="trained-on">
              <TrainedOnPanel
                runs={runs}
                reviewerNames={Object.fromEntries(
                  [...view.reviews, ...view.comparisons].map((r) => [r.reviewerId, inert(r.reviewerName)] as const),
                )}
              />
            </Panel>
          ) : null}
          {view.adjudications.length ? (
            <Panel title="Decisions" id="history">
              <ol className="space-y-2 text-sm" data-testid="adjudication-history">
                {view.adjudications.map((a) => (
                  <li key={a.revision} className={a.isCurrent ? '' : 'text-zinc-500'}>
                    <div className="text-xs">
                      Revision {a.revision} · {a.adjudicatorName ? inert(a.adjudicatorName) : 'a former user'} ·{' '}
                      {a.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                      {a.isCurrent ? <span className="ml-1 font-medium text-indigo-700">current</span> : null}
                      {a.supersededAt ? (
                        <span className="ml-1 font-medium text-amber-800" data-testid="superseded">
                          superseded by a reviewer&apos;s revision at {a.supersededAt.toISOString().slice(0, 16).replace('T', ' ')} UTC
                        </span>
                      ) : null}
                    </div>
                    <RichText text={a.rationale} />
                    {a.preference !== null ? (
                      <p className="text-xs">
                        Preference: {preferenceText[String(a.preference)]}
                        {a.bothBad ? ', both bad' : ''}
                      </p>
                    ) : null}
                  </li>
                ))}
              </ol>
            </Panel>
          ) : null}
        </div>
      </div>
    </>
  );
}
