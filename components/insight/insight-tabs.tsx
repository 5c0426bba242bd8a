'use client';

import { IntentLink } from '@/components/ui/intent-link';
import { usePathname } from 'next/navigation';
import { Options } from '@/components/ui/options';

const tabs = [
  { href: '/insight/environments', label: 'Environments' },
  { href: '/insight/policies', label: 'Policies' },
  { href: '/insight/compare', label: 'Compare checkpoints' },
];

/** The insight sub-navigation; keeps the chosen project across tabs. */
export function InsightTabs({ projects, project }: { projects: { slug: string; name: string }[]; project: string | null }) {
  const pathname = usePathname();
  const q = project ? `?project=${encodeURIComponent(project)}` : '';
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3 border-b border-zinc-200">
      <nav aria-label="Insight views" className="flex gap-1">
        {tabs.map((t) => (
          <IntentLink
            key={t.href}
            href={`${t.href}${q}`}
            aria-current={pathname === t.href ? 'page' : undefined}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${pathname === t.href ? 'border-indigo-600 font-medium text-indigo-700' : 'border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900'}`}
          >
            {t.label}
          </IntentLink>
        ))}
      </nav>
      {projects.length > 1 ? (
        <form className="mb-1.5 flex items-center gap-2 text-sm" action={pathname}>
          <label htmlFor="insight-project" className="text-zinc-500">
            Project
          </label>
          <select
            id="insight-project"
            name="project"
            defaultValue={project ?? ''}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
          >
            <Options options={projects.map((p) => ({ value: p.slug, label: p.name }))} />
          </select>
          <button
            type="submit"
            className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-xs font-medium text-zinc-700 hover:bg-zinc-50"
          >
            Show
          </button>
        </form>
      ) : null}
    </div>
  );
}
