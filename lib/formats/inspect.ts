import { criteriaFromTexts } from './criteria';
import type { ImportInput, Importer, ParsedItem, Probe, SourceFile } from './importer';
import { errorItem, trajectoryItem } from './item';
import { asCount, asNumber, asString, isRecord, parseJson } from './parse-json';
import { inflateZipEntry, readZipDirectory, type ZipEntry } from './zip';
import type { JudgeScore, Observation, Step, ToolCall, Trajectory, Usage, Verifier } from './trajectory';

/**
 * Inspect AI eval logs: `.eval` (a zip: `header.json`, `samples/<id>_epoch_<n>.json`,
 * `summaries.json`, `reductions.json`, `_journal/...`) and `.json` (one object with `eval`,
 * `plan`, `results`, `stats`, `samples[]`).
 *
 * One trajectory per sample x epoch:
 * - task name = sample id; instruction = input (a string, or the text of its messages);
 *   acceptance criteria = the target(s), with the main score as verdict when there is one target;
 * - policy model = `eval.model`, agent = `eval.solver` (else the plan's solver names);
 * - messages -> steps (system/user/assistant=agent/tool), tool messages keep `tool_call_id`
 *   and `error` (-> isError); `attachment://` references are resolved from `sample.attachments`;
 * - scores: the main scorer (the first of `results.scores`, else the sample's first score) is
 *   `verifier.reward`; every scorer's scalar value is a verifier component (dict values as
 *   `scorer/key`). Values map C=1, I=0, P=0.5, N=0, true=1, false=0, numbers (and numeric
 *   strings) as-is. Inspect logs do not say which scorers are model-graded, so EVERY scorer is
 *   also listed as a judge score (label = the categorical value, explanation = its explanation);
 *   the UI tells them apart by name;
 * - usage = the sum of `model_usage` over models (input/output tokens; cost when `total_cost`).
 * A missing `header.json` falls back to `_journal/start.json` (a log still being written); with
 * neither the file fails with an error naming `header.json`. A broken sample entry fails that
 * sample only (the error names the zip entry).
 */

/**
 * Decompression limits (issue 14, item 10): one sample entry inflates to at most MAX_ENTRY_BYTES,
 * a whole log's header and samples to at most MAX_INFLATED_BYTES; both are checked on the sizes
 * the archive declares before anything is inflated, and lib/formats/zip.ts never inflates an
 * entry past its declared size. Samples are inflated one at a time.
 */
export const MAX_ENTRY_BYTES = 128 * 1024 * 1024;
export const MAX_INFLATED_BYTES = 1024 * 1024 * 1024;
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

const LETTERS: Record<string, number> = { C: 1, I: 0, P: 0.5, N: 0 };

/** Inspect score value -> number (C=1, I=0, P=0.5, N=0, booleans, numbers, numeric strings), else null. */
export function scoreNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    const letter = LETTERS[value.trim().toUpperCase()];
    if (letter !== undefined) return letter;
    const n = Number(value);
    return value.trim() !== '' && Number.isFinite(n) ? n : null;
  }
  return null;
}

function resolveAttachments(value: unknown, attachments: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith('attachment://')) return value;
    const hit = attachments[value.slice('attachment://'.length)];
    return typeof hit === 'string' ? hit : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveAttachments(v, attachments);
    return out;
  }
  return value;
}

interface ContentText {
  text: string;
  reasoning: string | null;
}

function contentOf(content: unknown): ContentText {
  if (typeof content === 'string') return { text: content, reasoning: null };
  if (!Array.isArray(content)) return { text: '', reasoning: null };
  const texts: string[] = [];
  const reasonings: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    const type = asString(part.type) ?? 'unknown';
    if (type === 'text') texts.push(asString(part.text) ?? '');
    else if (type === 'reasoning') {
      const r = part.redacted === true ? (asString(part.summary) ?? '[redacted reasoning]') : (asString(part.reasoning) ?? '');
      if (r !== '') reasonings.push(r);
    } else texts.push(`[${type}]`);
  }
  return { text: texts.join('\n'), reasoning: reasonings.length > 0 ? reasonings.join('\n\n') : null };
}

