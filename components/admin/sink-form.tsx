'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';

type Result<T> = { ok: true; data: T } | { ok: false; error: { message: string; field?: string } };

const field = 'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
const label = 'block text-xs font-medium uppercase tracking-wide text-zinc-500';

export interface SinkFormProject {
  id: string;
  name: string;
  campaigns: Array<{ id: string; name: string; mode: string }>;
}

/** Adds a training sink: where (webhook / folder / S3), which format, which labels. */
export function SinkForm({
  projects,
  formats,
  createSink,
}: {
  projects: SinkFormProject[];
  formats: Array<{ value: string; label: string }>;
  createSink: (input: unknown) => Promise<Result<{ id: string; secret: string | null }>>;
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
          <span className={label}>Name</span>
          <input name="name" required maxLength={80} placeholder="gpu-trainer" className={field} />
        </label>
        <label>
          <span className={label}>Project</span>
          <select name="projectId" className={field} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={label}>Kind</span>
          <select name="kind" className={field} value={kind} onChange={(e) => setKind(e.target.value as typeof kind)}>
            <option value="webhook">HTTP webhook (signed NDJSON batches)</option>
            <option value="directory">Folder (shards + manifest.json)</option>
            <option value="s3">S3 prefix (shards + manifest.json)</option>
          </select>
        </label>
        {kind === 'webhook' ? (
          <>
            <label className="lg:col-span-2">
              <span className={label}>URL</span>
              <input name="url" type="url" required placeholder="https://trainer.example/witness" className={field} />
            </label>
            <label>
              <span className={label}>Secret (empty: generate one)</span>
              <input name="secret" type="password" minLength={16} autoComplete="off" className={field} />
            </label>
          </>
        ) : kind === 'directory' ? (
          <label className="lg:col-span-3">
            <span className={label}>Folder (absolute path on the worker machine)</span>
            <input name="path" required placeholder="/data/witness-labels" className={field} />
          </label>
        ) : (
          <>
            <label>
              <span className={label}>Bucket</span>
              <input name="bucket" required placeholder="trainer-data" className={field} />
            </label>
            <label className="lg:col-span-2">
              <span className={label}>Prefix</span>
              <input name="prefix" placeholder="witness/dpo" className={field} />
            </label>
          </>
        )}
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
          <span className={label}>Min reviews per item</span>
          <input name="minReviews" type="number" min={0} max={100} step={1} defaultValue={1} className={field} />
        </label>
        <label>
          <span className={label}>Min agreement (0..1)</span>
          <input name="minAgreement" type="number" min={0} max={1} step={0.05} defaultValue={0} className={field} />
        </label>
      </div>
      <div className="mt-4 flex items-center gap-3">
        <button type="submit" disabled={pending} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60">
          {pending ? 'Adding…' : 'Add sink'}
        </button>
        <span className="text-xs text-zinc-500">Only train-split labels are sent: eval tasks are measurement and never leave.</span>
      </div>
      {secret ? (
        <p role="status" className="mt-3 break-all rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Signing secret (shown once; the receiver verifies <code className="font-mono">Witness-Signature</code> with it): <code className="font-mono">{secret}</code>
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="mt-3 whitespace-pre-wrap break-words rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}
