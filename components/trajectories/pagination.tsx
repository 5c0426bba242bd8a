import { IntentLink } from '@/components/ui/intent-link';
import { formatCount } from '../../lib/video/text';
import { listHref, type ListFilterValues } from './list-url';

const linkClass = 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 shadow-sm hover:bg-zinc-50';
const disabledClass = 'rounded-md border border-zinc-200 px-3 py-1.5 text-sm text-zinc-300';

/** "Showing 51–100 of 230" (of "about 100,000" when the total is the database's estimate) and previous / next links that keep the filters. */
export function Pagination({
  values,
  page,
  pageCount,
  pageSize,
  total,
  totalExact = true,
  shown,
}: {
  values: ListFilterValues;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
  /** false: `total` is an estimate (too many to count on every page): said as "about" */
  totalExact?: boolean;
  /** rows on this page */
  shown: number;
}) {
  const about = totalExact ? '' : 'about ';
  const from = shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = shown === 0 ? -1 : from + shown - 1;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-4 text-sm text-zinc-600">
      <p>
        {from > to ? (
          <>
            Page {page} is past the end ({about}
            {formatCount(total)} trajectories).
          </>
        ) : (
          <>
            Showing <span className="font-medium text-zinc-900">{formatCount(from)}</span>–
            <span className="font-medium text-zinc-900">{formatCount(to)}</span> of {about}
            <span
              className="font-medium text-zinc-900"
              title={totalExact ? undefined : 'an estimate: more match than are counted on every page'}
            >
              {formatCount(total)}
            </span>
          </>
        )}
      </p>
      <div className="flex items-center gap-2">
        <span className="mr-2 text-xs text-zinc-500">
          Page {page} of {about}
          {formatCount(pageCount)}
        </span>
        {page > 1 ? (
          <IntentLink href={listHref(values, Math.min(page - 1, pageCount))} rel="prev" className={linkClass}>
            ← Previous
          </IntentLink>
        ) : (
          <span aria-disabled="true" className={disabledClass}>
            ← Previous
          </span>
        )}
        {page < pageCount || (!totalExact && shown === pageSize) ? (
          <IntentLink href={listHref(values, page + 1)} rel="next" className={linkClass}>
            Next →
          </IntentLink>
        ) : (
          <span aria-disabled="true" className={disabledClass}>
            Next →
          </span>
        )}
      </div>
    </nav>
  );
}