function messageSteps(messages: unknown[]): Step[] {
  const steps: Step[] = [];
  for (const m of messages) {
    if (!isRecord(m)) continue;
    const role = asString(m.role);
    const { text, reasoning } = contentOf(m.content);
    const base = {
      index: steps.length,
      reasoning: null,
      toolCalls: [] as ToolCall[],
      observations: [] as Observation[],
      timestamp: null,
      castTime: null,
      usage: null,
    };
    if (role === 'system' || role === 'user') steps.push({ ...base, source: role, text });
    else if (role === 'assistant') {
      const toolCalls: ToolCall[] = (Array.isArray(m.tool_calls) ? m.tool_calls : []).filter(isRecord).map((c) => ({
        id: asString(c.id),
        name: asString(c.function) ?? 'unknown',
        arguments: c.arguments ?? {},
      }));
      steps.push({ ...base, source: 'agent', text, reasoning, toolCalls });
    } else if (role === 'tool') {
      const error = isRecord(m.error) ? m.error : null;
      const content = text === '' && error ? (asString(error.message) ?? '') : text;
      steps.push({
        ...base,
        source: 'tool',
        text: '',
        observations: [{ toolCallId: asString(m.tool_call_id), content, isError: error !== null }],
      });
    }
  }
  return steps;
}

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return '';
  return input
    .filter(isRecord)
    .map((m) => contentOf(m.content).text)
    .filter((t) => t !== '')
    .join('\n\n');
}

function targets(target: unknown): string[] {
  if (typeof target === 'string') return [target];
  if (Array.isArray(target)) return target.filter((t): t is string => typeof t === 'string');
  return [];
}

function modelUsage(usage: unknown): Usage | null {
  if (!isRecord(usage)) return null;
  let prompt: number | null = null;
  let completion: number | null = null;
  let cost: number | null = null;
  const add = (acc: number | null, v: number | null) => (v === null ? acc : (acc ?? 0) + v);
  for (const u of Object.values(usage)) {
    if (!isRecord(u)) continue;
    prompt = add(prompt, asCount(u.input_tokens));
    completion = add(completion, asCount(u.output_tokens));
    cost = add(cost, asCount(u.total_cost));
  }
  return prompt === null && completion === null && cost === null
    ? null
    : { promptTokens: prompt, completionTokens: completion, costUsd: cost };
}

interface EvalHeader {
  eval: Record<string, unknown>;
  plan: Record<string, unknown>;
  mainScorer: string | null;
}

function evalHeader(value: unknown): EvalHeader | null {
  if (!isRecord(value) || !isRecord(value.eval)) return null;
  const first = isRecord(value.results) && Array.isArray(value.results.scores) ? value.results.scores.find(isRecord) : undefined;
  return {
    eval: value.eval,
    plan: isRecord(value.plan) ? value.plan : {},
    mainScorer: first ? (asString(first.scorer) ?? asString(first.name)) : null,
  };
}

function scoring(scores: unknown, mainScorer: string | null): { verifier: Verifier | null; judges: JudgeScore[] } {
  if (!isRecord(scores) || Object.keys(scores).length === 0) return { verifier: null, judges: [] };
  const components: Record<string, number> = {};
  const judges: JudgeScore[] = [];
  for (const [name, s] of Object.entries(scores)) {
    if (!isRecord(s)) continue;
    const value = s.value;
    const n = scoreNumber(value);
    if (n !== null) components[name] = n;
    else if (isRecord(value)) {
      for (const [k, v] of Object.entries(value)) {
        const kn = scoreNumber(v);
        if (kn !== null) components[`${name}/${k}`] = kn;
      }
    }
    judges.push({
      judge: name,
      score: n,
      label: typeof value === 'string' ? value : null,
      explanation: asString(s.explanation),
    });
  }
  const main = mainScorer !== null && mainScorer in scores ? mainScorer : Object.keys(scores)[0];
  const mainValue = main === undefined ? undefined : (scores[main] as Record<string, unknown> | undefined)?.value;
  return { verifier: { reward: scoreNumber(mainValue), components }, judges };
}

function solverName(header: EvalHeader): string | null {
  const solver = asString(header.eval.solver);
  if (solver) return solver;
  const steps = Array.isArray(header.plan.steps)
    ? header.plan.steps
        .filter(isRecord)
        .map((s) => asString(s.solver))
        .filter((s): s is string => !!s)
    : [];
  return steps.length > 0 ? steps.join(', ') : null;
}

