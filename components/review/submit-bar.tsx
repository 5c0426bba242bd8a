/** The review and compare pages' submit button (its label says what still stands in the way) and Skip. */
export function SubmitBar({
  label,
  disabled,
  onSubmit,
  onSkip,
}: {
  label: string;
  disabled: boolean;
  onSubmit: () => void;
  onSkip: (() => void) | null;
}) {
  return (
    <div className="flex gap-2">
      <button
        type="button"
        onClick={onSubmit}
        disabled={disabled}
        className="flex-1 rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500 disabled:cursor-not-allowed disabled:bg-zinc-300 disabled:text-zinc-600"
      >
        {label}
      </button>
      {onSkip ? (
        <button type="button" onClick={onSkip} className="rounded-md border border-zinc-300 px-3 py-2 text-sm hover:bg-zinc-50">
          Skip
        </button>
      ) : null}
    </div>
  );
}
