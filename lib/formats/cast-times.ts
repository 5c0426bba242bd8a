import type { CastHeader } from './asciinema';
import { unixFromIso } from './item';
import type { Step, TerminalRecording } from './trajectory';

/**
 * A trial's steps linked to its terminal recording (Harbor trials, Terminal-Bench episodes).
 *
 * castTime: when the cast header has a `timestamp` and steps have timestamps, castTime =
 * step time - cast start (steps more than 1 s before the start get null). Otherwise, when the
 * cast has markers (`m` events), the i-th marker's time goes to the i-th agent step.
 */

const MICRO = 1_000_000;

/** Links steps to the recording (see the module comment); returns how it linked. */
export function linkCastTimes(steps: Step[], header: CastHeader, recording: TerminalRecording): 'timestamps' | 'markers' | null {
  if (header.timestamp !== null && steps.some((s) => s.timestamp !== null)) {
    let linked = false;
    for (const step of steps) {
      const at = unixFromIso(step.timestamp);
      if (at === null) continue;
      const t = at - (header.timestamp as number);
      if (t < -1) continue;
      step.castTime = Math.max(0, Math.round(t * MICRO) / MICRO);
      linked = true;
    }
    if (linked) return 'timestamps';
  }
  const markers = recording.events.filter((e) => e[1] === 'm');
  const agentSteps = steps.filter((s) => s.source === 'agent');
  if (markers.length === 0 || agentSteps.length === 0) return null;
  agentSteps.forEach((step, i) => {
    const marker = markers[i];
    if (marker) step.castTime = marker[0];
  });
  return 'markers';
}
