import Link from 'next/link';
import { formatCount } from '../ui/format';
import { listHref, type ListFilterValues } from './list-url';

const linkClass = 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-700 shadow-sm hover:bg-zinc-50';
const disabledClass = 'rounded-md border border-zinc-200 px-3 py-1.5 text-sm text-zinc-300';

/** "Showing 51–100 of 230" and previous / next links that keep the filters. */
export function Pagination({
  values,
  page,
  pageCount,
  pageSize,
  total,
}: {
  values: ListFilterValues;
  page: number;
  pageCount: number;
  pageSize: number;
  total: number;
}) {
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-4 text-sm text-zinc-600">
      <p>
        {from > to ? (
          <>
            Page {page} is past the end ({formatCount(total)} trajectories).
          </>
        ) : (
          <>
            Showing <span className="font-medium text-zinc-900">{formatCount(from)}</span>–
            <span className="font-medium text-zinc-900">{formatCount(to)}</span> of{' '}
            <span className="font-medium text-zinc-900">{formatCount(total)}</span>
          </>
        )}
      </p>
      <div className="flex items-center gap-2">
        <span className="mr-2 text-xs text-zinc-500">
          Page {page} of {pageCount}
        </span>
        {page > 1 ? (
          <Link href={listHref(values, Math.min(page - 1, pageCount))} rel="prev" className={linkClass}>
            ← Previous
          </Link>
        ) : (
          <span aria-disabled="true" className={disabledClass}>
            ← Previous
          </span>
        )}
        {page < pageCount ? (
          <Link href={listHref(values, page + 1)} rel="next" className={linkClass}>
            Next →
          </Link>
        ) : (
          <span aria-disabled="true" className={disabledClass}>
            Next →
          </span>
        )}
      </div>
    </nav>
  );
}
