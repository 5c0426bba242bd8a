import { ErrorLine } from '../ui/error-line';
import type { AssignmentFlow } from './use-assignment-flow';

/**
 * The review and compare pages' error line, submit button and Skip. The button says what still
 * stands in the way: the campaign closed, a submit under way, `blocked` (e.g. coverage short),
 * else `ready`; it is disabled while any of them holds.
 */
export function SubmitBar({
  flow,
  blocked,
  ready,
  onSubmit,
}: {
  flow: AssignmentFlow;
  blocked: string | null;
  ready: string;
  onSubmit: () => void;
}) {
  const { error, closed, pending, onSkip } = flow;
  return (
    <>
      <ErrorLine error={error} />
      <div className="flex gap-2">
        <button
          type="button"
          onClick={onSubmit}
          disabled={pending || closed || blocked !== null}
          className="flex-1 rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600"
        >
          {closed ? 'Campaign closed' : pending ? 'Submitting…' : (blocked ?? ready)}
        </button>
        {onSkip ? (
          <button type="button" onClick={onSkip} className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-50">
            Skip
          </button>
        ) : null}
      </div>
    </>
  );
}
