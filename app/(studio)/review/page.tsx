import { IntentLink } from '@/components/ui/intent-link';
import { NextItemButton } from '@/components/review/next-item-button';
import { EmptyState } from '@/components/ui/empty-state';
import { PageHeader } from '@/components/ui/page-header';
import { visibleProjectIds } from '@/lib/auth/project-access';
import { viewReviewerHome } from '@/lib/review/view-reviewer-home';
import { requirePageUser } from '../../_server/current-user';
import { claimNextAction } from './actions';

export const metadata = { title: 'My queue' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ReviewerHome({ searchParams }: Props) {
  const user = await requirePageUser('review');
  const now = new Date();
  const projectIds = visibleProjectIds(user.access, 'reviewer');
  const { queues, recent } = await viewReviewerHome({ id: user.id, expertise: user.expertise, projectIds }, now, 8);
  const done = (await searchParams).done;
  const finished = typeof done === 'string' ? queues.find((q) => q.id === done) : undefined;
  const reviewedToday = queues.reduce((n, q) => n + q.doneToday, 0);
  const inQueue = queues.reduce((n, q) => n + q.available, 0);

  return (
    <>
      <PageHeader
        title="My queue"
        description={
          queues.length
            ? `${reviewedToday} reviewed today / ${inQueue} in queue`
            : `Hello ${user.name.split(' ')[0]}. Items to grade appear here, by campaign.`
        }
      />
      {typeof done === 'string' ? (
        <p role="status" className="mb-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {finished ? `Nothing left for you in “${finished.name}”. Thank you!` : 'Nothing left for you in that campaign. Thank you!'}
        </p>
      ) : null}
      {queues.length === 0 ? (
        <EmptyState title="Nothing to review yet">
          When a lead opens a campaign
          {user.expertise.length ? ` that needs ${user.expertise.join(' or ')} expertise (or none)` : ''}, its items appear here. You will
          watch each agent&apos;s proof-of-work video and grade it with the campaign&apos;s rubric.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="Campaign queues">
          {queues.map((q) => {
            const share = q.totalItems ? Math.min(1, q.doneTotal / q.totalItems) : 0;
            return (
              <li
                key={q.id}
                className="flex flex-wrap items-center gap-4 rounded-xl border border-zinc-200 bg-white px-5 py-4 shadow-sm"
                data-testid="queue"
              >
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-baseline gap-2">
                    <h2 className="truncate text-base font-semibold text-zinc-900">{q.name}</h2>
                    <span className="rounded bg-zinc-100 px-1.5 py-0.5 text-[11px] font-medium uppercase tracking-wide text-zinc-600">
                      {q.mode === 'pairwise' ? 'pairwise' : 'single'}
                    </span>
                    {q.requiredExpertise.map((tag) => (
                      <span key={tag} className="rounded bg-indigo-50 px-1.5 py-0.5 text-[11px] font-medium text-indigo-700">
                        {tag}
                      </span>
                    ))}
                    <span className="text-xs text-zinc-500">{q.project.name}</span>
                  </div>
                  <p className="mt-1 text-sm text-zinc-600" data-testid="queue-progress">
                    <span className="font-medium text-zinc-900">{q.doneToday}</span> reviewed today /{' '}
                    <span className="font-medium text-zinc-900">{q.available}</span> in queue
                    <span className="text-zinc-400"> · {q.doneTotal} done in all</span>
                  </p>
                  <div className="mt-2 h-1.5 w-full max-w-sm overflow-hidden rounded bg-zinc-100" aria-hidden>
                    <div className="h-full bg-indigo-500" style={{ width: `${share * 100}%` }} />
                  </div>
                </div>
                {q.available > 0 ? (
                  <NextItemButton campaignId={q.id} claim={claimNextAction} />
                ) : (
                  <span className="text-sm text-zinc-500">All done here</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {recent.length > 0 ? (
        <section className="mt-8" aria-labelledby="recent">
          <h2 id="recent" className="mb-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">
            Recently submitted
          </h2>
          <ul className="divide-y divide-zinc-100 rounded-xl border border-zinc-200 bg-white">
            {recent.map((r) => (
              <li key={r.assignmentId} className="flex items-center gap-3 px-4 py-2 text-sm">
                <span className="min-w-0 flex-1 truncate">
                  <span className="font-medium text-zinc-900">{r.task}</span> <span className="text-zinc-500">· {r.campaign.name}</span>
                </span>
                <span className="text-xs text-zinc-400">
                  {r.finishedAt ? r.finishedAt.toISOString().slice(0, 16).replace('T', ' ') : ''}
                </span>
                {r.campaign.status === 'open' ? (
                  <IntentLink
                    href={`/review/${r.campaign.mode === 'pairwise' ? 'compare' : 'items'}/${r.assignmentId}`}
                    className="text-xs font-medium text-indigo-700 hover:underline"
                  >
                    Revise
                  </IntentLink>
                ) : (
                  <span className="text-xs text-zinc-400">closed</span>
                )}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
