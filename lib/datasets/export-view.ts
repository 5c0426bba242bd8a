import type { ExportRecord } from './queries/exports';

/** An Export row as the page and the polling route show it (JSON-safe). */
export interface ExportView {
  id: string;
  format: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  rows: number | null;
  sha256: string | null;
  error: string | null;
  params: Record<string, unknown>;
  purpose: 'training' | 'evaluation';
  createdAt: string;
  finishedAt: string | null;
}

export function exportView(row: ExportRecord): ExportView {
  const params = (row.params ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    format: row.format,
    status: row.status,
    progress: row.progress,
    rows: row.rows,
    sha256: row.sha256,
    error: row.error,
    params,
    purpose: params.split === 'eval' ? 'evaluation' : 'training',
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
