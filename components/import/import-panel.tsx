'use client';

import { memo, useCallback, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Badge } from '../ui/badge';
import { ErrorLine } from '../ui/error-line';
import { formatBytes } from '../ui/format';
import { IntentLink } from '../ui/intent-link';
import { filesOfDrop, type BrowserPickedFile } from './dropped-files';
import {
  batchResults,
  batchUploads,
  importQuery,
  overLimit,
  planUploads,
  type SendJob,
  type UploadLimits,
  type UploadUnit,
} from './upload-plan';
import { postImport, startsAsZip, UploadAborted, zipFiles, type ImportAnswer } from './upload-client';

/** Names of text files, never zips: their first bytes are not read to tell. */
const TEXT_NAME = /\.(json|jsonl|ndjson|cast|txt|log|md|yaml|yml|csv)$/i;

/** Requests in flight at once (each batch of loose files, folder's zip or file alone, one request). */
const IN_FLIGHT = 4;

type UnitState =
  | { phase: 'queued' | 'zipping' | 'uploading' | 'importing'; progress: number }
  | { phase: 'done'; progress: 1; answer: ImportAnswer; batch?: { files: number; exact: boolean } }
  | { phase: 'failed' | 'cancelled'; progress: number; error: string };

interface Fields {
  project: string;
  environment: string;
  policy: string;
  split: string;
}

const input =
  'w-full rounded-md border border-zinc-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500';
const button = 'rounded-md px-3 py-1.5 text-sm font-medium shadow-sm disabled:cursor-not-allowed disabled:opacity-50';

/**
 * The import page's work: files and folders dropped or picked, sent to POST /api/v1/trajectories
 * (upload-plan.ts says how: loose files in batches, one zip each), IN_FLIGHT requests at a time,
 * each file or folder with its progress bar and its result (a batch's report mapped back to its files);
 * Cancel aborts what is in flight and sends no more. Re-dropping the same files creates nothing:
 * the importer skips files it has imported before ("skipped as unchanged").
 */
