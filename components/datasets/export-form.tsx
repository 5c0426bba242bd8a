'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';

type Result<T> = { ok: true; data: T } | { ok: false; error: { message: string; field?: string } };

export interface FormatOption {
  value: string;
  label: string;
}
export interface CampaignOption {
  id: string;
  name: string;
  mode: string;
}

const field = 'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
const label = 'block text-xs font-medium uppercase tracking-wide text-zinc-500';

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
  requestExport: (input: unknown) => Promise<Result<{ id: string }>>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();

  function submit(form: FormData) {
    setError(null);
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
      else router.refresh();
    });
  }

  return (
    <form action={submit} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" aria-label="New dataset export">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <label className="lg:col-span-2">
          <span className={label}>Format</span>
          <select name="format" className={field} defaultValue="trl-dpo">
            {formats.map((f) => (
              <option key={f.value} value={f.value}>
                {f.value} — {f.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={label}>Campaign</span>
          <select name="campaignId" className={field} defaultValue="">
            <option value="">All campaigns of the project</option>
            {campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name} ({c.mode})
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={label}>Split</span>
          <select name="split" className={field} defaultValue="train">
            <option value="train">train — training data (eval tasks left out)</option>
            <option value="eval">eval — an evaluation set, never for training</option>
            <option value="">everything — refused if any eval task is in scope</option>
          </select>
        </label>
        <label>
          <span className={label}>Min agreement (0..1)</span>
          <input name="minAgreement" type="number" min={0} max={1} step={0.05} defaultValue={0} className={field} />
        </label>
        <label>
          <span className={label}>Min reviews per item</span>
          <input name="minReviews" type="number" min={0} max={100} step={1} defaultValue={1} className={field} />
        </label>
        <label>
          <span className={label}>Score gap for single-item pairs (0..1)</span>
          <input name="scoreGap" type="number" min={0} max={1} step={0.05} defaultValue={0.25} className={field} />
        </label>
      </div>
      <div className="mt-4 flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60">
          {pending ? 'Queuing…' : 'Build dataset'}
        </button>
        <span className="text-xs text-zinc-500">Adjudicated labels come first; each version is immutable and content-addressed.</span>
      </div>
      {error ? (
        <p role="alert" className="mt-3 whitespace-pre-wrap break-words rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}
