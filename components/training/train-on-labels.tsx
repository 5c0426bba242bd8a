import type { ActionResult } from '@/lib/action-result';
import { TrainForm } from './train-form';

/** "Train on these labels", folded until opened: the campaign and datasets pages' entry to a training run. */
export function TrainOnLabels(props: {
  projectId: string;
  campaignId?: string;
  /** a campaign select (the datasets page); absent with campaignId (the campaign page) */
  campaigns?: { id: string; name: string }[];
  recipes: { value: string; label: string }[];
  policies: string[];
  start: (input: unknown) => Promise<ActionResult<{ id: string }>>;
}) {
  return (
    <details className="group rounded-xl border border-zinc-200 bg-white shadow-sm" data-testid="train-on-labels">
      <summary className="cursor-pointer list-none px-5 py-3 text-sm font-semibold text-zinc-800 hover:bg-zinc-50">
        <span className="mr-1 inline-block text-zinc-400 transition-transform group-open:rotate-90">▸</span> Train on these labels
        <span className="ml-2 text-xs font-normal text-zinc-500">
          freeze the train split of {props.campaignId ? 'this campaign' : 'this project'}&apos;s labels and queue a run for a trainer agent
        </span>
      </summary>
      <div className="border-t border-zinc-100">
        <TrainForm {...props} />
      </div>
    </details>
  );
}
