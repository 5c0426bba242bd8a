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
} from '../datasets/label-scope-fields';
import type { ActionResult } from '@/lib/action-result';

export interface SinkFormProject {
  id: string;
  name: string;
  campaigns: CampaignOption[];
}

/** Adds a training sink: where (webhook / folder / S3), which format, which labels. */
export function SinkForm({
  projects,
  formats,
  createSink,
}: {
  projects: SinkFormProject[];
  formats: FormatOption[];
  createSink: (input: unknown) => Promise<ActionResult<{ id: string; secret: string | null }>>;
}) {
  const router = useRouter();
  const [kind, setKind] = useState<'webhook' | 'directory' | 's3'>('webhook');
  const [projectId, setProjectId] = useState(projects[0]?.id ?? '');
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const campaigns = projects.find((p) => p.id === projectId)?.campaigns ?? [];

  function submit(form: FormData) {
    setError(null);
    setSecret(null);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const num = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
    start(async () => {
      const result = await createSink({
        projectId,
        name: text('name') ?? '',
        kind,
        format: String(form.get('format')),
        url: text('url'),
        secret: text('secret'),
        path: text('path'),
        bucket: text('bucket'),
        prefix: text('prefix'),
        campaignId: text('campaignId'),
        minReviews: num('minReviews'),
        minAgreement: num('minAgreement'),
      });
      if (!result.ok) setError(result.error.message);
      else {
        setSecret(result.data.secret);
        router.refresh();
      }
    });
  }

  return (
    <form action={submit} className="rounded-xl border border-zinc-200 bg-white p-5 shadow-sm" aria-label="New training sink">
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <label>
          <span className={labelClass}>Name</span>
          <input name="name" required maxLength={80} placeholder="gpu-trainer" className={fieldClass} />
        </label>
        <label>
          <span className={labelClass}>Project</span>
          <select name="projectId" className={fieldClass} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelClass}>Kind</span>
          <select name="kind" className={fieldClass} value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
            <option value="webhook">HTTP webhook (signed NDJSON batches)</option>
            <option value="directory">Folder (shards + manifest.json)</option>
            <option value="s3">S3 prefix (shards + manifest.json)</option>
          </select>
        </label>
        {kind === 'webhook' ? (
          <>
            <label className="lg:col-span-2">
              <span className={labelClass}>URL</span>
              <input name="url" type="url" required placeholder="https://trainer.example/witness" className={fieldClass} />
            </label>
            <label>
              <span className={labelClass}>Secret (empty: generate one)</span>
              <input name="secret" type="password" minLength={16} autoComplete="off" className={fieldClass} />
            </label>
          </>
        ) : kind === 'directory' ? (
          <label className="lg:col-span-3">
            <span className={labelClass}>Folder under the sinks root (WITNESS_SINK_DIR_ROOT on the worker machine)</span>
            <input name="path" required placeholder="dpo-labels" className={fieldClass} />
          </label>
        ) : (
          <>
            <label>
              <span className={labelClass}>Bucket</span>
              <input name="bucket" required placeholder="trainer-data" className={fieldClass} />
            </label>
            <label className="lg:col-span-2">
              <span className={labelClass}>Prefix</span>
              <input name="prefix" placeholder="witness/dpo" className={fieldClass} />
            </label>
          </>
        )}
        <FormatAndCampaignFields formats={formats} campaigns={campaigns} />
        <ThresholdFields />
      </div>
      <div className="mt-4 flex items-center gap-3">
        <button
          type="submit"
          disabled={pending}
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
        >
          {pending ? 'Adding…' : 'Add sink'}
        </button>
        <span className="text-xs text-zinc-500">Only train-split labels are sent: eval tasks are measurement and never leave.</span>
      </div>
      {secret ? (
        <p role="status" className="mt-3 break-all rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Signing secret (shown once; the receiver verifies <code className="font-mono">Witness-Signature</code> with it):{' '}
          <code className="font-mono">{secret}</code>
        </p>
      ) : null}
      <FormError error={error} />
    </form>
  );
}
