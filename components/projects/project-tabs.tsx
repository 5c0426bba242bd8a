import { IntentLink } from '@/components/ui/intent-link';

/** The tabs of a page that shows one project at a time (datasets, hill climb): one link a project, the shown one marked; none for a single project. */
export function ProjectTabs({
  projects,
  current,
  href,
}: {
  projects: readonly { slug: string; name: string }[];
  /** the slug of the project shown */
  current: string;
  /** the page's URL for a project slug */
  href: (slug: string) => string;
}) {
  if (projects.length <= 1) return null;
  return (
    <nav aria-label="Projects" className="mb-4 flex flex-wrap gap-2 text-sm">
      {projects.map((p) => (
        <IntentLink
          key={p.slug}
          href={href(p.slug)}
          aria-current={p.slug === current ? 'page' : undefined}
          className={
            p.slug === current
              ? 'rounded-md bg-zinc-900 px-3 py-1 text-white'
              : 'rounded-md border border-zinc-300 px-3 py-1 text-zinc-700 hover:bg-zinc-50'
          }
        >
          {p.name}
        </IntentLink>
      ))}
    </nav>
  );
}
