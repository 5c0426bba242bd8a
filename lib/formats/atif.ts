import { z } from 'zod';
import { criteriaFromTexts } from './criteria';
import { compileFastCheck } from './fast-check';
import type { ImportInput, Importer, ParsedItem, Probe } from './importer';
import { promptTaskName } from './chat-conversations';
import { baseName, errorItem, trajectoryItem } from './item';
import { formatIssues, zodIssues } from './json-pointer';
import { asCount, isRecord, parseJson } from './parse-json';
import type { Criterion, Observation, Step, ToolCall, Trajectory, Usage } from './trajectory';

/**
 * ATIF, Harbor's Agent Trajectory Interchange Format (RFC 0001, v1.0–v1.6): one JSON object
 * `{schema_version: "ATIF-v1.x", session_id, agent {name, version, model_name?}, steps[],
 * notes?, final_metrics?, extra?}`. v1.6 files in the wild (harbor's exporters, agent adapters)
 * leave out `session_id` and `agent.version`: both are optional here.
 *
 * Validation follows the RFC's required fields (step_id, source, message, tool call id/name/
 * object arguments, observation.results) and keeps unknown fields (the format grows by
 * adding optional ones). Errors name the JSON pointer of the first offending values.
 *
 * Mapping: each ATIF step is one step (system | user | agent); an agent step's
 * `observation.results` become that step's observations (paired through `source_call_id`).
 * Task name: `extra.task_name` / `extra.task_id` / `extra.task` when the producer recorded one,
 * else the instruction (see `atifTaskName`: a standalone file is not its own task). Instruction: the first user step's message. Acceptance criteria:
 * `extra.acceptance_criteria` (strings) when present.
 */

const messageSchema = z.union([
  z.string(),
  // later producers may write content parts; text parts are kept, others become placeholders
  z.array(z.looseObject({ type: z.string() })),
]);

