import type { ActionResult } from '@/lib/action-result';
import { PendingButton } from '@/components/ui/pending-button';

/** The end of the sign-in and invitation forms: the action's refusal (after a failed try), then the full-width submit button. */
export function SubmitWithError({
  state,
  pending,
  label,
  pendingLabel = label,
}: {
  state: ActionResult<null> | null;
  pending: boolean;
  label: string;
  pendingLabel?: string;
}) {
  return (
    <>
      {state?.ok === false ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.error.message}
        </p>
      ) : null}
      <PendingButton
        pending={pending}
        label={label}
        pendingLabel={pendingLabel}
        className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60"
      />
    </>
  );
}
