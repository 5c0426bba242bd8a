'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';
import { fieldClass, FormError, labelClass } from '@/components/datasets/label-scope-fields';
import { PendingButton } from '@/components/ui/pending-button';

/**
 * "Train on these labels": a recipe (dataset format), a base policy of the project, its model URI,
 * a minimum agreement and the agent labels that route the run; the server action freezes the
 * train-split label set of the scope and queues the run, and the page moves to the run. A refusal
 * (0 rows, eval items in scope) is shown here.
 */
export function TrainForm({
  projectId,
  campaignId,
  campaigns,
  recipes,
  policies,
  start,
}: {
  projectId: string;
  campaignId?: string;
  /** a campaign select (the datasets page); absent with campaignId (the campaign page) */
  campaigns?: { id: string; name: string }[];
  recipes: { value: string; label: string }[];
  policies: string[];
  start: (input: unknown) => Promise<ActionResult<{ id: string }>>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, begin] = useTransition();

  function submit(form: FormData) {
    setError(null);
    const minAgreement = String(form.get('minAgreement') ?? '');
    begin(async () => {
      const result = await start({
        projectId,
        campaignId: campaignId ?? (String(form.get('campaignId') ?? '') || undefined),
        recipe: String(form.get('recipe')),
        base: String(form.get('base') ?? ''),
        baseUri: String(form.get('baseUri') ?? ''),
        minAgreement: minAgreement === '' ? undefined : Number(minAgreement),
        labels: String(form.get('labels') ?? ''),
      });
      if (!result.ok) setError(result.error.message);
      else router.push(`/training/runs/${result.data.id}`);
    });
  }

  return (
    <form
      // onSubmit, not a form action: React resets a form after its action, and a refused start must keep what was chosen
      onSubmit={(event) => {
        event.preventDefault();
        submit(new FormData(event.currentTarget));
      }}
      className="p-5"
      aria-label="Train on these labels"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <label>
          <span className={labelClass}>Recipe</span>
          <select name="recipe" className={fieldClass} defaultValue="trl-dpo">
            {recipes.map((r) => (
              <option key={r.value} value={r.value}>
                {r.value} — {r.label}
              </option>
            ))}
          </select>
        </label>
        {campaigns ? (
          <label>
            <span className={labelClass}>Labels of</span>
            <select name="campaignId" className={fieldClass} defaultValue="">
              <option value="">All campaigns of the project</option>
              {campaigns.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          <span className={labelClass}>Base policy</span>
          <select name="base" className={fieldClass} defaultValue={policies[0] ?? ''} required>
            {policies.length === 0 ? <option value="">No policies yet: import trajectories</option> : null}
            {policies.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelClass}>Base model URI (optional)</span>
          <input name="baseUri" type="text" placeholder="hf://org/model or /models/base" className={fieldClass} />
        </label>
        <label>
          <span className={labelClass}>Min agreement (0..1)</span>
          <input name="minAgreement" type="number" min={0} max={1} step={0.05} defaultValue={0} className={fieldClass} />
        </label>
        <label className="lg:col-span-2">
          <span className={labelClass}>Agent labels (k=v, comma-separated)</span>
          <input name="labels" type="text" placeholder="gpu=a100" className={fieldClass} />
        </label>
      </div>
      <div className="mt-4 flex items-center gap-3">
        <PendingButton
          pending={pending}
          label="Train on these labels"
          pendingLabel="Freezing the label set…"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
        />
        <span className="text-xs text-zinc-500">
          The train split of {campaignId ? 'this campaign' : 'the project'} is frozen now (eval tasks never go in); a trainer agent claims
          the run.
        </span>
      </div>
      <FormError error={error} />
    </form>
  );
}
