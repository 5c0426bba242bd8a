import type { ReactNode } from 'react';

/** An empty state that says what to do next. */
export function EmptyState({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-10 text-center">
      <h3 className="text-base font-semibold text-zinc-900">{title}</h3>
      <div className="mx-auto mt-2 max-w-xl text-sm text-zinc-600">{children}</div>
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
