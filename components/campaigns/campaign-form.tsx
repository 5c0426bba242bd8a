'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState, useTransition, type ReactNode } from 'react';
import type { CampaignFormProject } from '@/lib/campaigns/queries/campaign-form-options';
import type { CampaignPreview } from '@/lib/campaigns/queries/campaign-preview';
import { stableStringify } from '@/lib/ingest/stable-json';
import type { ReviewPlan } from '@/lib/campaigns/review-plan';
import { templateFor, type RubricTemplate } from '@/lib/review/rubric-templates';
import { rubricIssues } from '@/lib/review/rubric-issues';
import { ReviewPlanPanel } from './review-plan-panel';
import { definitionFrom, draftFrom, RubricEditor, type DraftRubric } from './rubric-editor';
import type { ActionResult } from '@/lib/action-result';
import { PendingButton } from '@/components/ui/pending-button';

const input =
  'w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
/** a choice of "Start from" that is a template (lib/review/rubric-templates.ts), not a saved rubric version */
const TEMPLATE = 'template:';
const SPLITS = [
  ['train', 'Train'],
  ['eval', 'Eval'],
] as const;

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <section className="rounded-xl border border-zinc-200 bg-white shadow-sm">
      <div className="border-b border-zinc-100 px-4 py-2">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500">{title}</h2>
        {description ? <p className="mt-0.5 text-xs text-zinc-500">{description}</p> : null}
      </div>
      <div className="space-y-4 px-4 py-4">{children}</div>
    </section>
  );
}

function Field({ label, hint, error, children }: { label: string; hint?: string; error?: string[]; children: ReactNode }) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-zinc-700">{label}</span>
      <div className="mt-1">{children}</div>
      {hint ? <span className="mt-0.5 block text-xs text-zinc-500">{hint}</span> : null}
      {error?.length ? (
        <span className="mt-1 block text-xs text-rose-700" role="alert">
          {error.join('; ')}
        </span>
      ) : null}
    </label>
  );
}

