'use client';

import type { RubricDefinition, RubricQuestion } from '@/lib/review/rubric';
import { DeferredCriterionText } from '../ui/deferred-text';

export type Answers = Record<string, unknown>;

/** Empty answers for a rubric: flags (multi) start as "none", everything else unanswered. */
export function initialAnswers(rubric: RubricDefinition, previous: Answers | null): Answers {
  const out: Answers = {};
  for (const q of rubric.questions) {
    if (previous && previous[q.id] !== undefined) out[q.id] = previous[q.id];
    else if (q.type === 'multi') out[q.id] = [];
    else if (q.type === 'criteria') out[q.id] = {};
  }
  return out;
}

/** Drops what the server would refuse as "answered": empty optional text, unset numbers. */
export function cleanAnswers(rubric: RubricDefinition, answers: Answers): Answers {
  const out: Answers = {};
  for (const q of rubric.questions) {
    const v = answers[q.id];
    if (v === undefined || v === null) continue;
    if (q.type === 'text' && !q.required && typeof v === 'string' && v.trim() === '') continue;
    out[q.id] = v;
  }
  return out;
}

const chip = (on: boolean, tone: 'indigo' | 'emerald' | 'red' = 'indigo') =>
  `rounded-md border px-2 py-1 text-xs font-medium ${
    on
      ? tone === 'emerald'
        ? 'border-emerald-600 bg-emerald-600 text-white'
        : tone === 'red'
          ? 'border-red-600 bg-red-600 text-white'
          : 'border-indigo-600 bg-indigo-600 text-white'
      : 'border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50'
  }`;

/**
 * The campaign's rubric as a form: likert with anchors, pass/fail per acceptance criterion,
 * single and multiple choice, number, text; required questions are marked. The focused
 * question (keyboard target) is outlined; the page owns answers and focus.
 */
export function RubricForm({
  rubric,
  criteria,
  answers,
  onChange,
  focused,
  criterionCursor,
  onFocusQuestion,
  disabled,
}: {
  rubric: RubricDefinition;
  criteria: Array<{ key: string; text: string }>;
  answers: Answers;
  onChange: (id: string, value: unknown) => void;
  focused: number;
  criterionCursor: number;
  onFocusQuestion: (index: number) => void;
  disabled?: boolean;
}) {
  return (
    <ol className="space-y-3" aria-label="Rubric">
      {rubric.questions.map((q, i) => (
        <li
          key={q.id}
          data-question={q.id}
          data-focused={focused === i ? 'true' : undefined}
          onMouseDown={() => onFocusQuestion(i)}
          className={`rounded-lg border bg-white p-3 ${focused === i ? 'border-indigo-400 ring-2 ring-indigo-100' : 'border-zinc-200'}`}
        >
          <fieldset disabled={disabled}>
            <legend className="mb-2 text-sm font-medium text-zinc-900">
              <span className="mr-1 font-mono text-xs text-zinc-400">{i + 1}.</span>
              {q.prompt}
              {q.required ? (
                <span className="ml-1 text-red-600" title="required" aria-label="required">
                  *
                </span>
              ) : (
                <span className="ml-1 text-xs font-normal text-zinc-400">optional</span>
              )}
            </legend>
            {q.help ? <p className="-mt-1 mb-2 text-xs text-zinc-500">{q.help}</p> : null}
            <QuestionInput
              q={q}
              criteria={criteria}
              value={answers[q.id]}
              onChange={(v) => onChange(q.id, v)}
              cursor={focused === i ? criterionCursor : -1}
            />
          </fieldset>
        </li>
      ))}
    </ol>
  );
}

