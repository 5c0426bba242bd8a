'use client';

import { IntentLink } from '@/components/ui/intent-link';
import { useRouter } from 'next/navigation';
import type { FacetOption } from '@/lib/trajectories/queries/trajectory-queries';
import { filterKeys, hasFilters, listHref, type ListFilterValues } from './list-url';

const fieldBase =
  'mt-1 block rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
const field = `${fieldBase} w-full`;
const labelText = 'text-xs font-medium text-zinc-600';

/**
 * The list's filters: a GET form (works without JavaScript; with it, empty fields are left out
 * of the URL). Facets are the environments and policies of the chosen project, or of all.
 */
export function TrajectoryFilters({
  values,
  projects,
  environments,
  policies,
  scoped,
}: {
  values: ListFilterValues;
  projects: { id: string; slug: string; name: string }[];
  environments: FacetOption[];
  policies: FacetOption[];
  /** true when the facets belong to one project (no project prefix needed) */
  scoped: boolean;
}) {
  const router = useRouter();
  const label = (o: FacetOption) => (scoped ? o.name : `${o.name} (${o.projectSlug})`);
  return (
    <form
      method="get"
      action="/trajectories"
      role="search"
      aria-label="Filter trajectories"
      className="mb-5 rounded-xl border border-zinc-200 bg-white p-4 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const next: ListFilterValues = {};
        for (const key of filterKeys) {
          const v = data.get(key);
          if (typeof v === 'string' && v.trim() !== '') next[key] = v.trim();
        }
        router.push(listHref(next));
      }}
    >
      <div className="grid grid-cols-2 gap-3 md:grid-cols-4 xl:grid-cols-8">
        <label className="col-span-2">
          <span className={labelText}>Task name</span>
          <input type="search" name="q" defaultValue={values.q} placeholder="Search tasks…" className={field} />
        </label>
        <label>
          <span className={labelText}>Project</span>
          <select name="project" defaultValue={values.project ?? ''} className={field}>
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p.id} value={p.slug}>
                {p.name === p.slug ? p.slug : `${p.name} (${p.slug})`}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelText}>Environment</span>
          <select name="environment" defaultValue={values.environment ?? ''} className={field}>
            <option value="">Any</option>
            {environments.map((e) => (
              <option key={e.id} value={e.id}>
                {label(e)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelText}>Policy</span>
          <select name="policy" defaultValue={values.policy ?? ''} className={field}>
            <option value="">Any</option>
            {policies.map((p) => (
              <option key={p.id} value={p.id}>
                {label(p)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className={labelText}>Split</span>
          <select name="split" defaultValue={values.split ?? ''} className={field}>
            <option value="">Train and eval</option>
            <option value="train">Train</option>
            <option value="eval">Eval</option>
          </select>
        </label>
        <label>
          <span className={labelText}>Review</span>
          <select name="review" defaultValue={values.review ?? ''} className={field}>
            <option value="">Any</option>
            <option value="unreviewed">Unreviewed</option>
            <option value="reviewed">Reviewed</option>
          </select>
        </label>
        <label>
          <span className={labelText}>Verifier reward</span>
          <select name="reward" defaultValue={values.reward ?? ''} className={field}>
            <option value="">Any</option>
            <option value="scored">Has a reward</option>
            <option value="none">No reward</option>
          </select>
        </label>
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <label>
          <span className={labelText}>Reward from</span>
          <input
            type="number"
            step="any"
            name="rewardMin"
            defaultValue={values.rewardMin}
            placeholder="min"
            className={`${fieldBase} w-28`}
          />
        </label>
        <label>
          <span className={labelText}>Reward to</span>
          <input
            type="number"
            step="any"
            name="rewardMax"
            defaultValue={values.rewardMax}
            placeholder="max"
            className={`${fieldBase} w-28`}
          />
        </label>
        <div className="ml-auto flex items-center gap-2">
          {hasFilters(values) ? (
            <IntentLink href="/trajectories" className="rounded-md px-3 py-1.5 text-sm text-zinc-600 hover:bg-zinc-100 hover:text-zinc-900">
              Clear filters
            </IntentLink>
          ) : null}
          <button
            type="submit"
            className="rounded-md bg-indigo-600 px-4 py-1.5 text-sm font-semibold text-white shadow-sm hover:bg-indigo-500"
          >
            Apply filters
          </button>
        </div>
      </div>
    </form>
  );
}
