'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, type TransitionStartFunction } from 'react';
import type { ActionResult } from '@/lib/action-result';

/** Where the server says to go after a submit or skip. */
export type Next = { href: string; resumed: boolean } | { href: null; message: string };

export const REVIEW_SPEEDS = [0.5, 1, 1.5, 2, 3, 4] as const;

/** Where to go after a submit or skip: the next item, or home with "nothing left". */
export function nextHref(next: Next, campaignId: string): string {
  return next.href ?? `/review?done=${encodeURIComponent(campaignId)}`;
}

function newKey(assignmentId: string, revision: number): string {
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
  return `${assignmentId}:r${revision}:${random}`;
}

/**
 * What the review and compare pages share around a submit: the idempotency key (made once per
 * assignment and revision, kept in sessionStorage across retries and reloads, dropped once the
 * submit is acknowledged), moving on to the next item, and skipping with a reason.
 */
export function useAssignmentFlow(input: {
  assignmentId: string;
  campaignId: string;
  revision: number;
  skipAction: (input: unknown) => Promise<ActionResult<Next>>;
  start: TransitionStartFunction;
  setError: (message: string | null) => void;
}) {
  const { assignmentId, campaignId, revision, skipAction, start, setError } = input;
  const router = useRouter();
  const key = useRef<string | null>(null);
  const storageKey = `witness:submit-key:${assignmentId}:${revision}`;

  useEffect(() => {
    const stored = sessionStorage.getItem(storageKey);
    key.current = stored ?? newKey(assignmentId, revision);
    if (!stored) sessionStorage.setItem(storageKey, key.current);
  }, [storageKey, assignmentId, revision]);

  const submitKey = useCallback(() => key.current ?? newKey(assignmentId, revision), [assignmentId, revision]);

  /** the submit was acknowledged: forget its key and open what comes next */
  const submitted = useCallback(
    (next: Next) => {
      sessionStorage.removeItem(storageKey);
      router.push(nextHref(next, campaignId));
    },
    [storageKey, router, campaignId],
  );

  const skip = useCallback(
    (reason: string) =>
      start(async () => {
        const result = await skipAction({ assignmentId, campaignId, reason });
        if (!result.ok) setError(result.error.message);
        else router.push(nextHref(result.data, campaignId));
      }),
    [start, skipAction, assignmentId, campaignId, setError, router],
  );

  return { submitKey, submitted, skip };
}
