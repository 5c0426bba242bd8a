import type { RawSourceText } from '@/lib/trajectories/queries/trajectory-queries';
import { formatBytes } from '../ui/format';
import { inert } from '@/lib/rich-text/inert-text';
import { MarkedText } from './marked-text';

/** The stored import source, as text (never interpreted). */
export function RawSourceView({ source }: { source: RawSourceText | null }) {
  if (!source) {
    return (
      <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-sm text-zinc-500">
        No raw source is stored for this trajectory (it was stored without one, or its source was deleted).
      </p>
    );
  }
  return (
    <section aria-label="Raw source" className="overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-sm">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-xs text-zinc-600">
        <span className="font-mono font-medium text-zinc-800" title="Path as imported">
          {inert(source.path)}
        </span>
        <span>{source.kind === 'directory' ? 'directory bundle' : 'file'}</span>
        <span>{source.format}</span>
        <span>{formatBytes(source.sizeBytes)}</span>
        {source.where ? (
          <span>
            this trajectory: <span className="font-mono text-zinc-800">{inert(source.where)}</span>
          </span>
        ) : null}
        {source.truncated ? <span className="font-medium text-amber-700">truncated to the first 2 MiB</span> : null}
      </div>
      {source.binary ? (
        <p className="p-6 text-sm text-zinc-500">
          This source is binary ({formatBytes(source.sizeBytes)}); it is kept for audit but not shown.
        </p>
      ) : (
        <pre
          data-testid="raw-source"
          className="max-h-[75vh] overflow-auto whitespace-pre-wrap break-all bg-zinc-950 p-4 font-mono text-xs leading-relaxed text-zinc-100"
        >
          <MarkedText text={inert(source.text)} />
        </pre>
      )}
    </section>
  );
}
