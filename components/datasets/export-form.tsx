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
} from './label-scope-fields';
import { LabelScopeForm, useLabelScopeAction } from './label-scope-form';

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
  const [joined, setJoined] = useState(false);
  // an identical export still queued was joined: the list shows that one, no new version
  const { error, pending, run } = useLabelScopeAction<{ id: string; joined: boolean }>((data) => setJoined(data.joined));

  function submit(form: FormData) {
    setJoined(false);
    const campaignId = String(form.get('campaignId') ?? '');
    const split = String(form.get('split') ?? '');
    run(() =>
      requestExport({
        projectId,
        format: String(form.get('format')),
        campaignId: campaignId || undefined,
        split: split || undefined,
        minAgreement: Number(form.get('minAgreement')),
        minReviews: Number(form.get('minReviews')),
        scoreGap: Number(form.get('scoreGap')),
      }),
    );
  }

  return (
    <LabelScopeForm
      label="New dataset export"
      submit={submit}
      pending={pending}
      submitLabel="Build dataset"
      pendingLabel="Queuing…"
      note="Adjudicated labels come first; each version is immutable and content-addressed."
      error={error}
      fields={
        <>
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
        </>
      }
    >
      {joined ? (
        <p role="status" className="mt-2 text-sm text-zinc-600">
          An identical export is already queued: this request joined it.
        </p>
      ) : null}
    </LabelScopeForm>
  );
}
