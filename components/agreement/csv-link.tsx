/** A plain download link to one of the dashboard's CSV tables (the route sets Content-Disposition). */
export function CsvLink({
  campaignId,
  table,
  query = '',
  label = 'CSV',
}: {
  campaignId: string;
  table: string;
  query?: string;
  label?: string;
}) {
  return (
    <a
      href={`/api/v1/campaigns/${campaignId}/agreement/${table}${query}`}
      download
      className="rounded-md border border-zinc-200 bg-white px-2 py-0.5 text-xs font-medium text-zinc-600 hover:border-indigo-300 hover:text-indigo-700"
    >
      {label}
    </a>
  );
}
