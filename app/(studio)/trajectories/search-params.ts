import type { ListFilterValues } from '@/components/trajectories/list-url';
import { firstValue } from '@/lib/parse-input';
import { reviewStates, rewardStates, type TrajectoryListParams } from '@/lib/trajectories/trajectory-list-params';

type SearchParams = Record<string, string | string[] | undefined>;

function one(sp: SearchParams, key: string): string | undefined {
  const s = (firstValue(sp[key]) as string | undefined)?.trim();
  return s ? s.slice(0, 200) : undefined;
}

function finite(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * The list's URL -> query params. A shared URL with a value that makes no sense (a typo'd
 * split, `rewardMin=abc`) drops that filter instead of failing the page; `values` are the
 * filters actually applied, to refill the form and build page links.
 */
export function readListParams(sp: SearchParams): { params: TrajectoryListParams; values: ListFilterValues; page: number } {
  const values: ListFilterValues = {};
  const params: TrajectoryListParams = {};
  const text = (key: 'q' | 'project' | 'environment' | 'policy') => {
    const v = one(sp, key);
    if (v) params[key] = values[key] = v;
  };
  text('q');
  text('project');
  text('environment');
  text('policy');
  const split = one(sp, 'split');
  if (split === 'train' || split === 'eval') params.split = values.split = split;
  const reward = one(sp, 'reward');
  if (reward && reward !== 'any' && (rewardStates as readonly string[]).includes(reward))
    params.reward = values.reward = reward as TrajectoryListParams['reward'];
  const review = one(sp, 'review');
  if (review && review !== 'any' && (reviewStates as readonly string[]).includes(review))
    params.review = values.review = review as TrajectoryListParams['review'];
  let min = finite(one(sp, 'rewardMin'));
  let max = finite(one(sp, 'rewardMax'));
  if (min !== undefined && max !== undefined && min > max) [min, max] = [max, min];
  if (min !== undefined) {
    params.rewardMin = min;
    values.rewardMin = String(min);
  }
  if (max !== undefined) {
    params.rewardMax = max;
    values.rewardMax = String(max);
  }
  const pageNumber = Math.floor(finite(one(sp, 'page')) ?? 1);
  const page = pageNumber >= 1 && pageNumber <= 100_000 ? pageNumber : 1;
  params.page = page;
  return { params, values, page };
}
