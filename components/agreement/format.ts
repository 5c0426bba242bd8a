import type { ReliabilityBand } from '@/lib/stats/compute-agreement';

export function formatAlpha(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(3);
}

export function formatShare(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value * 100)}%`;
}

export function formatCi(ci: [number, number] | null | undefined): string {
  return ci ? `[${ci[0].toFixed(2)}, ${ci[1].toFixed(2)}]` : '—';
}

export const bandLabel: Record<ReliabilityBand, string> = {
  reliable: 'reliable',
  tentative: 'tentative',
  unusable: 'not usable as a reward',
  undefined: 'undefined',
};

/** Tailwind classes per band (badge background + text), and a fill for charts. */
export const bandStyle: Record<ReliabilityBand, { badge: string; fill: string }> = {
  reliable: { badge: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20', fill: '#059669' },
  tentative: { badge: 'bg-amber-50 text-amber-800 ring-amber-600/20', fill: '#d97706' },
  unusable: { badge: 'bg-rose-50 text-rose-800 ring-rose-600/20', fill: '#e11d48' },
  undefined: { badge: 'bg-zinc-100 text-zinc-600 ring-zinc-500/20', fill: '#a1a1aa' },
};
