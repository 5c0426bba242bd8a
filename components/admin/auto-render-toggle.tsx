'use client';

import type { ActionResult } from '@/lib/action-result';
import { SettingSwitch } from '@/components/ui/setting-switch';

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
  return (
    <SettingSwitch
      label="Render videos after import"
      initial={initial}
      save={async (next) => {
        const result = await save({ projectId, autoRender: next });
        return result.ok ? { ok: true, data: result.data.autoRender } : result;
      }}
    />
  );
}
