'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition, type ReactNode } from 'react';
import type { RubricDefinition } from '@/lib/review/rubric';
import type { ActionResult } from '@/lib/action-result';
import { RichText } from '@/render/ui/rich-text';
import { PendingButton } from '@/components/ui/pending-button';
import { ErrorLine } from '@/components/ui/error-line';
import { Options } from '@/components/ui/options';

// max-w-full and min-w-0: a select as wide as its longest choice stays inside its card (it is cut, its choices are not)
const input = 'min-w-0 max-w-full rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm focus:border-indigo-500 focus:outline-none';

/** A select of a question's choices whose empty choice leaves the answer not settled. */
function UnsettledSelect({
  value,
  onChange,
  options,
  ...attrs
}: {
  id?: string;
  'aria-label'?: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <select {...attrs} className={`${input} shrink-0`} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">not settled</option>
      <Options options={options} />
    </select>
  );
}

const VERDICTS = [
  { value: 'pass', label: 'pass' },
  { value: 'fail', label: 'fail' },
] as const;

/** One question on one row: its prompt, then its field (`id`). */
function QuestionRow({ id, prompt, children }: { id: string; prompt: string; children: ReactNode }) {
  return (
    <label htmlFor={id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-sm">
      <span className="min-w-0 flex-1 basis-40 text-zinc-800">{prompt}</span>
      {children}
    </label>
  );
}

/**
 * The lead's final label. Single mode: one field per rubric question (prefilled with the
 * reviewers' majority; leave a field empty to not settle it); pairwise: the final preference.
 * Always a rationale. Saving again makes a new revision (earlier ones kept); when another lead
 * saved meanwhile, the save is refused with a message to reload.
 */
export function AdjudicationForm({
  campaignId,
  itemId,
  mode,
  rubric,
  criteria,
  initial,
  basedOnRevision,
  save,
}: {
  campaignId: string;
  itemId: string;
  mode: 'single' | 'pairwise';
  rubric: RubricDefinition;
  criteria: { key: string; text: string }[];
  initial: { answers: Record<string, unknown>; preference: number | null; bothBad: boolean };
  /** the current decision's revision the lead sees (null: none yet); a save from a stale page is refused */
  basedOnRevision: number | null;
  save: (input: unknown) => Promise<ActionResult<{ id: string; revision: number }>>;
}) {
  const router = useRouter();
  const [answers, setAnswers] = useState<Record<string, unknown>>(initial.answers);
  const [preference, setPreference] = useState<string>(initial.preference === null ? '' : String(initial.preference));
  const [bothBad, setBothBad] = useState(initial.bothBad);
  const [rationale, setRationale] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const set = (id: string, value: unknown) => setAnswers((a) => ({ ...a, [id]: value }));
  /** a number answer as its field shows it, and a field's text as the answer ('' leaves it not settled) */
  const numberText = (id: string) => (answers[id] === undefined ? '' : String(answers[id]));
  const setNumber = (id: string, text: string) => set(id, text === '' ? undefined : Number(text));

  return (
    <form
      aria-label="Final label"
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        setNotice(null);
        const cleaned = Object.fromEntries(
          Object.entries(answers).filter(
            ([, v]) =>
              v !== '' &&
              v !== undefined &&
              v !== null &&
              !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0),
          ),
        );
        start(async () => {
          const result = await save({
            campaignId,
            itemId,
            answers: cleaned,
            preference: preference === '' ? null : Number(preference),
            bothBad,
            rationale,
            basedOnRevision,
          });
          if (!result.ok) {
            setError(result.error.message);
            return;
          }
          setNotice(`Final label saved (revision ${result.data.revision}).`);
          setRationale('');
          router.refresh();
        });
      }}
    >
      {mode === 'pairwise' ? (
        <div className="space-y-2">
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium text-zinc-800">Final preference</span>
            <select className={input} value={preference} onChange={(e) => setPreference(e.target.value)} aria-label="Final preference">
              <option value="">choose…</option>
              <option value="-2">A much better</option>
              <option value="-1">A better</option>
              <option value="0">Equal</option>
              <option value="1">B better</option>
              <option value="2">B much better</option>
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={bothBad} onChange={(e) => setBothBad(e.target.checked)} /> Both bad
          </label>
        </div>
      ) : (
        rubric.questions.map((q) => {
          const id = `final-${q.id}`;
          switch (q.type) {
            case 'likert':
              return (
                <QuestionRow key={q.id} id={id} prompt={q.prompt}>
                  <UnsettledSelect
                    id={id}
                    value={numberText(q.id)}
                    onChange={(v) => setNumber(q.id, v)}
                    options={Array.from({ length: q.points }, (_, i) => String(i + 1)).map((p) => ({
                      value: p,
                      label: q.anchors[p] ? `${p} · ${q.anchors[p]}` : p,
                    }))}
                  />
                </QuestionRow>
              );
            case 'single':
              return (
                <QuestionRow key={q.id} id={id} prompt={q.prompt}>
                  <UnsettledSelect
                    id={id}
                    value={(answers[q.id] as string | undefined) ?? ''}
                    onChange={(v) => set(q.id, v === '' ? undefined : v)}
                    options={q.options}
                  />
                </QuestionRow>
              );
            case 'number':
              return (
                <QuestionRow key={q.id} id={id} prompt={q.prompt}>
                  <input
                    id={id}
                    type="number"
                    className={`${input} w-28`}
                    value={numberText(q.id)}
                    onChange={(e) => setNumber(q.id, e.target.value)}
                  />
                </QuestionRow>
              );
            case 'multi': {
              const chosen = Array.isArray(answers[q.id]) ? (answers[q.id] as string[]) : [];
              return (
                <fieldset key={q.id} className="min-w-0 text-sm">
                  <legend className="text-zinc-800">{q.prompt}</legend>
                  <div className="mt-1 flex flex-wrap gap-3">
                    {q.options.map((o) => (
                      <label key={o.value} className="flex items-center gap-1.5">
                        <input
                          type="checkbox"
                          checked={chosen.includes(o.value)}
                          onChange={(e) => set(q.id, e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))}
                        />
                        {o.label}
                      </label>
                    ))}
                  </div>
                </fieldset>
              );
            }
            case 'criteria': {
              const verdicts = (answers[q.id] as Record<string, string> | undefined) ?? {};
              return (
                // min-w-0: a fieldset is at least as wide as its content by default, pushing the selects past the card
                <fieldset key={q.id} className="min-w-0 text-sm">
                  <legend className="text-zinc-800">{q.prompt}</legend>
                  <div className="mt-1 space-y-1">
                    {criteria.map((c) => (
                      <label key={c.key} className="flex items-center justify-between gap-3">
                        <span className="min-w-0 truncate text-zinc-700" title={c.text}>
                          <RichText text={c.text} inline />
                        </span>
                        <UnsettledSelect
                          aria-label={`Final verdict: ${c.text}`}
                          value={verdicts[c.key] ?? ''}
                          onChange={(v) => {
                            const next = { ...verdicts };
                            if (v === '') delete next[c.key];
                            else next[c.key] = v;
                            set(q.id, next);
                          }}
                          options={VERDICTS}
                        />
                      </label>
                    ))}
                  </div>
                </fieldset>
              );
            }
            case 'text':
              return (
                <label key={q.id} className="flex flex-col gap-1 text-sm">
                  <span className="text-zinc-800">{q.prompt}</span>
                  <textarea
                    className={input}
                    rows={2}
                    value={(answers[q.id] as string | undefined) ?? ''}
                    onChange={(e) => set(q.id, e.target.value)}
                  />
                </label>
              );
          }
        })
      )}
      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium text-zinc-800">Rationale</span>
        <textarea
          className={input}
          rows={3}
          required
          value={rationale}
          onChange={(e) => setRationale(e.target.value)}
          placeholder="Why this is the right label (kept with the decision)"
        />
      </label>
      <div className="flex items-center gap-3">
        <PendingButton
          pending={pending}
          label="Record final label"
          pendingLabel="Saving…"
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm hover:bg-indigo-700 disabled:opacity-60"
        />
        <ErrorLine error={error} className="text-sm text-rose-700" />
        {notice ? (
          <p role="status" className="text-sm text-emerald-700">
            {notice}
          </p>
        ) : null}
      </div>
    </form>
  );
}