/** One Inspect sample -> a trajectory. */
export function sampleTrajectory(raw: Record<string, unknown>, header: EvalHeader): Trajectory {
  const attachments = isRecord(raw.attachments) ? raw.attachments : {};
  const sample =
    Object.keys(attachments).length > 0
      ? (resolveAttachments({ ...raw, attachments: undefined }, attachments) as Record<string, unknown>)
      : raw;
  const id = typeof sample.id === 'number' || typeof sample.id === 'string' ? String(sample.id) : 'sample';
  const epoch = asNumber(sample.epoch) ?? 1;
  const { verifier, judges } = scoring(sample.scores, header.mainScorer);
  const targetTexts = targets(sample.target);
  const verdict =
    targetTexts.length === 1 && verifier && verifier.reward !== null
      ? verifier.reward >= 1
        ? true
        : verifier.reward <= 0
          ? false
          : null
      : null;
  const output = isRecord(sample.output) ? sample.output : {};
  const firstChoice = Array.isArray(output.choices) ? output.choices.find(isRecord) : undefined;
  const error = isRecord(sample.error) ? sample.error : null;
  const limit = isRecord(sample.limit) ? sample.limit : null;
  const messages = Array.isArray(sample.messages) ? sample.messages : [];
  return {
    format: 'inspect',
    externalId: `${id}_epoch_${epoch}`,
    task: {
      name: id,
      instruction: inputText(sample.input),
      acceptanceCriteria: criteriaFromTexts(targetTexts, 'task', verdict),
      environment: isRecord(header.eval.sandbox) ? asString(header.eval.sandbox.type) : null,
      split: null,
      metadata: {
        ...(asString(header.eval.task) ? { inspectTask: asString(header.eval.task) } : {}),
        ...(isRecord(sample.metadata) && Object.keys(sample.metadata).length > 0 ? { sample: sample.metadata } : {}),
      },
    },
    policy: { model: asString(header.eval.model), checkpoint: null, agent: solverName(header) },
    steps: messageSteps(messages),
    verifier,
    judgeScores: judges,
    usage: modelUsage(sample.model_usage),
    terminal: null,
    submission: asString(output.completion),
    exitStatus: error
      ? 'error'
      : limit
        ? `limit:${asString(limit.type) ?? 'unknown'}`
        : firstChoice
          ? asString(firstChoice.stop_reason)
          : null,
    startedAt: asString(sample.started_at),
    endedAt: asString(sample.completed_at),
    metadata: {
      epoch,
      ...(asString(header.eval.run_id) ? { runId: asString(header.eval.run_id) } : {}),
      ...(asString(header.eval.eval_id) ? { evalId: asString(header.eval.eval_id) } : {}),
      ...(error ? { error: asString(error.message) ?? error } : {}),
      ...(asNumber(sample.total_time) !== null ? { totalTime: asNumber(sample.total_time) } : {}),
      ...(asNumber(sample.working_time) !== null ? { workingTime: asNumber(sample.working_time) } : {}),
    },
  };
}

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((b, i) => bytes[i] === b);
}

const decoder = new TextDecoder('utf-8');

