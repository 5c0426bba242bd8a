'use client';

import { useRouter } from 'next/navigation';
import { useRef, useState, useTransition } from 'react';
import type { Criterion } from '@/lib/formats/trajectory';
import { ErrorLine } from '../ui/error-line';
import { CriteriaChecklist } from './criteria-checklist';
import type { ActionResult } from '@/lib/action-result';
import { PendingButton } from '@/components/ui/pending-button';

type Saved = { criteria: Criterion[]; updatedAt: string };
interface Draft {
  id: number;
  key?: string;
  text: string;
  origin: Criterion['origin'] | 'new';
}

/**
 * The checklist, with an editor for leads and admins: edit texts, add, remove, save. Existing
 * criteria keep their key (reviews refer to it); new ones are stored as `manual`.
 */
export function CriteriaEditor({
  taskId,
  criteria: initial,
  updatedAt: initialUpdatedAt,
  save,
}: {
  taskId: string;
  criteria: Criterion[];
  updatedAt: string;
  save: (input: unknown) => Promise<ActionResult<Saved>>;
}) {
  const router = useRouter();
  const [criteria, setCriteria] = useState(initial);
  const [updatedAt, setUpdatedAt] = useState(initialUpdatedAt);
  const [drafts, setDrafts] = useState<Draft[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const nextId = useRef(0);

  const begin = () => {
    setDrafts(criteria.map((c) => ({ id: nextId.current++, key: c.key, text: c.text, origin: c.origin })));
    setError(null);
    setNotice(null);
  };
  const update = (id: number, text: string) => setDrafts((d) => d?.map((x) => (x.id === id ? { ...x, text } : x)) ?? null);
  const remove = (id: number) => setDrafts((d) => d?.filter((x) => x.id !== id) ?? null);
  const add = () => setDrafts((d) => [...(d ?? []), { id: nextId.current++, text: '', origin: 'new' }]);

  if (!drafts) {
    return (
      <div>
        <CriteriaChecklist criteria={criteria} />
        <div className="mt-3 flex items-center gap-3">
          <button
            type="button"
            onClick={begin}
            className="rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 shadow-sm hover:bg-zinc-50"
          >
            Edit criteria
          </button>
          {notice ? (
            <p role="status" className="text-xs text-emerald-700">
              {notice}
            </p>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <form
      aria-label="Edit acceptance criteria"
      onSubmit={(event) => {
        event.preventDefault();
        const list = drafts.filter((d) => d.text.trim() !== '');
        start(async () => {
          const result = await save({
            taskId,
            expectedUpdatedAt: updatedAt,
            criteria: list.map((d) => (d.key ? { key: d.key, text: d.text } : { text: d.text })),
          });
          if (!result.ok) {
            setError(result.error.message);
            return;
          }
          setCriteria(result.data.criteria);
          setUpdatedAt(result.data.updatedAt);
          setDrafts(null);
          setError(null);
          setNotice('Criteria saved.');
          router.refresh();
        });
      }}
      className="space-y-2"
    >
      <ol className="space-y-2">
        {drafts.map((d, i) => (
          <li key={d.id} className="flex items-start gap-2">
            <span className="mt-1.5 w-5 shrink-0 text-right font-mono text-xs text-zinc-400">{i + 1}.</span>
            <div className="min-w-0 flex-1">
              <textarea
                autoFocus={i === 0 || d.origin === 'new'}
                aria-label={`Criterion ${i + 1}`}
                value={d.text}
                onChange={(e) => update(d.id, e.target.value)}
                rows={2}
                maxLength={2000}
                className="block w-full resize-y rounded-md border border-zinc-300 px-2 py-1 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
              />
              <span className="text-[11px] text-zinc-400">{d.origin === 'new' ? 'new · manual' : `${d.origin} · ${d.key}`}</span>
            </div>
            <button
              type="button"
              onClick={() => remove(d.id)}
              aria-label={`Remove criterion ${i + 1}`}
              className="mt-1 rounded px-1.5 text-sm text-zinc-400 hover:bg-rose-50 hover:text-rose-700"
            >
              ✕
            </button>
          </li>
        ))}
      </ol>
      <button type="button" onClick={add} className="text-xs font-medium text-indigo-700 hover:underline">
        + Add criterion
      </button>
      <ErrorLine error={error} className="text-xs text-rose-700" />
      <div className="flex items-center gap-2 pt-1">
        <PendingButton
          pending={pending}
          label="Save criteria"
          pendingLabel="Saving…"
          className="rounded-md bg-indigo-600 px-3 py-1 text-xs font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
        />
        <button type="button" onClick={() => setDrafts(null)} className="rounded-md px-3 py-1 text-xs text-zinc-600 hover:bg-zinc-100">
          Cancel
        </button>
      </div>
    </form>
  );
}
