'use client';

import { IntentLink } from '@/components/ui/intent-link';
import { useRouter } from 'next/navigation';
import type { FacetOption } from '@/lib/trajectories/queries/trajectory-queries';
import { filterKeys, hasFilters, listHref, type ListFilterValues } from './list-url';
import { Options } from '@/components/ui/options';

const fieldBase =
  'mt-1 block rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
const field = `${fieldBase} w-full`;
const labelText = 'text-xs font-medium text-zinc-600';
/** A fixed filter's options, each `[value, label]`. */
const choices = (...pairs: [string, string][]) => pairs.map(([value, label]) => ({ value, label }));
/** The filters whose options never change, in their order after the facets. */
const fixedFilters = [
  { label: 'Split', name: 'split', options: choices(['', 'Train and eval'], ['train', 'Train'], ['eval', 'Eval']) },
  { label: 'Review', name: 'review', options: choices(['', 'Any'], ['unreviewed', 'Unreviewed'], ['reviewed', 'Reviewed']) },
  { label: 'Verifier reward', name: 'reward', options: choices(['', 'Any'], ['scored', 'Has a reward'], ['none', 'No reward']) },
] as const;

/** One filter's select under its label; the first option is "no filter" (value ''). */
function FilterSelect({
  label,
  name,
  values,
  options,
}: {
  label: string;
  name: 'project' | 'environment' | 'policy' | 'split' | 'review' | 'reward';
  values: ListFilterValues;
  options: { value: string; label: string }[];
}) {
  return (
    <label>
      <span className={labelText}>{label}</span>
      <select name={name} defaultValue={values[name] ?? ''} className={field}>
        <Options options={options} />
      </select>
    </label>
  );
}

/** One end of the reward range. */
function RewardBound({
  label,
  name,
  values,
  placeholder,
}: {
  label: string;
  name: 'rewardMin' | 'rewardMax';
  values: ListFilterValues;
  placeholder: string;
}) {
  return (
    <label>
      <span className={labelText}>{label}</span>
      <input type="number" step="any" name={name} defaultValue={values[name]} placeholder={placeholder} className={`${fieldBase} w-28`} />
    </label>
  );
}

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
        <FilterSelect
          label="Project"
          name="project"
          values={values}
          options={[
            { value: '', label: 'All projects' },
            ...projects.map((p) => ({ value: p.slug, label: p.name === p.slug ? p.slug : `${p.name} (${p.slug})` })),
          ]}
        />
        <FilterSelect
          label="Environment"
          name="environment"
          values={values}
          options={[{ value: '', label: 'Any' }, ...environments.map((e) => ({ value: e.id, label: label(e) }))]}
        />
        <FilterSelect
          label="Policy"
          name="policy"
          values={values}
          options={[{ value: '', label: 'Any' }, ...policies.map((p) => ({ value: p.id, label: label(p) }))]}
        />
        {fixedFilters.map((f) => (
          <FilterSelect key={f.name} {...f} values={values} />
        ))}
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <RewardBound label="Reward from" name="rewardMin" values={values} placeholder="min" />
        <RewardBound label="Reward to" name="rewardMax" values={values} placeholder="max" />
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
