'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, useTransition } from 'react';
import type { SavedProgress } from '@/lib/review/save-review-progress';
import type { ActionResult } from '@/lib/action-result';
import type { EvidenceNote } from '@/lib/review/evidence';
import type { AssignmentView } from '@/lib/review/queries/assignment-view';
import type { PendingPin } from './evidence-notes';

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

/** A page's server actions: submit its answers (acknowledged with where to go next) and skip with a reason. */
export interface AssignmentActions<Saved> {
  submit: (input: unknown) => Promise<ActionResult<Saved & { next: Next }>>;
  skip: (input: unknown) => Promise<ActionResult<Next>>;
  /** keeps the coverage so far on the server (lib/review/save-review-progress.ts) */
  saveProgress?: (input: unknown) => Promise<ActionResult<SavedProgress>>;
}

/**
 * What the review and compare pages share around their answers: the error line, the pending
 * transition, whether the campaign is closed, the skip dialog and the shortcut list, the
 * evidence notes and the moment being pinned, how long the item has been open, and the submit:
 * sent with an idempotency key (made once per assignment and revision, kept in sessionStorage
 * across retries and reloads, dropped once the submit is acknowledged), then on to the next
 * item; or a skip with a reason.
 */
export function useAssignmentFlow<Saved>(input: {
  view: AssignmentView;
  revision: number;
  actions: AssignmentActions<Saved>;
  /** the notes of the reviewer's last revision */
  notes: EvidenceNote[];
  /** keep the notes in video order (one video); else in the order pinned */
  sortNotes: boolean;
}) {
  const { view, revision, actions, sortNotes } = input;
  const assignmentId = view.assignment.id;
  const campaignId = view.campaign.id;
  const router = useRouter();
  const key = useRef<string | null>(null);
  const storageKey = `witness:submit-key:${assignmentId}:${revision}`;

  const [notes, setNotes] = useState<EvidenceNote[]>(input.notes);
  const [pin, setPin] = useState<PendingPin | null>(null);
  const [help, setHelp] = useState(false);
  const [skipping, setSkipping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const closed = view.campaign.status !== 'open';

  // when the reviewer opened the item (set once mounted: render stays pure)
  const started = useRef(0);
  useEffect(() => {
    started.current = Date.now();
  }, []);
  const elapsedSec = useCallback(() => Math.round((Date.now() - started.current) / 1000), []);

  useEffect(() => {
    const stored = sessionStorage.getItem(storageKey);
    key.current = stored ?? newKey(assignmentId, revision);
    if (!stored) sessionStorage.setItem(storageKey, key.current);
  }, [storageKey, assignmentId, revision]);

  const submitKey = useCallback(() => key.current ?? newKey(assignmentId, revision), [assignmentId, revision]);

  /** sends the page's answers under this assignment, campaign and idempotency key; once acknowledged, forgets the key and opens what comes next */
  const send = useCallback(
    (answers: Record<string, unknown>) => {
      setError(null);
      start(async () => {
        const result = await actions.submit({ assignmentId, campaignId, idempotencyKey: submitKey(), ...answers });
        if (!result.ok) {
          setError(result.error.message);
          return;
        }
        sessionStorage.removeItem(storageKey);
        router.push(nextHref(result.data.next, campaignId));
      });
    },
    [actions, assignmentId, campaignId, submitKey, storageKey, router],
  );

  const skip = useCallback(
    (reason: string) =>
      start(async () => {
        const result = await actions.skip({ assignmentId, campaignId, reason });
        if (!result.ok) setError(result.error.message);
        else router.push(nextHref(result.data, campaignId));
      }),
    [actions, assignmentId, campaignId, router],
  );

  return {
    error,
    setError,
    pending,
    closed,
    elapsedSec,
    send,
    skip,
    /** Skip, while the item is still the reviewer's to skip */
    onSkip: view.assignment.status === 'claimed' ? () => setSkipping(true) : null,
    /** what useReviewShortcuts needs of the dialogs */
    dialogs: { skipping, help, setSkipping, setHelp },
    setPin,
    /** for EvidenceNotes (the page adds fps, onSeek and, pairwise, sideLabels) */
    evidence: {
      notes,
      pending: pin,
      onSave: (n: EvidenceNote) => {
        setNotes((list) => (sortNotes ? [...list, n].sort((a, b) => a.frame - b.frame) : [...list, n]));
        setPin(null);
      },
      onCancel: () => setPin(null),
      onRemove: (i: number) => setNotes((list) => list.filter((_, k) => k !== i)),
    },
  };
}

export type AssignmentFlow = ReturnType<typeof useAssignmentFlow>;
