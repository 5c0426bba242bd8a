'use client';

import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import { ExpandableText } from '../trajectories/expandable-text';
import { inert } from '@/lib/rich-text/inert-text';
import { DeferredCriterionText } from '../ui/deferred-text';
import type { TaskTypeset } from './task-typeset';
import { TASK_INSTRUCTION_CHARS, TASK_INSTRUCTION_LINES } from './task-sizes';

/**
 * The task as the reviewer sees it: name, environment, instruction, acceptance criteria, and what
 * blind review hides. `strip`: a compact strip for the review pages' one-screen layout (the
 * instruction's first lines, and at lg the whole panel in at most `maxHeight`, scrolling inside).
 * `typeset`: its rich text as the page's server render typeset it (typesetTask, same `strip`).
 */
export function TaskPanel({
  view,
  strip = false,
  className = '',
  typeset,
}: {
  view: AssignmentView;
  strip?: boolean;
  className?: string;
  typeset?: TaskTypeset;
}) {
  const { task, campaign } = view;
  return (
    <section
      aria-labelledby="task-title"
      className={`rounded-xl border border-zinc-200 bg-white shadow-sm ${strip ? 'px-3 py-2 lg:overflow-y-auto' : 'px-4 py-3'} ${className}`}
      data-testid="task-panel"
    >
      <div className="flex flex-wrap items-baseline gap-2">
        <h1 id="task-title" className={`${strip ? 'text-base' : 'text-lg'} font-semibold tracking-tight text-zinc-900`}>
          {inert(task.name)}
        </h1>
        {task.environment ? (
          <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-600">{inert(task.environment)}</span>
        ) : null}
        <span className="ml-auto text-xs text-zinc-500">
          {campaign.name}
          {campaign.blind.hidePolicy || campaign.blind.hideReward ? (
            <span
              className="ml-2 rounded bg-zinc-900 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-white"
              title="Blind review: some facts are withheld so they cannot sway you"
            >
              blind:{' '}
              {[campaign.blind.hidePolicy ? 'policy' : null, campaign.blind.hideReward ? 'reward' : null].filter(Boolean).join(' + ')}{' '}
              hidden
            </span>
          ) : null}
        </span>
      </div>
      {task.instruction.trim() !== '' ? (
        <div className={`${strip ? 'mt-1' : 'mt-2'} border-l-2 border-indigo-200 pl-3`}>
          <ExpandableText
            text={task.instruction}
            maxLines={TASK_INSTRUCTION_LINES[strip ? 'strip' : 'full']}
            maxChars={TASK_INSTRUCTION_CHARS[strip ? 'strip' : 'full']}
            className="text-sm text-zinc-800"
            rich
            typeset={typeset?.instruction}
          />
        </div>
      ) : null}
      {task.criteria.length > 0 ? (
        <ul className={`${strip ? 'mt-1' : 'mt-2'} flex flex-wrap gap-1.5`} aria-label="Acceptance criteria">
          {task.criteria.map((c) => (
            <li key={c.key} className="rounded-md border border-zinc-200 bg-zinc-50 px-2 py-0.5 text-xs text-zinc-700">
              {typeset?.criteria[c.key] ?? <DeferredCriterionText text={c.text} />}
              {c.verdict !== null ? (
                <span className={`ml-1 font-semibold ${c.verdict ? 'text-emerald-700' : 'text-red-700'}`}>
                  {c.verdict ? 'verifier: pass' : 'verifier: fail'}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
