/** Display helpers shared by the trajectory pages (pure). */

export function formatReward(value: number | null): string {
  if (value === null) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, '').replace(/\.$/, '');
}

/** `2025-01-31 14:05 UTC` (server and browser agree: always UTC). */
export function formatDateTime(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatTime(iso: string): string {
  return iso.slice(11, 19);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A step as people count it, the first step being step 1, as the video's cards ("Step 2 of 4")
 * and the transcript pager ("Steps 1–50") count them; indexes stay 0-based in data, anchors
 * (`#step-N`), URLs and the API.
 */
export function stepNumber(index: number): number {
  return index + 1;
}

/** Tailwind classes for a reward: full marks green, partial amber, zero or less red. */
export function rewardTone(value: number | null): string {
  if (value === null) return 'bg-zinc-100 text-zinc-500 ring-zinc-200';
  if (value >= 1) return 'bg-emerald-50 text-emerald-800 ring-emerald-200';
  if (value > 0) return 'bg-amber-50 text-amber-800 ring-amber-200';
  return 'bg-rose-50 text-rose-800 ring-rose-200';
}

/** A player's clock: whole seconds as m:ss (`1:05`). */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The clock at a frame of a video at `fps`. */
export function frameClock(frame: number, fps: number): string {
  return formatClock(frame / fps);
}