async function* parseEvalZip(file: SourceFile): AsyncIterable<ParsedItem> {
  const bytes = await file.readBytes();
  if (bytes.length === 0) {
    yield errorItem(file.path, 'empty file: expected an Inspect .eval archive');
    return;
  }
  let entries: ZipEntry[];
  try {
    entries = readZipDirectory(bytes);
  } catch (e) {
    yield errorItem(file.path, `not a readable zip archive: ${e instanceof Error ? e.message : String(e)}`);
    return;
  }
  // sizes are checked before anything is inflated: a hostile archive costs nothing to refuse
  const byName = new Map(entries.map((e) => [e.name, e]));
  const headerEntry = byName.get('header.json') ?? byName.get('_journal/start.json');
  const sampleEntries = entries.filter((e) => e.name.startsWith('samples/') && e.name.endsWith('.json'));
  const declared = [headerEntry, ...sampleEntries].reduce((sum, e) => sum + (e?.size ?? 0), 0);
  if (declared > MAX_INFLATED_BYTES) {
    yield errorItem(
      file.path,
      `the archive's header and samples inflate to ${mib(declared)}, over the limit of ${mib(MAX_INFLATED_BYTES)} for one log ` +
        `(${mib(bytes.byteLength)} compressed): refused unread (a zip bomb, or split the log)`,
    );
    return;
  }
  const tooLarge = (e: ZipEntry) =>
    `zip entry ${e.name}: inflates to ${mib(e.size)}, over the limit of ${mib(MAX_ENTRY_BYTES)} for one entry: refused unread`;
  const inflate = (e: ZipEntry): { ok: true; data: Uint8Array } | { ok: false; message: string } => {
    if (e.size > MAX_ENTRY_BYTES) return { ok: false, message: tooLarge(e) };
    try {
      return { ok: true, data: inflateZipEntry(bytes, e) };
    } catch (error) {
      return { ok: false, message: `zip entry ${e.name}: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
  if (!headerEntry) {
    yield errorItem('zip entry header.json', 'zip entry header.json is missing (and no _journal/start.json): not a complete Inspect log');
    return;
  }
  const entryName = headerEntry.name;
  const headerRaw = inflate(headerEntry);
  if (!headerRaw.ok) {
    yield errorItem(`zip entry ${entryName}`, headerRaw.message);
    return;
  }
  const headerJson = parseJson(decoder.decode(headerRaw.data));
  if (!headerJson.ok) {
    yield errorItem(`zip entry ${entryName} line ${headerJson.line}`, `zip entry ${entryName}: ${headerJson.message}`);
    return;
  }
  const header = evalHeader(headerJson.value);
  if (!header) {
    yield errorItem(`zip entry ${entryName} /eval`, `zip entry ${entryName}: /eval: missing (expected object)`);
    return;
  }
  if (sampleEntries.length === 0) {
    yield errorItem(file.path, 'the log has no samples');
    return;
  }
  // one entry inflated at a time, parsed and let go: memory is one sample, not the archive
  for (const entry of sampleEntries) {
    const where = `zip entry ${entry.name}`;
    const data = inflate(entry);
    if (!data.ok) {
      yield errorItem(where, data.message);
      continue;
    }
    const json = parseJson(decoder.decode(data.data));
    if (!json.ok) {
      yield errorItem(`${where} line ${json.line}`, `${where}: ${json.message}`);
      continue;
    }
    if (!isRecord(json.value)) {
      yield errorItem(where, `${where}: expected a sample object`);
      continue;
    }
    yield trajectoryItem(sampleTrajectory(json.value, header), where);
  }
}

const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

async function* parseJsonLog(file: SourceFile): AsyncIterable<ParsedItem> {
  const text = await file.readText();
  if (text.trim() === '') {
    yield errorItem(file.path, 'empty file: expected an Inspect log');
    return;
  }
  const json = parseJson(text);
  if (!json.ok) {
    yield errorItem(`line ${json.line}`, json.message);
    return;
  }
  const header = evalHeader(json.value);
  if (!header) {
    yield errorItem('/eval', '/eval: missing (expected object)');
    return;
  }
  const samples = isRecord(json.value) ? json.value.samples : undefined;
  if (!Array.isArray(samples) || samples.length === 0) {
    yield errorItem('/samples', 'the log has no samples (written with --no-log-samples?)');
    return;
  }
  for (let i = 0; i < samples.length; i++) {
    const s: unknown = samples[i];
    if (!isRecord(s)) {
      yield errorItem(`/samples/${i}`, `/samples/${i}: expected object`);
      continue;
    }
    yield trajectoryItem(sampleTrajectory(s, header), `/samples/${i}`);
  }
}

/** Zip magic + an Inspect entry name in the first local headers, or a JSON log's top keys. */
export function looksLikeInspect(head: string, headBytes: Uint8Array): boolean {
  if (isZip(headBytes)) return /(header\.json|_journal\/start\.json|samples\/[^\n]*?_epoch_\d+\.json)/.test(head);
  return (
    /^\s*\{/.test(head) &&
    /"eval"\s*:\s*\{/.test(head) &&
    /"status"\s*:\s*"(started|success|cancelled|error)"/.test(head) &&
    /"(run_id|eval_id|task_id)"\s*:/.test(head)
  );
}

export const inspectImporter: Importer = {
  format: 'inspect',
  detect(probe: Probe): boolean {
    return probe.kind === 'file' && looksLikeInspect(probe.head, probe.headBytes);
  },
  async *parse(input: ImportInput): AsyncIterable<ParsedItem> {
    if (input.kind !== 'file') {
      yield errorItem(input.dir.path, 'Inspect expects a .eval or .json log file, not a directory');
      return;
    }
    const head = await input.file.head(4);
    if (isZip(head)) yield* parseEvalZip(input.file);
    else yield* parseJsonLog(input.file);
  },
};
