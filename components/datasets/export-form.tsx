'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import {
  type CampaignOption,
  fieldClass,
  FormatAndCampaignFields,
  FormError,
  type FormatOption,
  labelClass,
  ThresholdFields,
} from './label-scope-fields';
import type { ActionResult } from '@/lib/action-result';

/** Defines a dataset export: format, campaign, split and thresholds. */
export function ExportForm({
  projectId,
  formats,
  campaigns,
  requestExport,
}: {
  projectId: string;
  formats: FormatOption[];
  campaigns: CampaignOption[];
  requestExport: (input: unknown) => Promise<ActionResult<{ id: string; joined: boolean }>>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState(false);
  const [pending, start] = useTransition();

  function submit(form: FormData) {
    setError(null);
    setJoined(false);
    const campaignId = String(form.get('campaignId') ?? '');
    const split = String(form.get('split') ?? '');
    start(async () => {
      const result = await requestExport({
        projectId,
        format: String(form.get('format')),
        campaignId: campaignId || undefined,
        split: split || undefined,
        minAgreement: Number(form.get('minAgreement')),
        minReviews: Number(form.get('minReviews')),
        scoreGap: Number(form.get('scoreGap')),
      });
      if (!result.ok) setError(result.error.message);
      else {
        // an identical export still queued was joined: the list shows that one, no new version
        setJoined(result.data.joined);
        router.refresh();
      }
    });
  }

  return (
    <form action={submit} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" aria-label="New dataset export">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <FormatAndCampaignFields formats={formats} campaigns={campaigns} />
        <label>
          <span className={labelClass}>Split</span>
          <select name="split" className={fieldClass} defaultValue="train">
            <option value="train">train — training data (eval tasks left out)</option>
            <option value="eval">eval — an evaluation set, never for training</option>
            <option value="">everything — refused if any eval task is in scope</option>
          </select>
        </label>
        <ThresholdFields />
        <label>
          <span className={labelClass}>Score gap for single-item pairs (0..1)</span>
          <input name="scoreGap" type="number" min={0} max={1} step={0.05} defaultValue={0.25} className={fieldClass} />
        </label>
      </div>
      <div className="mt-4 flex items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
        >
          {pending ? 'Queuing…' : 'Build dataset'}
        </button>
        <span className="text-xs text-zinc-500">Adjudicated labels come first; each version is immutable and content-addressed.</span>
      </div>
      {joined ? (
        <p role="status" className="mt-2 text-sm text-zinc-600">
          An identical export is already queued: this request joined it.
        </p>
      ) : null}
      <FormError error={error} />
    </form>
  );
}