/** A Field holding a select of `options` after a first choice, `any` (the empty value: no filter); its accessible name is the label. */
function FilterField({
  label,
  error,
  any,
  options,
  value,
  onChange,
}: {
  label: string;
  error?: string[];
  any: string;
  options: readonly (readonly [value: string, text: string])[];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <Field label={label} error={error}>
      <select className={input} value={value} onChange={(e) => onChange(e.target.value)} aria-label={label}>
        <option value="">{any}</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A Field holding one number input (the form keeps its text as typed); its accessible name is the label unless `ariaLabel` says otherwise. */
function NumberField({
  value,
  onChange,
  ariaLabel,
  min,
  max,
  step,
  ...field
}: {
  label: string;
  hint?: string;
  error?: string[];
  value: string;
  onChange: (value: string) => void;
  ariaLabel?: string;
  min?: number;
  max?: number;
  step?: 'any';
}) {
  return (
    <Field {...field}>
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        className={input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-label={ariaLabel ?? field.label}
      />
    </Field>
  );
}

const optionalNumber = (s: string) => (s.trim() === '' ? undefined : Number(s));

/**
 * The lead's create-campaign form: settings, trajectory filter with a live preview of what it
 * matches, and a rubric editor (reuse a rubric's latest version, or edit it: the server saves an
 * edited rubric as its next version). Rubric problems are checked here with the same zod schema
 * as the server and shown next to their fields; the server's answer (which names the field) too.
 */
export function CampaignForm({
  projects,
  templates,
  create,
  preview,
  plan,
  initial = {},
}: {
  projects: CampaignFormProject[];
  /** the filter to start from (the import page's "make a campaign from these": ?project=&environment=&policy=) */
  initial?: { project?: string; environment?: string; policy?: string };
  /** the rubric templates per domain, the standard one first (lib/review/rubric-templates.ts) */
  templates: RubricTemplate[];
  create: (input: unknown) => Promise<ActionResult<{ id: string; items: number; rubricVersionCreated: boolean }>>;
  preview: (input: unknown) => Promise<ActionResult<CampaignPreview>>;
  plan: (input: unknown) => Promise<ActionResult<(ReviewPlan & { secondsPerReview: number }) | null>>;
}) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [projectSlug, setProjectSlug] = useState(
    projects.find((p) => p.slug === initial.project)?.slug ?? projects.find((p) => p.trajectories > 0)?.slug ?? projects[0]?.slug ?? '',
  );
  const project = projects.find((p) => p.slug === projectSlug);
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'single' | 'pairwise'>('single');
  const [environment, setEnvironment] = useState(initial.environment ?? '');
  const [policy, setPolicy] = useState(initial.policy ?? '');
  const [split, setSplit] = useState('');
  const [minReward, setMinReward] = useState('');
  const [maxReward, setMaxReward] = useState('');
  const [overlap, setOverlap] = useState('3');
  const [expertise, setExpertise] = useState('');
  const [coverage, setCoverage] = useState('50');
  /** '' = the default: read when an expertise is required, else skim */
  const [pacing, setPacing] = useState<'' | 'read' | 'skim'>('');
  const [coverageBasis, setCoverageBasis] = useState<'video' | 'transcript' | 'either'>('either');
  const [readingWpm, setReadingWpm] = useState('230');
  const [tooFast, setTooFast] = useState<'flag' | 'refuse'>('flag');
  const [hidePolicy, setHidePolicy] = useState(true);
  const [hideReward, setHideReward] = useState(true);
  const [gold, setGold] = useState('');
  const [sampling, setSampling] = useState<'all' | 'random' | 'active'>('all');
  const [budgetValue, setBudgetValue] = useState('20');
  const [budgetUnit, setBudgetUnit] = useState<'items' | 'hours'>('items');
  const standard = templates[0]!;
  const templateOf = (choice: string) => templates.find((t) => `${TEMPLATE}${t.id}` === choice) ?? null;
  const [rubricChoice, setRubricChoice] = useState(project?.rubrics[0]?.versionId ?? `${TEMPLATE}${standard.id}`);
  const chosen = project?.rubrics.find((r) => r.versionId === rubricChoice) ?? null;
  const [rubricName, setRubricName] = useState(chosen?.name ?? templateOf(rubricChoice)?.name ?? standard.name);
  const [draft, setDraft] = useState<DraftRubric>(() =>
    draftFrom(chosen?.definition ?? templateOf(rubricChoice)?.definition ?? standard.definition),
  );
  const [errors, setErrors] = useState<Map<string, string[]>>(new Map());
  const [formError, setFormError] = useState<string | null>(null);
  const [previewed, setPreviewed] = useState<{ key: string; result: CampaignPreview | { error: string } } | null>(null);

  const filter = useMemo(() => {
    const f: Record<string, unknown> = {};
    if (environment) f.environment = environment;
    if (policy) f.policy = policy;
    if (split) f.split = split;
    if (optionalNumber(minReward) !== undefined) f.minReward = optionalNumber(minReward);
    if (optionalNumber(maxReward) !== undefined) f.maxReward = optionalNumber(maxReward);
    return f;
  }, [environment, policy, split, minReward, maxReward]);

  // live preview of what the filter selects (debounced; an answer for older settings is not shown)
  const previewKey = JSON.stringify([projectSlug, mode, filter]);
  const matches = previewed?.key === previewKey ? previewed.result : null;
  useEffect(() => {
    if (!projectSlug) return;
    let cancelled = false;
    const key = JSON.stringify([projectSlug, mode, filter]);
    const timer = setTimeout(async () => {
      const result = await preview({ project: projectSlug, mode, filter });
      if (!cancelled) setPreviewed({ key, result: result.ok ? result.data : { error: result.error.message } });
    }, 250);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [preview, projectSlug, mode, filter]);

  // the review planner: expected interval widths at the budget (debounced like the preview)
  const budgetNumber = Number(budgetValue);
  const budget = useMemo(
    () =>
      sampling === 'all' || !(budgetNumber > 0)
        ? undefined
        : budgetUnit === 'items'
          ? { items: Math.max(1, Math.round(budgetNumber)) }
          : { hours: budgetNumber },
    [sampling, budgetNumber, budgetUnit],
  );
  const planKey = JSON.stringify([projectSlug, mode, filter, overlap, budget ?? null]);
  const [planned, setPlanned] = useState<{
    key: string;
    result: (ReviewPlan & { secondsPerReview: number }) | null | { error: string };
  } | null>(null);
  const shownPlan = planned?.key === planKey ? planned.result : undefined;
  useEffect(() => {
    const kk = Number(overlap);
    if (!projectSlug || mode !== 'single' || !(kk >= 1)) return;
    let cancelled = false;
    const key = planKey;
    const timer = setTimeout(async () => {
      const result = await plan({ project: projectSlug, mode, filter, overlap: kk, ...(budget ? { budget } : {}) });
      if (!cancelled) setPlanned({ key, result: result.ok ? result.data : { error: result.error.message } });
    }, 300);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [plan, planKey, projectSlug, mode, filter, overlap, budget]);

  const pickProject = (slug: string) => {
    setProjectSlug(slug);
    setEnvironment('');
    setPolicy('');
    const first = projects.find((p) => p.slug === slug)?.rubrics[0];
    pickRubric(first?.versionId ?? `${TEMPLATE}${standard.id}`, slug);
  };
  const pickRubric = (choice: string, slug = projectSlug) => {
    setRubricChoice(choice);
    const r = projects.find((p) => p.slug === slug)?.rubrics.find((x) => x.versionId === choice);
    const template = templateOf(choice) ?? standard;
    setRubricName(r?.name ?? template.name);
    setDraft(draftFrom(r?.definition ?? template.definition));
    setErrors(new Map());
  };

  // a domain template that fits the campaign (its environment or required expertise) and is not what the rubric starts from
  const fitting = templateFor(
    templates,
    [environment, ...expertise.split(',')].filter((w) => w.trim() !== ''),
  );
  const suggested =
    fitting && rubricChoice !== `${TEMPLATE}${fitting.id}` && chosen?.name !== fitting.name && rubricName !== fitting.name ? fitting : null;

  const definition = definitionFrom(draft);
  const checked = rubricIssues(definition);
  const edited = chosen !== null && (!checked.ok || stableStringify(checked.rubric) !== stableStringify(chosen.definition));
  const k = Number(overlap);

  const errorAt = (field: string) => errors.get(field);

  const submit = () => {
    setFormError(null);
    const next = new Map<string, string[]>();
    const add = (field: string, message: string) => next.set(field, [...(next.get(field) ?? []), message]);
    if (!checked.ok) for (const issue of checked.issues) add(`rubric.definition${issue.path ? `.${issue.path}` : ''}`, issue.message);
    let goldItems: unknown = [];
    if (gold.trim() !== '') {
      try {
        goldItems = JSON.parse(gold);
      } catch (error) {
        add('gold', `not JSON: ${(error as Error).message}`);
      }
    }
    if (next.size > 0) {
      setErrors(next);
      setFormError('Fix the fields marked in red.');
      return;
    }
    setErrors(new Map());
    const rubric = chosen && !edited ? { versionId: chosen.versionId } : { name: rubricName, definition };
    start(async () => {
      const result = await create({
        project: projectSlug,
        name,
        mode,
        filter,
        overlap: k,
        requiredExpertise: expertise
          .split(/[,\s]+/)
          .map((s) => s.trim())
          .filter(Boolean),
        minCoverage: Number(coverage) / 100,
        ...(pacing ? { pacing } : {}),
        coverageBasis,
        readingWpm: Number(readingWpm),
        tooFast,
        blind: { hidePolicy, hideReward },
        gold: mode === 'single' ? goldItems : [],
        rubric,
        sampling: sampling === 'all' ? { mode: 'all' } : { mode: sampling, ...(budget ? { budget } : {}) },
      });
      if (result.ok) {
        router.push(`/lead/campaigns/${result.data.id}`);
        return;
      }
      const field = result.error.field;
      if (field) setErrors(new Map([[field, [result.error.message.replace(`${field}: `, '')]]]));
      setFormError(result.error.message);
    });
  };

  const rubricErrors = new Map(
    [...errors.entries()]
      .filter(([key]) => key.startsWith('rubric.definition'))
      .map(([key, v]) => [key.replace(/^rubric\.definition\.?/, ''), v]),
  );

  if (projects.length === 0) return null;
  return (
    <form
      className="space-y-6"
      aria-label="New campaign"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Section title="Campaign">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" error={errorAt('name')}>
            <input
              className={input}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. Checkpoint 3000: grade each run"
              aria-label="Name"
            />
          </Field>
          <Field label="Project" error={errorAt('project')}>
            <select className={input} value={projectSlug} onChange={(e) => pickProject(e.target.value)} aria-label="Project">
              {projects.map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name} ({p.trajectories} trajectories)
                </option>
              ))}
            </select>
          </Field>
        </div>
        <fieldset>
          <legend className="text-sm font-medium text-zinc-700">Mode</legend>
          <div className="mt-1 grid gap-2 sm:grid-cols-2">
            {(
              [
                ['single', 'Single item', 'Each run is graded on its own with the rubric.'],
                ['pairwise', 'Pairwise', 'Two runs of the same task from different policies, side by side.'],
              ] as const
            ).map(([value, label, hint]) => (
              <label
                key={value}
                className={`flex cursor-pointer gap-2 rounded-lg border p-3 text-sm ${mode === value ? 'border-indigo-400 bg-indigo-50/50' : 'border-zinc-200'}`}
              >
                <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} />
                <span>
                  <span className="font-medium text-zinc-800">{label}</span>
                  <span className="block text-xs text-zinc-500">{hint}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </Section>

      <Section title="Trajectories" description="Which runs become items. Leave a filter empty to include everything.">
        <div className="grid gap-4 sm:grid-cols-3">
          <FilterField
            label="Environment"
            error={errorAt('filter.environment')}
            any="Any environment"
            options={(project?.environments ?? []).map((e) => [e, e] as const)}
            value={environment}
            onChange={setEnvironment}
          />
          <FilterField
            label="Policy"
            error={errorAt('filter.policy')}
            any="Any policy"
            options={(project?.policies ?? []).map((p) => [p, p] as const)}
            value={policy}
            onChange={setPolicy}
          />
          <FilterField
            label="Split"
            error={errorAt('filter.split')}
            any="Train and eval"
            options={SPLITS}
            value={split}
            onChange={setSplit}
          />
          <NumberField label="Reward at least" error={errorAt('filter.minReward')} step="any" value={minReward} onChange={setMinReward} />
          <NumberField label="Reward at most" error={errorAt('filter.maxReward')} step="any" value={maxReward} onChange={setMaxReward} />
        </div>
        <p
          className={`rounded-md px-3 py-2 text-sm ${matches && 'items' in matches && matches.items === 0 ? 'bg-amber-50 text-amber-800' : 'bg-zinc-50 text-zinc-700'}`}
          role="status"
          data-testid="filter-preview"
        >
          {matches === null
            ? 'Counting matching trajectories…'
            : 'error' in matches
              ? matches.error
              : `Matches ${matches.trajectories} trajectories over ${matches.tasks} tasks` +
                (mode === 'pairwise' ? `: ${matches.pairs} same-task pairs of different policies` : '') +
                (matches.items > 0 && Number.isFinite(k) && k > 0
                  ? ` → ${matches.items} items, ${matches.items * k} reviews at k=${k}.`
                  : ' → no items: widen the filter.')}
        </p>
        {errorAt('filter') ? (
          <p className="text-xs text-rose-700" role="alert">
            {errorAt('filter')!.join('; ')}
          </p>
        ) : null}
      </Section>

      <Section
        title="What to review"
        description="Every item, or a budget: a random sample, or the items whose review tells the most. Each item's chance of being chosen is recorded, so the insight pages' estimates stay unbiased."
      >
        <fieldset className="flex flex-wrap gap-4 text-sm text-zinc-700" aria-label="What to review">
          {(
            [
              ['all', 'Every item'],
              ['random', 'A random sample'],
              ['active', 'Review where it tells the most'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2">
              <input type="radio" name="sampling" value={value} checked={sampling === value} onChange={() => setSampling(value)} /> {label}
            </label>
          ))}
        </fieldset>
        {sampling !== 'all' ? (
          <div className="grid gap-4 sm:grid-cols-3">
            <NumberField
              label="Review budget"
              hint={
                budgetUnit === 'hours' && shownPlan && !('error' in shownPlan)
                  ? `at about ${Math.round((shownPlan?.secondsPerReview ?? 180) / 60)} min a review`
                  : 'expected items to review'
              }
              error={[
                ...(errorAt('sampling.budget') ?? []),
                ...(errorAt('sampling.budget.items') ?? []),
                ...(errorAt('sampling.budget.hours') ?? []),
              ]}
              min={0}
              value={budgetValue}
              onChange={setBudgetValue}
            />
            <Field label="Budget in">
              <select
                className={input}
                value={budgetUnit}
                onChange={(e) => setBudgetUnit(e.target.value as 'items' | 'hours')}
                aria-label="Budget in"
              >
                <option value="items">items</option>
                <option value="hours">reviewer-hours</option>
              </select>
            </Field>
          </div>
        ) : null}
        {mode === 'single' ? (
          shownPlan === undefined ? (
            <p className="text-xs text-zinc-500">Planning…</p>
          ) : shownPlan === null ? null : 'error' in shownPlan ? (
            <p className="text-xs text-amber-800">{shownPlan.error}</p>
          ) : (
            <ReviewPlanPanel plan={shownPlan} k={Number(overlap) || 1} />
          )
        ) : (
          <p className="text-xs text-zinc-500">
            Pairwise: <i>where it tells the most</i> favours pairs of close-rated policies and pairs compared least so far.
          </p>
        )}
      </Section>

      <Section title="Reviewers" description="How many independent reviews each item gets, who may take it, and what they must see.">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <NumberField
            label="Overlap k"
            hint="independent reviewers per item"
            error={errorAt('overlap')}
            min={1}
            max={20}
            value={overlap}
            onChange={setOverlap}
          />
          <Field
            label="Required expertise"
            hint="tags, comma separated, e.g. physics"
            error={[
              ...(errorAt('requiredExpertise') ?? []),
              ...[...errors.entries()].filter(([f]) => f.startsWith('requiredExpertise.')).flatMap(([, m]) => m),
            ]}
          >
            <input
              className={input}
              value={expertise}
              onChange={(e) => setExpertise(e.target.value)}
              placeholder="anyone"
              aria-label="Required expertise"
            />
          </Field>
          <NumberField
            label="Minimum watch coverage (%)"
            hint="share seen before submit"
            error={errorAt('minCoverage')}
            min={0}
            max={100}
            value={coverage}
            onChange={setCoverage}
            ariaLabel="Minimum watch coverage"
          />
          <Field
            label="Video pacing"
            hint="read: every card held long enough to read at 1x; skim: a ~90 s overview"
            error={errorAt('pacing')}
          >
            <select
              className={input}
              value={pacing}
              onChange={(e) => setPacing(e.target.value as '' | 'read' | 'skim')}
              aria-label="Video pacing"
            >
              <option value="">{expertise.trim() ? 'read (expertise required)' : 'skim (no expertise required)'}</option>
              <option value="read">read</option>
              <option value="skim">skim</option>
            </select>
          </Field>
          <Field label="Coverage counts" hint="what meets the minimum" error={errorAt('coverageBasis')}>
            <select
              className={input}
              value={coverageBasis}
              onChange={(e) => setCoverageBasis(e.target.value as typeof coverageBasis)}
              aria-label="Coverage basis"
            >
              <option value="either">video watched or transcript read</option>
              <option value="video">video watched</option>
              <option value="transcript">transcript read</option>
            </select>
          </Field>
          <Field label="Reading speed" hint="words a minute a step's reading time is counted at" error={errorAt('readingWpm')}>
            <input
              className={input}
              type="number"
              min={60}
              max={1000}
              value={readingWpm}
              onChange={(e) => setReadingWpm(e.target.value)}
              aria-label="Reading speed (words a minute)"
            />
          </Field>
          <Field label="Too-fast reviews" hint="submitted faster than reading what they report takes" error={errorAt('tooFast')}>
            <select
              className={input}
              value={tooFast}
              onChange={(e) => setTooFast(e.target.value as 'flag' | 'refuse')}
              aria-label="Too-fast reviews"
            >
              <option value="flag">flag them for me</option>
              <option value="refuse">refuse them</option>
            </select>
          </Field>
        </div>
        <div className="flex flex-wrap gap-6 text-sm text-zinc-700">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={hidePolicy} onChange={(e) => setHidePolicy(e.target.checked)} /> Hide the policy from reviewers
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={hideReward} onChange={(e) => setHideReward(e.target.checked)} /> Hide the verifier reward from
            reviewers
          </label>
        </div>
      </Section>

      <Section
        title="Rubric"
        description="Reuse a rubric as it is, or edit it: an edited rubric is saved as its next version. Campaigns keep the version they were created with."
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Start from">
            <select className={input} value={rubricChoice} onChange={(e) => pickRubric(e.target.value)} aria-label="Start from">
              {project?.rubrics.map((r) => (
                <option key={r.versionId} value={r.versionId}>
                  {r.name} v{r.version} ({r.definition.questions.length} questions)
                </option>
              ))}
              {templates.map((t) => (
                <option key={t.id} value={`${TEMPLATE}${t.id}`}>
                  New rubric from a template: {t.label} ({t.definition.questions.length} questions)
                </option>
              ))}
            </select>
            {suggested ? (
              <button
                type="button"
                className="mt-1 text-left text-xs text-indigo-700 hover:underline"
                onClick={() => pickRubric(`${TEMPLATE}${suggested.id}`)}
                data-testid="rubric-suggestion"
              >
                This campaign reviews {suggested.fits[0]}: start from the {suggested.label} template (
                {suggested.definition.questions
                  .filter((q) => q.type === 'single')
                  .map((q) => q.id.replace(/_/g, ' '))
                  .join(', ')}
                )
              </button>
            ) : null}
          </Field>
          <Field
            label="Rubric name"
            hint={
              chosen
                ? edited
                  ? `Edited: saved as ${chosen.name === rubricName ? `${chosen.name} v${chosen.version + 1}` : `a new rubric "${rubricName}"`}`
                  : `Unchanged: uses ${chosen.name} v${chosen.version}`
                : 'Saved as a new rubric (or the next version of a rubric with this name)'
            }
            error={errorAt('rubric.name')}
          >
            <input
              className={input}
              value={rubricName}
              onChange={(e) => setRubricName(e.target.value)}
              aria-label="Rubric name"
              disabled={chosen !== null && !edited}
            />
          </Field>
        </div>
        <RubricEditor draft={draft} onChange={setDraft} errors={rubricErrors} />
      </Section>

      {mode === 'single' ? (
        <Section
          title="Gold items (optional)"
          description="Runs with known answers, mixed in unannounced; reviewers are scored against them."
        >
          <Field
            label="Gold items as JSON"
            hint={
              '[{"trajectoryId": "…", "answers": {"overall": 5, "flags": [], "criteria": {"tests_pass": "pass"}}}] — a subset of the rubric\'s question ids; trajectory ids from the Trajectories page.'
            }
            error={[
              ...(errorAt('gold') ?? []),
              ...[...errors.entries()].filter(([f]) => f.startsWith('gold.')).map(([f, m]) => `${f}: ${m.join('; ')}`),
            ]}
          >
            <textarea
              className={`${input} font-mono text-xs`}
              rows={3}
              value={gold}
              onChange={(e) => setGold(e.target.value)}
              aria-label="Gold items"
              placeholder="[]"
            />
          </Field>
        </Section>
      ) : null}

      <div className="flex items-center justify-end gap-3">
        {formError ? (
          <p className="text-sm text-rose-700" role="alert" data-testid="form-error">
            {formError}
          </p>
        ) : null}
        <PendingButton
          pending={pending}
          label="Create campaign"
          pendingLabel="Creating…"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-50"
        />
      </div>
    </form>
  );
}
