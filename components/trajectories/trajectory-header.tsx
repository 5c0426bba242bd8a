import type { TrajectoryDetail } from '@/lib/trajectories/queries/trajectory-queries';
import { Badge } from '../ui/badge';
import { SplitBadge } from './badges';
import { formatDateTime, formatReward, rewardTone } from '../ui/format';
import { formatCount } from '../../lib/video/text';
import { inert } from '@/lib/rich-text/inert-text';
import { IntentLink } from '../ui/intent-link';

/** Breadcrumb, task name, what ran it, and the scores at a glance. */
export function TrajectoryHeader({ t }: { t: TrajectoryDetail }) {
  return (
    <header className="mb-5">
      <nav aria-label="Breadcrumb" className="mb-2 text-xs text-zinc-500">
        <IntentLink href="/trajectories" className="hover:text-indigo-700 hover:underline">
          Trajectories
        </IntentLink>
        <span className="mx-1.5 text-zinc-300">/</span>
        <IntentLink
          href={`/trajectories?project=${encodeURIComponent(t.project.slug)}`}
          className="font-mono hover:text-indigo-700 hover:underline"
        >
          {t.project.slug}
        </IntentLink>
      </nav>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 flex-1">
          <h1 className="break-words text-2xl font-semibold tracking-tight">{inert(t.task.name)}</h1>
          <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs">
            <SplitBadge split={t.task.split} />
            <Badge title="Environment">
              <span className="text-zinc-400">env</span> {t.task.environment ? inert(t.task.environment) : 'none'}
            </Badge>
            <Badge className="bg-white text-zinc-800 ring-zinc-200 font-mono" title="Policy (model@checkpoint / agent)">
              {inert(t.policy.name)}
            </Badge>
            <Badge title="Source format">{t.format}</Badge>
            <Badge title="Steps">{t.stepCount === 1 ? '1 step' : `${formatCount(t.stepCount)} steps`}</Badge>
            {t.exitStatus ? <Badge title="Exit status">{inert(t.exitStatus)}</Badge> : null}
            <span className="ml-1 text-zinc-400" title={t.createdAt}>
              imported {formatDateTime(t.createdAt)}
              {t.importedBy ? ` by ${t.importedBy}` : ''}
            </span>
          </div>
        </div>
        <dl className="flex shrink-0 gap-2">
          <div className={`rounded-lg px-4 py-2 text-center ring-1 ring-inset ${rewardTone(t.verifier.reward)}`}>
            <dt className="text-[10px] font-medium uppercase tracking-wide opacity-80">Verifier reward</dt>
            <dd className="font-mono text-2xl font-semibold tabular-nums" data-testid="verifier-reward">
              {formatReward(t.verifier.reward)}
            </dd>
          </div>
          {t.judgeScores.slice(0, 3).map((j, i) => (
            <div key={i} className="max-w-40 rounded-lg bg-white px-4 py-2 text-center ring-1 ring-inset ring-zinc-200">
              <dt className="truncate text-[10px] font-medium uppercase tracking-wide text-zinc-500" title={inert(j.judge)}>
                {inert(j.judge)}
              </dt>
              <dd className="font-mono text-2xl font-semibold tabular-nums text-zinc-800">
                {j.score !== null ? formatReward(j.score) : inert(j.label ?? '—')}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </header>
  );
}
