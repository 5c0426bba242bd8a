'use client';

import { standardFlags, type RubricDefinition, type RubricQuestion } from '@/lib/review/rubric';

export type QuestionType = RubricQuestion['type'];

/** A question being edited: every type's fields, numbers possibly unset while typing. */
export interface DraftQuestion {
  key: number;
  id: string;
  type: QuestionType;
  prompt: string;
  help: string;
  required: boolean;
  points: number;
  anchors: Record<string, string>;
  options: { value: string; label: string }[];
  min: number | undefined;
  max: number | undefined;
  unit: string;
  maxLength: number;
}

export interface DraftRubric {
  title: string;
  instructions: string;
  questions: DraftQuestion[];
}

export const questionTypes: { type: QuestionType; label: string; hint: string }[] = [
  { type: 'likert', label: 'Likert scale', hint: '1..k with labelled anchors' },
  { type: 'criteria', label: 'Pass/fail per criterion', hint: "one pass/fail per acceptance criterion of the item's task" },
  { type: 'single', label: 'Single choice', hint: 'pick one option' },
  { type: 'multi', label: 'Multiple choice', hint: 'pick any, e.g. flags' },
  { type: 'number', label: 'Number', hint: 'with optional bounds and unit' },
  { type: 'text', label: 'Free text', hint: 'a comment or rationale' },
];

let nextKey = 1;

