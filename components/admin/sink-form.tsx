'use client';

import { useState } from 'react';
import type { ActionResult } from '@/lib/action-result';
import {
  type CampaignOption,
  fieldClass,
  FormatAndCampaignFields,
  type FormatOption,
  labelClass,
  ThresholdFields,
} from '../datasets/label-scope-fields';
import { LabelScopeForm, useLabelScopeAction } from '../datasets/label-scope-form';
import { Options } from '@/components/ui/options';

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
  const [kind, setKind] = useState<'webhook' | 'directory' | 's3'>('webhook');
  const [projectId, setProjectId] = useState(projects[0]?.id ?? '');
  const [secret, setSecret] = useState<string | null>(null);
  const { error, pending, run } = useLabelScopeAction<{ id: string; secret: string | null }>((data) => setSecret(data.secret));
  const campaigns = projects.find((p) => p.id === projectId)?.campaigns ?? [];

  function submit(form: FormData) {
    setSecret(null);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
    const num = (name: string) => (text(name) === undefined ? undefined : Number(text(name)));
    run(() =>
      createSink({
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
      }),
    );
  }

  return (
    <LabelScopeForm
      label="New training sink"
      submit={submit}
      pending={pending}
      submitLabel="Add sink"
      pendingLabel="Adding…"
      note="Only train-split labels are sent: eval tasks are measurement and never leave."
      error={error}
      fields={
        <>
          <label>
            <span className={labelClass}>Name</span>
            <input name="name" required maxLength={80} placeholder="gpu-trainer" className={fieldClass} />
          </label>
          <label>
            <span className={labelClass}>Project</span>
            <select name="projectId" className={fieldClass} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
              <Options options={projects.map((p) => ({ value: p.id, label: p.name }))} />
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
        </>
      }
    >
      {secret ? (
        <p role="status" className="mt-3 break-all rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          Signing secret (shown once; the receiver verifies <code className="font-mono">Witness-Signature</code> with it):{' '}
          <code className="font-mono">{secret}</code>
        </p>
      ) : null}
    </LabelScopeForm>
  );
}