const toolCallSchema = z.looseObject({
  tool_call_id: z.string(),
  function_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

const observationResultSchema = z.looseObject({
  source_call_id: z.string().nullish(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).nullish(),
  subagent_trajectory_ref: z.array(z.looseObject({ session_id: z.string() })).nullish(),
  is_error: z.boolean().nullish(),
});

const metricsSchema = z.looseObject({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  cached_tokens: z.number().nullish(),
  cost_usd: z.number().nullish(),
});

export const atifStepSchema = z.looseObject({
  step_id: z.number().int(),
  timestamp: z.string().nullish(),
  source: z.enum(['system', 'user', 'agent']),
  model_name: z.string().nullish(),
  message: messageSchema,
  reasoning_content: z.string().nullish(),
  tool_calls: z.array(toolCallSchema).nullish(),
  observation: z.looseObject({ results: z.array(observationResultSchema) }).nullish(),
  metrics: metricsSchema.nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export type AtifStep = z.infer<typeof atifStepSchema>;

export const atifDocumentSchema = z.looseObject({
  schema_version: z.string().regex(/^ATIF-v\d+(\.\d+)*$/, 'expected "ATIF-v<major>.<minor>"'),
  // required up to v1.5; producers of v1.6+ (harbor's own exporters among them) may leave it out
  session_id: z.string().nullish(),
  agent: z.looseObject({
    name: z.string(),
    version: z.string().nullish(),
    model_name: z.string().nullish(),
    extra: z.record(z.string(), z.unknown()).nullish(),
  }),
  steps: z.array(atifStepSchema),
  notes: z.string().nullish(),
  final_metrics: z
    .looseObject({
      total_prompt_tokens: z.number().nullish(),
      total_completion_tokens: z.number().nullish(),
      total_cached_tokens: z.number().nullish(),
      total_cost_usd: z.number().nullish(),
      total_steps: z.number().nullish(),
    })
    .nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});
export type AtifDocument = z.infer<typeof atifDocumentSchema>;

export type AtifParseResult = { ok: true; doc: AtifDocument } | { ok: false; where: string; message: string };

/** Parses and validates ATIF text. `where` is a JSON pointer (`/steps/3/tool_calls/0/arguments`) or `line L`. */
export function parseAtifText(text: string): AtifParseResult {
  if (text.trim() === '') return { ok: false, where: 'line 1', message: 'empty file: expected an ATIF JSON object' };
  const json = parseJson(text);
  if (!json.ok) return { ok: false, where: `line ${json.line}`, message: json.message };
  return validateAtif(json.value);
}

// the document as parsed when zod would return the same value (lib/formats/fast-check.ts), else zod's parse and its errors
const atifFastCheck = compileFastCheck(atifDocumentSchema);

export function validateAtif(value: unknown): AtifParseResult {
  if (atifFastCheck?.(value)) return { ok: true, doc: value as AtifDocument };
  const parsed = atifDocumentSchema.safeParse(value);
  if (parsed.success) return { ok: true, doc: parsed.data };
  const issues = zodIssues(parsed.error, value);
  return { ok: false, where: issues[0]?.pointer ?? '/', message: formatIssues(issues) };
}

function partsText(parts: unknown[]): string {
  return parts
    .map((p) => {
      if (!isRecord(p)) return '';
      if (typeof p.text === 'string') return p.text;
      return `[${String(p.type)}]`;
    })
    .filter((s) => s !== '')
    .join('\n');
}

function messageText(message: AtifStep['message']): string {
  return typeof message === 'string' ? message : partsText(message);
}

function stepUsage(metrics: AtifStep['metrics']): Usage | null {
  if (!metrics) return null;
  const usage = {
    promptTokens: asCount(metrics.prompt_tokens),
    completionTokens: asCount(metrics.completion_tokens),
    costUsd: asCount(metrics.cost_usd),
  };
  return usage.promptTokens === null && usage.completionTokens === null && usage.costUsd === null ? null : usage;
}

/** Sums step usages; null when no step has any. */
export function sumUsage(usages: (Usage | null)[]): Usage | null {
  const present = usages.filter((u): u is Usage => u !== null);
  if (present.length === 0) return null;
  const total = (key: keyof Usage) => {
    const values = present.map((u) => u[key]).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
  };
  return { promptTokens: total('promptTokens'), completionTokens: total('completionTokens'), costUsd: total('costUsd') };
}

function observationOf(result: z.infer<typeof observationResultSchema>): Observation {
  let content = '';
  if (typeof result.content === 'string') content = result.content;
  else if (Array.isArray(result.content)) content = partsText(result.content);
  else if (result.subagent_trajectory_ref && result.subagent_trajectory_ref.length > 0) {
    content = result.subagent_trajectory_ref.map((r) => `[subagent ${r.session_id}]`).join('\n');
  }
  return { toolCallId: result.source_call_id ?? null, content, isError: result.is_error === true };
}

/** ATIF steps -> normalised steps (castTime left null; Harbor fills it from the recording). */
export function atifSteps(doc: AtifDocument): Step[] {
  return doc.steps.map((s, index) => {
    const toolCalls: ToolCall[] = (s.tool_calls ?? []).map((c) => ({ id: c.tool_call_id, name: c.function_name, arguments: c.arguments }));
    return {
      index,
      source: s.source,
      text: messageText(s.message),
      reasoning: s.reasoning_content ?? null,
      toolCalls,
      observations: (s.observation?.results ?? []).map(observationOf),
      timestamp: s.timestamp ?? null,
      castTime: null,
      usage: stepUsage(s.metrics),
    };
  });
}

/** Trajectory-level usage: `final_metrics` totals, else the sum of step metrics. */
export function atifUsage(doc: AtifDocument): Usage | null {
  const fm = doc.final_metrics;
  if (fm) {
    const usage = {
      promptTokens: asCount(fm.total_prompt_tokens),
      completionTokens: asCount(fm.total_completion_tokens),
      costUsd: asCount(fm.total_cost_usd),
    };
    if (usage.promptTokens !== null || usage.completionTokens !== null || usage.costUsd !== null) return usage;
  }
  return sumUsage(doc.steps.map((s) => stepUsage(s.metrics)));
}

/** The policy model: `agent.model_name`, else the first agent step's `model_name`. */
export function atifModel(doc: AtifDocument): string | null {
  return doc.agent.model_name ?? doc.steps.find((s) => s.source === 'agent' && s.model_name)?.model_name ?? null;
}

export function atifInstruction(doc: AtifDocument): string {
  const first = doc.steps.find((s) => s.source === 'user');
  return first ? messageText(first.message) : '';
}

/** `acceptance_criteria` (array of strings) from a metadata object, as task criteria. */
export function criteriaFromMetadata(meta: unknown): Criterion[] {
  if (!isRecord(meta)) return [];
  const raw = meta.acceptance_criteria ?? meta.acceptanceCriteria;
  if (!Array.isArray(raw)) return [];
  return criteriaFromTexts(
    raw.filter((x): x is string => typeof x === 'string'),
    'task',
  );
}

function extraString(extra: Record<string, unknown> | null | undefined, ...keys: string[]): string | null {
  if (!extra) return null;
  for (const key of keys) {
    const v = extra[key];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
}

/**
 * The task of a standalone ATIF file: the producer's task name when it recorded one, else the
 * instruction (so runs of the same task by two policies, in two files, meet as one task), else
 * the session id, else the file's name.
 */
export function atifTaskName(doc: AtifDocument, path: string | null): string {
  const named = extraString(doc.extra, 'task_name', 'task_id', 'task');
  if (named) return named;
  const instruction = atifInstruction(doc);
  if (instruction.trim() !== '') return promptTaskName(instruction);
  return doc.session_id || (path ? baseName(path, '.json') : '') || 'atif-trajectory';
}

export function atifTrajectory(doc: AtifDocument, path: string | null = null): Trajectory {
  const steps = atifSteps(doc);
  const stamps = steps.map((s) => s.timestamp).filter((t): t is string => t !== null);
  return {
    format: 'atif',
    externalId: doc.session_id || null,
    task: {
      name: atifTaskName(doc, path),
      instruction: atifInstruction(doc),
      acceptanceCriteria: criteriaFromMetadata(doc.extra),
      environment: null,
      split: null,
      metadata: {},
    },
    policy: { model: atifModel(doc), checkpoint: null, agent: doc.agent.name },
    steps,
    verifier: null,
    judgeScores: [],
    usage: atifUsage(doc),
    terminal: null,
    submission: null,
    exitStatus: null,
    startedAt: stamps[0] ?? null,
    endedAt: stamps[stamps.length - 1] ?? null,
    metadata: {
      schemaVersion: doc.schema_version,
      ...(doc.agent.version ? { agentVersion: doc.agent.version } : {}),
      ...(doc.notes ? { notes: doc.notes } : {}),
      ...(doc.extra ? { extra: doc.extra } : {}),
    },
  };
}

/** Sniffs ATIF in the start of a JSON text (the version string is near the top in practice). */
export function looksLikeAtif(head: string): boolean {
  return /^\s*\{/.test(head) && /"schema_version"\s*:\s*"ATIF-v\d/.test(head);
}

export const atifImporter: Importer = {
  format: 'atif',
  detect(probe: Probe): boolean {
    return probe.kind === 'file' && looksLikeAtif(probe.head);
  },
  async *parse(input: ImportInput): AsyncIterable<ParsedItem> {
    if (input.kind !== 'file') {
      yield errorItem(input.dir.path, 'ATIF expects a single JSON file, not a directory');
      return;
    }
    const parsed = parseAtifText(await input.file.readText());
    if (!parsed.ok) {
      yield errorItem(parsed.where, parsed.message);
      return;
    }
    yield trajectoryItem(atifTrajectory(parsed.doc, input.file.path), '/');
  },
};
