'use client';

import type { ActionResult } from '@/lib/action-result';
import { SettingSwitch } from '@/components/ui/setting-switch';

/** Switches a project's "people may review the trajectories they uploaded" setting (off by default). */
export function SelfReviewToggle({
  projectId,
  slug,
  initial,
  save,
}: {
  projectId: string;
  slug: string;
  initial: boolean;
  save: (input: unknown) => Promise<ActionResult<{ allowSelfReview: boolean }>>;
}) {
  return (
    <SettingSwitch
      label={`Allow self-review in ${slug}`}
      testId={`self-review-${slug}`}
      initial={initial}
      save={async (next) => {
        const result = await save({ projectId, allowSelfReview: next });
        return result.ok ? { ok: true, data: result.data.allowSelfReview } : result;
      }}
    />
  );
}
