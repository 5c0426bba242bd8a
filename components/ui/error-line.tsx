/** A refusal or failure under a form or button, read out as it appears (`role="alert"`); nothing when there is none. */
export function ErrorLine({ error, className = 'text-sm text-red-700' }: { error: string | null; className?: string }) {
  return error ? (
    <p role="alert" className={className}>
      {error}
    </p>
  ) : null;
}
