/** A form's submit button: disabled while its action runs (or when `disabled` says so), its label then the pending one. */
export function PendingButton({
  pending,
  label,
  pendingLabel = label,
  className,
  disabled = pending,
}: {
  pending: boolean;
  label: string;
  pendingLabel?: string;
  className: string;
  disabled?: boolean;
}) {
  return (
    <button type="submit" disabled={disabled} className={className}>
      {pending ? pendingLabel : label}
    </button>
  );
}
