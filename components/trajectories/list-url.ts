/** The list's filters as they appear in the URL (strings; empty ones left out), so links are shareable. */
export interface ListFilterValues {
  q?: string;
  project?: string;
  environment?: string;
  policy?: string;
  split?: string;
  reward?: string;
  rewardMin?: string;
  rewardMax?: string;
  review?: string;
}

export const filterKeys = [
  'q',
  'project',
  'environment',
  'policy',
  'split',
  'reward',
  'rewardMin',
  'rewardMax',
  'review',
] as const satisfies readonly (keyof ListFilterValues)[];

/** `/trajectories?…` with only the filters that are set, plus the page when it is not the first. */
export function listHref(values: ListFilterValues, page = 1): string {
  const params = new URLSearchParams();
  for (const key of filterKeys) {
    const v = values[key]?.trim();
    if (v) params.set(key, v);
  }
  if (page > 1) params.set('page', String(page));
  const query = params.toString();
  return query ? `/trajectories?${query}` : '/trajectories';
}

export function hasFilters(values: ListFilterValues): boolean {
  return filterKeys.some((k) => Boolean(values[k]?.trim()));
}