export function blankQuestion(type: QuestionType, taken: string[]): DraftQuestion {
  const base = { likert: 'rating', criteria: 'criteria', single: 'choice', multi: 'flags', number: 'number', text: 'comment' }[type];
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}_${n}`;
  return {
    key: nextKey++,
    id,
    type,
    prompt: '',
    help: '',
    required: type !== 'text',
    points: 5,
    anchors: {},
    options:
      type === 'multi'
        ? standardFlags.map((f) => ({ ...f }))
        : type === 'single'
          ? [
              { value: 'yes', label: 'Yes' },
              { value: 'no', label: 'No' },
            ]
          : [],
    min: undefined,
    max: undefined,
    unit: '',
    maxLength: 4000,
  };
}

export function draftFrom(definition: RubricDefinition): DraftRubric {
  return {
    title: definition.title,
    instructions: definition.instructions,
    questions: definition.questions.map((q) => {
      const d = blankQuestion(q.type, []);
      d.id = q.id;
      d.prompt = q.prompt;
      d.help = q.help ?? '';
      d.required = q.required;
      if (q.type === 'likert') {
        d.points = q.points;
        d.anchors = { ...q.anchors };
      }
      if (q.type === 'single' || q.type === 'multi') d.options = q.options.map((o) => ({ ...o }));
      if (q.type === 'number') {
        d.min = q.min;
        d.max = q.max;
        d.unit = q.unit ?? '';
      }
      if (q.type === 'text') d.maxLength = q.maxLength;
      return d;
    }),
  };
}

/** The definition the draft stands for (what the server validates with rubricDefinition). */
export function definitionFrom(draft: DraftRubric): unknown {
  return {
    title: draft.title,
    instructions: draft.instructions,
    questions: draft.questions.map((q) => {
      const base = { id: q.id, type: q.type, prompt: q.prompt, required: q.required, ...(q.help.trim() ? { help: q.help } : {}) };
      switch (q.type) {
        case 'likert':
          return {
            ...base,
            points: q.points,
            anchors: Object.fromEntries(Object.entries(q.anchors).filter(([k, v]) => v.trim() !== '' && Number(k) <= q.points)),
          };
        case 'single':
        case 'multi':
          return { ...base, options: q.options };
        case 'number':
          return {
            ...base,
            ...(q.min !== undefined ? { min: q.min } : {}),
            ...(q.max !== undefined ? { max: q.max } : {}),
            ...(q.unit.trim() ? { unit: q.unit } : {}),
          };
        case 'text':
          return { ...base, maxLength: q.maxLength };
        default:
          return base;
      }
    }),
  };
}

const box =
  'rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
const input = `${box} w-full`;
const smallButton = 'rounded border border-zinc-300 bg-white px-2 py-0.5 text-xs text-zinc-700 hover:bg-zinc-50 disabled:opacity-40';

function FieldError({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <p className="mt-1 text-xs text-rose-700" role="alert">
      {messages.join('; ')}
    </p>
  );
}

/**
 * Edits a rubric: title, instructions and questions of every type, each with a required toggle.
 * `errors` maps paths inside the definition (e.g. `questions.2.prompt`) to messages: each is
 * shown next to its field (or on its question when no field matches).
 */
export function RubricEditor({
  draft,
  onChange,
  errors,
}: {
  draft: DraftRubric;
  onChange: (d: DraftRubric) => void;
  errors: Map<string, string[]>;
}) {
  const at = (path: string) => errors.get(path) ?? [];
  const setQuestion = (i: number, patch: Partial<DraftQuestion>) =>
    onChange({ ...draft, questions: draft.questions.map((q, j) => (j === i ? { ...q, ...patch } : q)) });
  const move = (i: number, by: number) => {
    const qs = [...draft.questions];
    const [q] = qs.splice(i, 1);
    qs.splice(i + by, 0, q!);
    onChange({ ...draft, questions: qs });
  };
  const shown = new Set<string>();
  const field = (path: string) => {
    shown.add(path);
    return at(path);
  };
  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <label className="block text-sm">
          <span className="font-medium text-zinc-700">Rubric title</span>
          <input
            className={`${input} mt-1`}
            value={draft.title}
            onChange={(e) => onChange({ ...draft, title: e.target.value })}
            aria-label="Rubric title"
          />
          <FieldError messages={field('title')} />
        </label>
        <label className="block text-sm">
          <span className="font-medium text-zinc-700">Instructions for reviewers</span>
          <textarea
            className={`${input} mt-1`}
            rows={2}
            value={draft.instructions}
            onChange={(e) => onChange({ ...draft, instructions: e.target.value })}
          />
        </label>
      </div>
      <FieldError messages={[...field('questions'), ...field('')]} />
      <ol className="space-y-3">
        {draft.questions.map((q, i) => {
          const p = `questions.${i}`;
          const own = [...errors.entries()].filter(([k]) => k === p || k.startsWith(`${p}.`));
          const elements = (
            <li key={q.key} className="rounded-lg border border-zinc-200 bg-zinc-50/60 p-3" data-testid="rubric-question">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs text-zinc-400">{i + 1}.</span>
                <span className="rounded bg-white px-1.5 py-0.5 text-xs font-medium text-zinc-700 ring-1 ring-zinc-200">
                  {questionTypes.find((t) => t.type === q.type)?.label}
                </span>
                <label className="ml-auto flex items-center gap-1 text-xs text-zinc-700">
                  <input type="checkbox" checked={q.required} onChange={(e) => setQuestion(i, { required: e.target.checked })} /> required
                </label>
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => move(i, -1)}
                  disabled={i === 0}
                  aria-label={`Move question ${i + 1} up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={smallButton}
                  onClick={() => move(i, 1)}
                  disabled={i === draft.questions.length - 1}
                  aria-label={`Move question ${i + 1} down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className={`${smallButton} text-rose-700`}
                  onClick={() => onChange({ ...draft, questions: draft.questions.filter((_, j) => j !== i) })}
                  aria-label={`Remove question ${i + 1}`}
                >
                  Remove
                </button>
              </div>
              <div className="mt-2 grid gap-2 sm:grid-cols-[12rem_1fr]">
                <label className="block text-xs">
                  <span className="text-zinc-500">Id (snake_case)</span>
                  <input
                    className={`${input} mt-0.5 font-mono`}
                    value={q.id}
                    onChange={(e) => setQuestion(i, { id: e.target.value })}
                    aria-label={`Question ${i + 1} id`}
                  />
                  <FieldError messages={field(`${p}.id`)} />
                </label>
                <label className="block text-xs">
                  <span className="text-zinc-500">Prompt</span>
                  <input
                    className={`${input} mt-0.5`}
                    value={q.prompt}
                    onChange={(e) => setQuestion(i, { prompt: e.target.value })}
                    aria-label={`Question ${i + 1} prompt`}
                  />
                  <FieldError messages={field(`${p}.prompt`)} />
                </label>
              </div>
              {q.type === 'likert' ? (
                <div className="mt-2 space-y-2">
                  <label className="flex items-center gap-2 text-xs">
                    <span className="text-zinc-500">Points 1 to</span>
                    <input
                      type="number"
                      min={2}
                      max={10}
                      className={`${box} w-20`}
                      value={Number.isFinite(q.points) ? q.points : ''}
                      onChange={(e) => setQuestion(i, { points: e.target.valueAsNumber })}
                      aria-label={`Question ${i + 1} points`}
                    />
                  </label>
                  <FieldError messages={field(`${p}.points`)} />
                  <div className="grid gap-1.5 sm:grid-cols-5">
                    {Array.from({ length: Math.min(10, Math.max(0, Number.isFinite(q.points) ? q.points : 0)) }, (_, k) =>
                      String(k + 1),
                    ).map((point) => (
                      <label key={point} className="block text-xs">
                        <span className="text-zinc-500">Anchor {point}</span>
                        <input
                          className={`${input} mt-0.5`}
                          value={q.anchors[point] ?? ''}
                          placeholder="optional"
                          onChange={(e) => setQuestion(i, { anchors: { ...q.anchors, [point]: e.target.value } })}
                          aria-label={`Question ${i + 1} anchor ${point}`}
                        />
                      </label>
                    ))}
                  </div>
                </div>
              ) : null}
              {q.type === 'criteria' ? (
                <p className="mt-2 text-xs text-zinc-500">
                  Reviewers answer pass or fail for each acceptance criterion of the item&apos;s task.
                </p>
              ) : null}
              {q.type === 'single' || q.type === 'multi' ? (
                <div className="mt-2 space-y-1.5">
                  {q.options.map((o, k) => (
                    <div key={k} className="flex items-center gap-2">
                      <input
                        className={`${box} w-44 font-mono`}
                        value={o.value}
                        onChange={(e) =>
                          setQuestion(i, { options: q.options.map((x, j) => (j === k ? { ...x, value: e.target.value } : x)) })
                        }
                        aria-label={`Question ${i + 1} option ${k + 1} value`}
                      />
                      <input
                        className={input}
                        value={o.label}
                        onChange={(e) =>
                          setQuestion(i, { options: q.options.map((x, j) => (j === k ? { ...x, label: e.target.value } : x)) })
                        }
                        aria-label={`Question ${i + 1} option ${k + 1} label`}
                      />
                      <button
                        type="button"
                        className={smallButton}
                        onClick={() => setQuestion(i, { options: q.options.filter((_, j) => j !== k) })}
                        aria-label={`Remove option ${k + 1}`}
                      >
                        ×
                      </button>
                    </div>
                  ))}
                  <div className="flex gap-2">
                    <button
                      type="button"
                      className={smallButton}
                      onClick={() => setQuestion(i, { options: [...q.options, { value: `option_${q.options.length + 1}`, label: '' }] })}
                    >
                      Add option
                    </button>
                    {q.type === 'multi' ? (
                      <button
                        type="button"
                        className={smallButton}
                        onClick={() =>
                          setQuestion(i, {
                            options: [
                              ...q.options,
                              ...standardFlags.filter((f) => !q.options.some((o) => o.value === f.value)).map((f) => ({ ...f })),
                            ],
                          })
                        }
                      >
                        Add standard flags
                      </button>
                    ) : null}
                  </div>
                  <FieldError messages={field(`${p}.options`)} />
                </div>
              ) : null}
              {q.type === 'number' ? (
                <div className="mt-2 flex flex-wrap gap-3 text-xs">
                  {(['min', 'max'] as const).map((k) => (
                    <label key={k} className="flex items-center gap-1">
                      <span className="text-zinc-500">{k}</span>
                      <input
                        type="number"
                        className={`${box} w-24`}
                        value={q[k] ?? ''}
                        onChange={(e) => setQuestion(i, { [k]: e.target.value === '' ? undefined : e.target.valueAsNumber })}
                        aria-label={`Question ${i + 1} ${k}`}
                      />
                    </label>
                  ))}
                  <label className="flex items-center gap-1">
                    <span className="text-zinc-500">unit</span>
                    <input
                      className={`${box} w-24`}
                      value={q.unit}
                      onChange={(e) => setQuestion(i, { unit: e.target.value })}
                      aria-label={`Question ${i + 1} unit`}
                    />
                  </label>
                </div>
              ) : null}
              {q.type === 'text' ? (
                <label className="mt-2 flex items-center gap-2 text-xs">
                  <span className="text-zinc-500">Max length</span>
                  <input
                    type="number"
                    min={1}
                    className={`${box} w-28`}
                    value={Number.isFinite(q.maxLength) ? q.maxLength : ''}
                    onChange={(e) => setQuestion(i, { maxLength: e.target.valueAsNumber })}
                    aria-label={`Question ${i + 1} max length`}
                  />
                </label>
              ) : null}
              <FieldError
                messages={own.filter(([k]) => !shown.has(k)).map(([k, m]) => `${k.slice(p.length + 1) || 'question'}: ${m.join('; ')}`)}
              />
            </li>
          );
          return elements;
        })}
      </ol>
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-xs text-zinc-500">Add a question:</span>
        {questionTypes.map((t) => (
          <button
            key={t.type}
            type="button"
            title={t.hint}
            className={smallButton}
            onClick={() =>
              onChange({
                ...draft,
                questions: [
                  ...draft.questions,
                  blankQuestion(
                    t.type,
                    draft.questions.map((q) => q.id),
                  ),
                ],
              })
            }
          >
            + {t.label}
          </button>
        ))}
      </div>
    </div>
  );
}
