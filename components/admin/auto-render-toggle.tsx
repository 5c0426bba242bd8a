'use client';

import { useState, useTransition } from 'react';
import type { ActionResult } from '@/lib/action-result';

/** Switches a project's "render a video after each import" setting. */
export function AutoRenderToggle({
  projectId,
  initial,
  save,
}: {
  projectId: string;
  initial: boolean;
  save: (input: unknown) => Promise<ActionResult<{ autoRender: boolean }>>;
}) {
  const [on, setOn] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <label className="inline-flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        role="switch"
        aria-label="Render videos after import"
        checked={on}
        disabled={pending}
        onChange={(event) => {
          const next = event.currentTarget.checked;
          setOn(next);
          setError(null);
          start(async () => {
            const result = await save({ projectId, autoRender: next });
            if (result.ok) setOn(result.data.autoRender);
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