function QuestionInput({
  q,
  criteria,
  value,
  onChange,
  cursor,
}: {
  q: RubricQuestion;
  criteria: Array<{ key: string; text: string }>;
  value: unknown;
  onChange: (v: unknown) => void;
  cursor: number;
}) {
  switch (q.type) {
    case 'likert': {
      const points = Array.from({ length: q.points }, (_, k) => k + 1);
      return (
        <div>
          <div className="flex flex-wrap gap-1" role="radiogroup" aria-label={q.prompt}>
            {points.map((p) => (
              <button
                key={p}
                type="button"
                role="radio"
                aria-checked={value === p}
                className={`${chip(value === p)} min-w-8`}
                onClick={() => onChange(p)}
                title={q.anchors[String(p)] ?? undefined}
              >
                {p}
              </button>
            ))}
          </div>
          {Object.keys(q.anchors).length > 0 ? (
            <dl className="mt-1.5 flex flex-wrap gap-x-3 gap-y-0.5 text-[11px] text-zinc-500">
              {Object.entries(q.anchors)
                .sort(([a], [b]) => Number(a) - Number(b))
                .map(([k, label]) => (
                  <div key={k} className="flex gap-1">
                    <dt className="font-mono text-zinc-400">{k}</dt>
                    <dd>{label}</dd>
                  </div>
                ))}
            </dl>
          ) : null}
        </div>
      );
    }
    case 'criteria': {
      const v = (value ?? {}) as Record<string, string>;
      if (criteria.length === 0) return <p className="text-xs text-zinc-500">This task lists no acceptance criteria.</p>;
      return (
        <ul className="space-y-1.5">
          {criteria.map((c, k) => (
            <li
              key={c.key}
              className={`flex items-center gap-2 rounded px-1 py-0.5 ${cursor === k ? 'bg-indigo-50' : ''}`}
              data-criterion={c.key}
            >
              <DeferredCriterionText text={c.text} className="min-w-0 flex-1 text-xs text-zinc-800" />
              {(['pass', 'fail'] as const).map((verdict) => (
                <button
                  key={verdict}
                  type="button"
                  aria-pressed={v[c.key] === verdict}
                  aria-label={`${verdict === 'pass' ? 'Pass' : 'Fail'}: ${c.text}`}
                  className={chip(v[c.key] === verdict, verdict === 'pass' ? 'emerald' : 'red')}
                  onClick={() => onChange({ ...v, [c.key]: verdict })}
                >
                  {verdict}
                </button>
              ))}
            </li>
          ))}
        </ul>
      );
    }
    case 'single':
      return (
        <div className="flex flex-wrap gap-1" role="radiogroup" aria-label={q.prompt}>
          {q.options.map((o, k) => (
            <button
              key={o.value}
              type="button"
              role="radio"
              aria-checked={value === o.value}
              className={chip(value === o.value)}
              onClick={() => onChange(o.value)}
            >
              <span className="mr-1 font-mono opacity-60">{k + 1}</span>
              {o.label}
            </button>
          ))}
        </div>
      );
    case 'multi': {
      const v = Array.isArray(value) ? (value as string[]) : [];
      return (
        <div className="flex flex-wrap gap-1" role="group" aria-label={q.prompt}>
          {q.options.map((o, k) => {
            const on = v.includes(o.value);
            return (
              <button
                key={o.value}
                type="button"
                aria-pressed={on}
                className={chip(on, 'red')}
                onClick={() => onChange(on ? v.filter((x) => x !== o.value) : [...v, o.value])}
              >
                <span className="mr-1 font-mono opacity-60">{k + 1}</span>
                {o.label}
              </button>
            );
          })}
          {v.length === 0 ? <span className="self-center text-[11px] text-zinc-400">none</span> : null}
        </div>
      );
    }
    case 'number':
      return (
        <label className="flex items-center gap-2 text-xs text-zinc-600">
          <input
            type="number"
            aria-label={q.prompt}
            data-answer-input
            min={q.min}
            max={q.max}
            step="any"
            value={typeof value === 'number' ? value : ''}
            onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
            className="w-32 rounded border border-zinc-300 px-2 py-1 text-sm"
          />
          {q.unit ?? null}
          {q.min !== undefined || q.max !== undefined ? (
            <span className="text-zinc-400">
              {q.min ?? '…'} to {q.max ?? '…'}
            </span>
          ) : null}
        </label>
      );
    case 'text':
      return (
        <textarea
          aria-label={q.prompt}
          data-answer-input
          rows={3}
          maxLength={q.maxLength}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
          className="w-full rounded border border-zinc-300 px-2 py-1 text-sm"
        />
      );
  }
}
