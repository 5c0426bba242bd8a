'use client';

import { useEffect, useRef } from 'react';
import type { ActionResult } from '@/lib/action-result';
import type { CoverageReport } from '@/lib/review/coverage';
import type { SavedProgress } from '@/lib/review/save-review-progress';

/** how often the page saves coverage while it changes */
const SAVE_EVERY_MS = 10_000;

/**
 * Saves the reviewer's coverage to the server as they go (lib/review/save-review-progress.ts):
 * every 10 s while it changed, and at once when the tab is hidden or the page goes away, so a
 * reload or a crash costs at most the last few seconds. `reports`: each run's report, screen order.
 */
export function useProgressSaver(
  assignmentId: string,
  reports: () => CoverageReport[],
  save: ((input: unknown) => Promise<ActionResult<SavedProgress>>) | undefined,
  enabled: boolean,
) {
  const reportsRef = useRef(reports);
  const saveRef = useRef(save);
  useEffect(() => {
    reportsRef.current = reports;
    saveRef.current = save;
  }, [reports, save]);
  useEffect(() => {
    if (!enabled) return;
    let sent = '';
    let inFlight = false;
    const flush = () => {
      const send = saveRef.current;
      if (!send || inFlight) return;
      const runs = reportsRef.current();
      const body = JSON.stringify(runs);
      if (body === sent || runs.every((r) => r.ranges.length === 0 && r.transcriptSteps.length === 0)) return;
      inFlight = true;
      void send({ assignmentId, runs })
        .then((result) => {
          // a save the clock could not hold all of is sent again at the next tick (the time goes on)
          if (result.ok && result.data.dropped.steps === 0 && result.data.dropped.frames === 0) sent = body;
        })
        .catch(() => undefined)
        .finally(() => {
          inFlight = false;
        });
    };
    const timer = window.setInterval(flush, SAVE_EVERY_MS);
    const onHide = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', flush);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [assignmentId, enabled]);
}
