import { IntentLink } from '@/components/ui/intent-link';
import { EmptyState } from '@/components/ui/empty-state';

/** A clear message for a bad link (unknown project, environment or policy). */
export function InsightError({ title, message, href }: { title: string; message: string; href: string }) {
  return (
    <EmptyState
      title={title}
      action={
        <IntentLink
          href={href}
          className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 shadow-sm hover:bg-zinc-50"
        >
          Start over
        </IntentLink>
      }
    >
      {message}.
    </EmptyState>
  );
}
