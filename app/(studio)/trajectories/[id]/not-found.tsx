import { IntentLink } from '@/components/ui/intent-link';
import { EmptyState } from '@/components/ui/empty-state';

export default function TrajectoryNotFound() {
  return (
    <EmptyState
      title="No such trajectory"
      action={
        <IntentLink
          href="/trajectories"
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 shadow-sm hover:bg-zinc-50"
        >
          Back to trajectories
        </IntentLink>
      }
    >
      It may have been deleted, or the link is mistyped.
    </EmptyState>
  );
}
