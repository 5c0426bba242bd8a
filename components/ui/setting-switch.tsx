'use client';

import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';

/**
 * A saved on/off setting: flips at once, saves through `save` (a server action's call with the
 * new value), shows the value the server kept, and flips back with the error when it refuses.
 */
export function SettingSwitch({
  label,
  initial,
  save,
  testId,
}: {
  /** the switch's accessible name */
  label: string;
  initial: boolean;
  save: (next: boolean) => Promise<ActionResult<boolean>>;
  testId?: string;
}) {
  const [on, setOn] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <label className="inline-flex items-center gap-2 text-sm" data-testid={testId}>
      <input
        type="checkbox"
        role="switch"
        aria-label={label}
        checked={on}
        disabled={pending}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          setOn(next);
          setError(null);
          start(async () => {
            const result = await save(next);
            if (result.ok) setOn(result.data);
            else {
              setOn(!next);
              setError(result.error.message);
            }
          });
        }}
        className="size-4 accent-indigo-600"
      />
      <span>{on ? 'On' : 'Off'}</span>
      {error ? <span className="text-xs text-red-700">{error}</span> : null}
    </label>
  );
}
