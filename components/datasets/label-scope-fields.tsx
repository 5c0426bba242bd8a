import { IntentLink } from '@/components/ui/intent-link';

/**
 * The fields a dataset export and a training sink share (which format, which campaign's labels,
 * how many reviews and how much agreement an item needs), and their error line, so the two
 * forms read the same and post the same names.
 */

export interface FormatOption {
  value: string;
  label: string;
}
export interface CampaignOption {
  id: string;
  name: string;
  mode: string;
}

export const fieldClass =
  'mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
export const labelClass = 'block text-xs font-medium uppercase tracking-wide text-zinc-500';

export function FormatAndCampaignFields({ formats, campaigns }: { formats: FormatOption[]; campaigns: CampaignOption[] }) {
  return (
    <>
      <label className="lg:col-span-2">
        <span className={labelClass}>Format</span>
        <select name="format" className={fieldClass} defaultValue="trl-dpo">
          {formats.map((f) => (
            <option key={f.value} value={f.value}>
              {f.value} — {f.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        <span className={labelClass}>Campaign</span>
        <select name="campaignId" className={fieldClass} defaultValue="">
          <option value="">All campaigns of the project</option>
          {campaigns.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name} ({c.mode})
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

export function ThresholdFields() {
  return (
    <>
      <label>
        <span className={labelClass}>Min reviews per item</span>
        <input name="minReviews" type="number" min={0} max={100} step={1} defaultValue={1} className={fieldClass} />
      </label>
      <label>
        <span className={labelClass}>Min agreement (0..1)</span>
        <input name="minAgreement" type="number" min={0} max={1} step={0.05} defaultValue={0} className={fieldClass} />
      </label>
    </>
  );
}

export function FormError({ error }: { error: string | null }) {
  return error ? (
    <p
      role="alert"
      className="mt-3 whitespace-pre-wrap break-words rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
    >
      <LinkedText text={error} />
    </p>
  ) : null;
}

/** A studio path in a message (a refusal's "see them at /trajectories?…&split=eval"), as a link to it. */
const STUDIO_PATH = /(\/trajectories\?[^\s;,]+)/;

/** A message with its studio paths as links (the rest as text). */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {text.split(STUDIO_PATH).map((part, i) =>
        i % 2 === 1 ? (
          <IntentLink key={i} href={part} className="font-medium underline hover:text-red-950">
            {part.includes('split=eval') ? 'the eval-split trajectories' : part}
          </IntentLink>
        ) : (
          part
        ),
      )}
    </>
  );
}