export function ImportPanel({ projects, limits }: { projects: { slug: string; name: string }[]; limits: UploadLimits }) {
  const [fields, setFields] = useState<Fields>({ project: projects[0]?.slug ?? '', environment: '', policy: '', split: '' });
  const [units, setUnits] = useState<UploadUnit<BrowserPickedFile>[]>([]);
  const [states, setStates] = useState<Record<string, UnitState>>({});
  // each request's report (a batch's once, not its files'), for the summary
  const [answers, setAnswers] = useState<Record<string, ImportAnswer>>({});
  const [running, setRunning] = useState(false);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentWith, setSentWith] = useState<Fields | null>(null);
  const abort = useRef<AbortController | null>(null);
  const filePicker = useRef<HTMLInputElement>(null);
  const folderPicker = useRef<HTMLInputElement>(null);

  const set = useCallback((key: string, state: UnitState) => setStates((s) => ({ ...s, [key]: state })), []);
  const setMany = useCallback(
    (keys: string[], state: (key: string) => UnitState) =>
      setStates((s) => {
        const next = { ...s };
        for (const key of keys) next[key] = state(key);
        return next;
      }),
    [],
  );

  const start = useCallback(
    async (picked: BrowserPickedFile[]) => {
      if (running || picked.length === 0) return;
      const plan = planUploads(picked, limits);
      const controller = new AbortController();
      abort.current = controller;
      const query = importQuery(fields);
      setError(null);
      setSentWith(fields);
      setUnits(plan);
      setStates(
        Object.fromEntries(
          plan.map((u) => [
            u.key,
            u.kind === 'refused' ? { phase: 'failed', progress: 0, error: u.message } : { phase: 'queued', progress: 0 },
          ]),
        ),
      );
      setRunning(true);
      performance.mark('import:start');
      setAnswers({});
      // a loose file that is itself a zip (an Inspect `.eval`, a `.zip` of runs) goes alone, as application/zip: told by its
      // first bytes, unless its name says it is text (reading a thousand files' heads cost seconds)
      const loose = plan.flatMap((u) => (u.kind === 'file' && !TEXT_NAME.test(u.key) ? [u] : []));
      const zips = new Set<string>();
      await Promise.all(loose.map(async (u) => (await startsAsZip(u.file.file).catch(() => false)) && zips.add(u.key)));
      const queue = batchUploads(plan, (u) => zips.has(u.key), limits);
      const keysOf = (job: SendJob<BrowserPickedFile>) => (job.kind === 'one' ? [job.unit.key] : job.files.map((f) => f.unit.key));
      // a job's rows told its progress in steps of 10% (each step re-renders all of a batch's rows)
      const reporters = new Map<string, (state: UnitState) => void>();
      const reporter = (job: SendJob<BrowserPickedFile>) => {
        let report = reporters.get(job.key);
        if (!report) {
          const keys = keysOf(job);
          let shown = '';
          report = (state: UnitState) => {
            const step = `${state.phase} ${Math.floor(state.progress * 10)}`;
            if (step === shown) return;
            shown = step;
            setMany(keys, () => state);
          };
          reporters.set(job.key, report);
        }
        return report;
      };
      /** A job's body: a batch's or a folder's zip, or the file itself. */
      const prepare = async (job: SendJob<BrowserPickedFile>): Promise<{ body: Blob; contentType: string }> => {
        const all = reporter(job);
        const size = job.kind === 'batch' ? job.size : job.unit.size;
        let body: Blob;
        let contentType = 'application/octet-stream';
        if (job.kind === 'one' && job.unit.kind === 'file') {
          body = job.unit.file.file;
          if (zips.has(job.unit.key)) contentType = 'application/zip';
          else if (body.size > limits.apiMaxBytes) throw new Error(overLimit(body.size, limits.apiMaxBytes, 'WITNESS_API_MAX_MB'));
        } else {
          all({ phase: 'zipping', progress: 0 });
          let entries: { path: string; file: Blob }[];
          if (job.kind === 'batch') entries = job.files.map((f) => ({ path: f.name, file: f.unit.file.file }));
          else {
            const unit = job.unit as Extract<UploadUnit<BrowserPickedFile>, { kind: 'folder' }>;
            // inside the zip, the paths below the folder's parent: "runs/trial-1/result.json"
            const base = unit.key.slice(0, unit.key.slice(0, -1).lastIndexOf('/') + 1);
            entries = unit.files.map((f) => ({ path: f.path.slice(base.length), file: f.picked.file }));
          }
          body = await zipFiles(
            entries,
            (read) => all({ phase: 'zipping', progress: size > 0 ? (0.3 * read) / size : 0.3 }),
            controller.signal,
          );
          contentType = 'application/zip';
          performance.mark(`import:zipped ${job.key}`); // read by bench/import-page.bench.ts
        }
        return { body, contentType };
      };
      const send = async (job: SendJob<BrowserPickedFile>, prepared: Promise<{ body: Blob; contentType: string }>) => {
        const keys = keysOf(job);
        const all = reporter(job);
        const zipping = job.kind === 'batch' || job.unit.kind === 'folder';
        try {
          const { body, contentType } = await prepared;
          const zipped = zipping ? 0.3 : 0;
          all({ phase: 'uploading', progress: zipped });
          let sentAll = false;
          const answer = await postImport(
            query,
            body,
            contentType,
            (sent) => {
              const fraction = body.size > 0 ? sent / body.size : 1;
              if (sentAll) return;
              if (fraction >= 1) {
                sentAll = true;
                performance.mark(`import:sent ${job.key}`);
              }
              all(
                fraction >= 1
                  ? { phase: 'importing', progress: 0.95 }
                  : { phase: 'uploading', progress: zipped + (0.95 - zipped) * fraction },
              );
            },
            controller.signal,
          );
          performance.mark(`import:answered ${job.key}`);
          setAnswers((a) => ({ ...a, [job.key]: answer }));
          if (job.kind === 'one') set(job.unit.key, { phase: 'done', progress: 1, answer });
          else {
            const byName = batchResults(
              answer,
              job.files.map((f) => f.name),
            );
            const keyOf = new Map(job.files.map((f) => [f.unit.key, f.name]));
            setMany(keys, (key) => {
              const result = byName.get(keyOf.get(key)!)!;
              return { phase: 'done', progress: 1, answer: result.answer, batch: { files: job.files.length, exact: result.exact } };
            });
          }
        } catch (e) {
          if (e instanceof UploadAborted || controller.signal.aborted) all({ phase: 'cancelled', progress: 0, error: 'cancelled' });
          else all({ phase: 'failed', progress: 0, error: (e as Error).message });
        }
      };
      // a batch's zip is made a wave ahead, while the requests before it are in flight (a folder's, up to the import limit, is not)
      const bodies = new Map<number, Promise<{ body: Blob; contentType: string }>>();
      const bodyOf = (i: number) => {
        let body = bodies.get(i);
        if (!body) {
          body = prepare(queue[i]!);
          body.catch(() => {}); // said when it is sent
          bodies.set(i, body);
        }
        return body;
      };
      let next = 0;
      const lane = async () => {
        while (next < queue.length) {
          const i = next++;
          const job = queue[i]!;
          if (controller.signal.aborted) setMany(keysOf(job), () => ({ phase: 'cancelled', progress: 0, error: 'cancelled' }));
          else {
            const body = bodyOf(i);
            if (queue[i + IN_FLIGHT]?.kind === 'batch') bodyOf(i + IN_FLIGHT);
            await send(job, body);
          }
          bodies.delete(i);
        }
      };
      await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, queue.length) }, lane));
      setRunning(false);
      abort.current = null;
    },
    [fields, limits, running, set, setMany],
  );

  const onDrop = async (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setOver(false);
    if (running) return;
    try {
      await start(await filesOfDrop(e.dataTransfer));
    } catch (err) {
      setError(`Could not read what was dropped: ${(err as Error).message}`);
    }
  };
  const onPick = (list: FileList | null, target: HTMLInputElement) => {
    performance.mark('import:picked'); // the browser has handed the files over (bench/import-page.bench.ts times from here)
    const picked = Array.from(list ?? [], (file) => ({ file, relativePath: file.webkitRelativePath || '' }));
    target.value = ''; // the same files may be picked again
    void start(picked);
  };

  const summary = useMemo(() => summarise(units, states, answers), [units, states, answers]);
  const finished = units.length > 0 && !running;
  const slug = (sentWith?.project.trim() || 'default').toLowerCase();
  const batch = new URLSearchParams({ project: slug });
  if (sentWith?.environment.trim()) batch.set('environment', sentWith.environment.trim());
  if (sentWith?.policy.trim()) batch.set('policy', sentWith.policy.trim());

  return (
    <div className="space-y-6">
      <section className="rounded-xl border border-zinc-200 bg-white shadow-sm" aria-labelledby="import-into">
        <div className="border-b border-zinc-100 px-4 py-2">
          <h2 id="import-into" className="text-xs font-semibold uppercase tracking-wide text-zinc-500">
            Import into
          </h2>
          <p className="mt-0.5 text-xs text-zinc-500">Leave a field empty to read it from the files.</p>
        </div>
        <div className="grid grid-cols-1 gap-4 px-4 py-4 sm:grid-cols-2 lg:grid-cols-4">
          <Field label="Project" hint="A new name makes a new project, led by you.">
            <input
              className={input}
              list="import-projects"
              value={fields.project}
              placeholder="default"
              disabled={running}
              onChange={(e) => setFields({ ...fields, project: e.target.value })}
            />
            <datalist id="import-projects">
              {projects.map((p) => (
                <option key={p.slug} value={p.slug}>
                  {p.name}
                </option>
              ))}
            </datalist>
          </Field>
          <Field label="Environment" hint="From the files when empty.">
            <input
              className={input}
              value={fields.environment}
              disabled={running}
              onChange={(e) => setFields({ ...fields, environment: e.target.value })}
            />
          </Field>
          <Field label="Policy" hint="The agent and model; from the files when empty.">
            <input
              className={input}
              value={fields.policy}
              disabled={running}
              onChange={(e) => setFields({ ...fields, policy: e.target.value })}
            />
          </Field>
          <Field label="Split" hint="From the files when empty.">
            <select
              className={input}
              value={fields.split}
              disabled={running}
              onChange={(e) => setFields({ ...fields, split: e.target.value })}
            >
              <option value="">From the files</option>
              <option value="train">Train</option>
              <option value="eval">Eval</option>
            </select>
          </Field>
        </div>
      </section>

      <div
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={`rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors ${
          over ? 'border-indigo-500 bg-indigo-50' : 'border-zinc-300 bg-white'
        }`}
      >
        <p className="text-base font-semibold text-zinc-900">Drop files or folders of runs here</p>
        <p className="mx-auto mt-1 max-w-xl text-sm text-zinc-600">
          Any format <code className="font-mono">witness import</code> reads: JSON and JSONL logs, casts, Inspect{' '}
          <code className="font-mono">.eval</code> files, a <code className="font-mono">.zip</code> of runs, folders such as Harbor trials
          (each folder travels whole). Up to <span className="whitespace-nowrap">{formatBytes(limits.apiMaxBytes)}</span> a file,{' '}
          <span className="whitespace-nowrap">{formatBytes(limits.importMaxBytes)}</span> a zip or folder.
        </p>
        <div className="mt-4 flex justify-center gap-2">
          <button
            type="button"
            disabled={running}
            className={`${button} bg-indigo-600 text-white hover:bg-indigo-500`}
            onClick={() => filePicker.current?.click()}
          >
            Choose files
          </button>
          <button
            type="button"
            disabled={running}
            className={`${button} border border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50`}
            onClick={() => folderPicker.current?.click()}
          >
            Choose a folder
          </button>
          {running ? (
            <button
              type="button"
              className={`${button} border border-red-300 bg-white text-red-700 hover:bg-red-50`}
              onClick={() => abort.current?.abort()}
            >
              Cancel
            </button>
          ) : null}
        </div>
        <input
          ref={filePicker}
          type="file"
          multiple
          hidden
          data-testid="file-input"
          aria-label="Choose files"
          onChange={(e) => onPick(e.target.files, e.target)}
        />
        <input
          ref={(el) => {
            folderPicker.current = el;
            // React does not pass these through as typed props
            el?.setAttribute('webkitdirectory', '');
            el?.setAttribute('directory', '');
          }}
          type="file"
          multiple
          hidden
          data-testid="folder-input"
          aria-label="Choose a folder"
          onChange={(e) => onPick(e.target.files, e.target)}
        />
        <ErrorLine error={error} className="mt-3 text-sm text-red-700" />
      </div>

      {units.length > 0 ? (
        <section aria-labelledby="import-results" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="import-results" className="text-sm font-semibold uppercase tracking-wide text-zinc-500">
              {running ? `Importing ${summary.settled} of ${units.length}` : 'Import finished'}
            </h2>
            <p className="text-sm text-zinc-700" data-testid="import-summary">
              {summary.imported} imported · {summary.skipped} skipped as unchanged · {summary.failedItems} failed
              {summary.cancelled > 0 ? ` · ${summary.cancelled} cancelled` : ''}
            </p>
          </div>
          {finished && summary.ids.length > 0 ? (
            <div
              className="flex flex-wrap items-center gap-3 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm shadow-sm"
              data-testid="import-next"
            >
              <IntentLink
                href={`/trajectories?${batch.toString()}`}
                className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white shadow-sm hover:bg-indigo-500"
              >
                {summary.ids.length === 1 ? 'Open the trajectory' : `Open the ${summary.ids.length} trajectories`}
              </IntentLink>
              <IntentLink
                href={`/lead/campaigns/new?${batch.toString()}`}
                className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 font-medium text-zinc-700 shadow-sm hover:bg-zinc-50"
              >
                Make a campaign from these
              </IntentLink>
              <span className="text-zinc-500">
                {summary.created.length > 0 ? (
                  <>
                    New:{' '}
                    {summary.created.slice(0, 5).map((t, i) => (
                      <span key={t.id}>
                        {i > 0 ? ', ' : ''}
                        <IntentLink href={`/trajectories/${t.id}`} className="text-indigo-700 hover:underline">
                          {t.task || t.id}
                        </IntentLink>
                      </span>
                    ))}
                    {summary.created.length > 5 ? ` and ${summary.created.length - 5} more` : ''}
                  </>
                ) : (
                  'Nothing new: every file was imported before.'
                )}
              </span>
            </div>
          ) : null}
          <ul className="divide-y divide-zinc-100 rounded-xl border border-zinc-200 bg-white shadow-sm">
            {units.map((u) => (
              <UnitRow key={u.key} unit={u} state={states[u.key]} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function Field({ label, hint, children }: { label: string; hint: string; children: ReactNode }) {
  return (
    <label className="block text-sm">
      <span className="font-medium text-zinc-700">{label}</span>
      <div className="mt-1">{children}</div>
      <span className="mt-1 block text-xs text-zinc-500">{hint}</span>
    </label>
  );
}

const UnitRow = memo(function UnitRow({ unit, state }: { unit: UploadUnit<BrowserPickedFile>; state: UnitState | undefined }) {
  const s = state ?? { phase: 'queued', progress: 0 };
  const outcome = outcomeOf(s);
  return (
    <li className="px-4 py-2.5 text-sm" data-testid="import-row" data-phase={s.phase} data-outcome={outcome?.kind ?? ''}>
      <div className="flex items-center gap-3">
        <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-800" title={unit.label}>
          {unit.label}
          {unit.kind === 'folder' ? <span className="ml-2 font-sans text-zinc-500">({unit.files.length} files)</span> : null}
        </span>
        <span className="w-20 shrink-0 text-right text-xs tabular-nums text-zinc-500">{formatBytes(unit.size)}</span>
        <div
          role="progressbar"
          aria-label={`${unit.label} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(s.progress * 100)}
          className="h-1.5 w-40 shrink-0 overflow-hidden rounded-full bg-zinc-100"
        >
          <div
            className={`h-full rounded-full ${barTone[outcome?.kind ?? ''] ?? 'bg-indigo-500'}`}
            style={{ width: `${Math.round((outcome?.kind === 'failed' ? 1 : s.progress) * 100)}%` }}
          />
        </div>
        <span className="w-56 shrink-0 text-right" data-testid="import-outcome">
          {outcome ? (
            <Badge className={outcome.tone}>{outcome.text}</Badge>
          ) : (
            <span className="text-xs text-zinc-500">{phaseText[s.phase]}</span>
          )}
        </span>
      </div>
      {s.phase === 'done' && s.answer.errors.length > 0 ? (
        <ul className="mt-1.5 space-y-0.5 pl-4 text-xs text-red-700" data-testid="import-errors">
          {s.answer.errors.slice(0, 20).map((e, i) => (
            <li key={i}>
              <span className="font-mono">{where(unit, e)}</span>: {e.message}
            </li>
          ))}
          {s.answer.errors.length > 20 ? <li>and {s.answer.errors.length - 20} more</li> : null}
        </ul>
      ) : null}
      {s.phase === 'failed' ? <p className="mt-1.5 pl-4 text-xs text-red-700">{s.error}</p> : null}
    </li>
  );
});

const barTone: Record<string, string> = {
  failed: 'bg-red-500',
  partial: 'bg-amber-500',
  imported: 'bg-emerald-500',
  skipped: 'bg-emerald-500',
  cancelled: 'bg-zinc-300',
};

const phaseText: Record<UnitState['phase'], string> = {
  queued: 'waiting',
  zipping: 'zipping…',
  uploading: 'uploading…',
  importing: 'importing…',
  done: '',
  failed: '',
  cancelled: '',
};

function outcomeOf(s: UnitState): { kind: string; text: string; tone: string } | null {
  if (s.phase === 'failed') return { kind: 'failed', text: 'failed', tone: 'bg-red-50 text-red-700 ring-red-200' };
  if (s.phase === 'cancelled') return { kind: 'cancelled', text: 'cancelled', tone: 'bg-zinc-100 text-zinc-600 ring-zinc-200' };
  if (s.phase !== 'done') return null;
  const { imported, skipped, failed } = s.answer;
  if (s.batch && !s.batch.exact) {
    // a file of a batch whose report cannot be told apart file by file (a file held several runs): the batch's counts
    const kind = imported === 0 && skipped > 0 ? 'skipped' : 'imported';
    const counts = [imported > 0 ? `${imported} imported` : '', skipped > 0 ? `${skipped} skipped` : ''].filter(Boolean).join(', ');
    return {
      kind,
      text: `${kind === 'skipped' ? 'skipped as unchanged' : 'imported'} (batch of ${s.batch.files}: ${counts || 'nothing'})`,
      tone: kind === 'skipped' ? 'bg-zinc-100 text-zinc-700 ring-zinc-200' : 'bg-emerald-50 text-emerald-700 ring-emerald-200',
    };
  }
  const parts = [
    imported > 0 ? `imported ${imported}` : '',
    skipped > 0 ? `skipped ${skipped} as unchanged` : '',
    failed > 0 ? `failed ${failed}` : '',
  ];
  const text = parts.filter(Boolean).join(' · ') || 'nothing to import';
  if (imported === 0 && failed === 0 && skipped > 0) return { kind: 'skipped', text, tone: 'bg-zinc-100 text-zinc-700 ring-zinc-200' };
  if (failed > 0 && imported + skipped === 0) return { kind: 'failed', text, tone: 'bg-red-50 text-red-700 ring-red-200' };
  if (failed > 0) return { kind: 'partial', text, tone: 'bg-amber-50 text-amber-800 ring-amber-200' };
  return { kind: 'imported', text, tone: 'bg-emerald-50 text-emerald-700 ring-emerald-200' };
}

/** Where an error is: a folder's file by its path inside the folder; a single file's body by the file's name. */
function where(unit: UploadUnit<BrowserPickedFile>, e: { path: string; where: string }): string {
  const path = unit.kind === 'folder' ? e.path : unit.label;
  return e.where && e.where !== 'file' && e.where !== e.path ? `${path} ${e.where}` : path;
}

function summarise(units: UploadUnit<BrowserPickedFile>[], states: Record<string, UnitState>, answers: Record<string, ImportAnswer>) {
  let imported = 0;
  let skipped = 0;
  let failedItems = 0;
  let settled = 0;
  let cancelled = 0;
  const ids: string[] = [];
  const created: ImportAnswer['trajectories'] = [];
  // counts from each request's report (a batch's once); a file refused, or whose request failed, one failure each
  for (const answer of Object.values(answers)) {
    imported += answer.imported;
    skipped += answer.skipped;
    failedItems += answer.failed;
    for (const t of answer.trajectories) {
      ids.push(t.id);
      if (t.created) created.push(t);
    }
  }
  for (const u of units) {
    const s = states[u.key];
    if (!s) continue;
    if (s.phase === 'failed') failedItems++;
    if (s.phase === 'cancelled') cancelled++;
    if (s.phase === 'done' || s.phase === 'failed' || s.phase === 'cancelled') settled++;
  }
  return { imported, skipped, failedItems, settled, cancelled, ids, created };
}
