import type { ReliabilityBand } from '@/lib/stats/compute-agreement';
import { bandLabel, bandStyle } from './format';

/** Krippendorff's guidance as a coloured badge: >= 0.800 reliable, >= 0.667 tentative, below not usable. */
export function BandBadge({ band }: { band: ReliabilityBand }) {
  return (
    <span
      data-band={band}
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${bandStyle[band].badge}`}
    >
      {bandLabel[band]}
    </span>
  );
}
