'use client';

import { useState, useTransition } from 'react';
import { DataTable } from '@/components/ui/table';
import type { ActionResult } from '@/lib/action-result';
import { ErrorLine } from '@/components/ui/error-line';
import { PendingButton } from '@/components/ui/pending-button';

interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** the project it is narrowed to, or null: every project of its user */
  project: string | null;
  /** what it may do: all, read or training (lib/auth/api-token.ts) */
  scope: string;
}

const SCOPE_LABELS: Record<string, string> = {
  all: 'everything my roles allow',
  read: 'read only',
  training: 'training: exports and imports',
};

export function TokenManager({
  tokens,
  projects,
  canTrain,
  create,
  revoke,
}: {
  tokens: TokenRow[];
  /** the projects the user reaches, for narrowing a new token */
  projects: { id: string; name: string }[];
  /** whether the user may make a training token (leads and admins) */
  canTrain: boolean;
  create: (input: unknown) => Promise<ActionResult<{ token: string }>>;
  revoke: (input: unknown) => Promise<ActionResult<{ revoked: string }>>;
}) {
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <div className="space-y-6">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const name = form.get('name');
          const projectId = form.get('projectId') || null;
          const scope = form.get('scope') || 'all';
          start(async () => {
            const result = await create({ name, projectId, scope });
            if (result.ok) {
              setShown(result.data.token);
              setError(null);
            } else setError(result.error.message);
          });
        }}
      >
        <label className="text-sm">
          <span className="font-medium text-zinc-700">Token name</span>
          <input
            name="name"
            required
            placeholder="trainer on gpu-01"
            className="mt-1 block w-72 rounded-md border border-zinc-300 px-3 py-2"
          />
        </label>
        <label className="text-sm">
          <span className="font-medium text-zinc-700">Projects</span>
          <select name="projectId" defaultValue="" className="mt-1 block w-64 rounded-md border border-zinc-300 px-3 py-2">
            <option value="">All my projects</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                Only {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="font-medium text-zinc-700">Scope</span>
          <select name="scope" defaultValue="all" className="mt-1 block w-64 rounded-md border border-zinc-300 px-3 py-2">
            <option value="all">All: {SCOPE_LABELS.all}</option>
            <option value="read">Read: no writes, read-only MCP tools</option>
            {canTrain ? <option value="training">Training: dataset exports and trajectory import</option> : null}
          </select>
        </label>
        <PendingButton
          pending={pending}
          label="Create token"
          className="rounded-md bg-indigo-600 px-3 py-2 text-sm font-semibold text-white disabled:opacity-60"
        />
      </form>
      <ErrorLine error={error} />
      {shown ? (
        <div role="status" className="rounded-md border border-emerald-200 bg-emerald-50 p-3 text-sm">
          Copy this token now; it is shown once and stored only as a hash:
          <input
            readOnly
            value={shown}
            data-testid="new-token"
            className="mt-2 block w-full rounded border border-emerald-300 bg-white px-2 py-1 font-mono text-xs"
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
      ) : null}
      {tokens.length === 0 ? (
        <p className="text-sm text-zinc-600">
          No tokens yet. Machine clients of /api/v1 send one as <code className="font-mono">Authorization: Bearer wit_…</code>.
        </p>
      ) : (
        <DataTable columns={['Name', 'Token', 'Projects', 'Scope', 'Created', 'Last used', '']} label="API tokens" testId="tokens">
          {tokens.map((t) => (
            <tr key={t.id}>
              <td className="px-3 py-2">{t.name}</td>
              <td className="px-3 py-2 font-mono text-xs">{t.prefix}…</td>
              <td className="px-3 py-2 text-zinc-600" data-testid="token-project">
                {t.project ?? 'all my projects'}
              </td>
              <td className="px-3 py-2 text-zinc-600" data-testid="token-scope">
                {SCOPE_LABELS[t.scope] ?? t.scope}
              </td>
              <td className="px-3 py-2 text-zinc-500">{t.createdAt.slice(0, 10)}</td>
              <td className="px-3 py-2 text-zinc-500">{t.lastUsedAt ? t.lastUsedAt.slice(0, 16).replace('T', ' ') : 'never'}</td>
              <td className="px-3 py-2 text-right">
                {t.revokedAt ? (
                  <span className="text-xs text-zinc-400">revoked</span>
                ) : (
                  <button
                    type="button"
                    className="text-xs text-red-700 hover:underline"
                    onClick={() => start(async () => void (await revoke({ id: t.id })))}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
