import { ValueBadge } from '../ui/badge';
import { formatReward, rewardTone } from '../ui/format';

const SPLITS = {
  eval: { tone: 'bg-amber-50 text-amber-800 ring-amber-200', title: 'Evaluation split: never in a training export' },
  train: { tone: 'bg-sky-50 text-sky-800 ring-sky-200', title: 'Training split' },
};

/** Eval items are measurement only: never in a training export. */
export function SplitBadge({ split }: { split: 'train' | 'eval' }) {
  return <ValueBadge value={split} tones={SPLITS} />;
}

export function RewardBadge({ value }: { value: number | null }) {
  return (
    <span
      className={`inline-flex min-w-10 justify-center rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold tabular-nums ring-1 ring-inset ${rewardTone(value)}`}
      title={value === null ? 'No verifier reward' : `Verifier reward ${value}`}
    >
      {formatReward(value)}
    </span>
  );
}
