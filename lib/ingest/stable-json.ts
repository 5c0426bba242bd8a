/** JSON with object keys sorted at every level: the same value always gives the same text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** A step's JSON columns (toolCalls, observations, usage) as the stable JSON text written inside the trajectory's. */
export interface StepJson {
  toolCalls: string;
  observations: string;
  usage: string;
}

/**
 * The same text as `stableStringify(trajectory)` (the content hash of every import, so hashes
 * stored before stay valid), written faster for a normalised trajectory, and with, for each
 * step, the stable text of its JSON columns, which the rows reuse instead of serialising those
 * values again (jsonb keeps no key order, so the stored values are the same).
 *
 * How: an object of the normalised model's shape (exactly its keys, none undefined: what
 * trajectorySchema's parse builds) is written field by field in sorted key order, its strings and
 * numbers by JSON.stringify; free-form values (arguments, metadata, the recording, ...) and any
 * object not of the exact shape go through `stableStringify`. A trajectory not of the shape at
 * the top is written by `stableStringify` whole, with no step pieces (null).
 */
export function stableTrajectoryText(trajectory: unknown): { text: string; steps: (StepJson | null)[] | null } {
  if (!exactly(trajectory, TRAJECTORY_KEYS) || !Array.isArray(trajectory.steps)) return { text: stableStringify(trajectory), steps: null };
  const t = trajectory;
  const stepList = t.steps as unknown[];
  const pieces: (StepJson | null)[] = new Array(stepList.length);
  let steps = '[';
  for (let i = 0; i < stepList.length; i++) {
    if (i > 0) steps += ',';
    const s = stepList[i];
    if (!exactly(s, STEP_KEYS)) {
      pieces[i] = null;
      steps += inArray(s);
      continue;
    }
    const piece: StepJson = {
      toolCalls: arrayOf(s.toolCalls, toolCallText),
      observations: arrayOf(s.observations, observationText),
      usage: s.usage === null ? 'null' : usageText(s.usage),
    };
    pieces[i] = piece;
    steps +=
      `{"castTime":${scalar(s.castTime)},"index":${scalar(s.index)},"observations":${piece.observations},` +
      `"reasoning":${scalar(s.reasoning)},"source":${scalar(s.source)},"text":${scalar(s.text)},` +
      `"timestamp":${scalar(s.timestamp)},"toolCalls":${piece.toolCalls},"usage":${piece.usage}}`;
  }
  steps += ']';
  const text =
    `{"endedAt":${stableStringify(t.endedAt)},"exitStatus":${stableStringify(t.exitStatus)},"externalId":${stableStringify(t.externalId)},` +
    `"format":${stableStringify(t.format)},"judgeScores":${stableStringify(t.judgeScores)},"metadata":${stableStringify(t.metadata)},` +
    `"policy":${stableStringify(t.policy)},"startedAt":${stableStringify(t.startedAt)},"steps":${steps},` +
    `"submission":${stableStringify(t.submission)},"task":${stableStringify(t.task)},"terminal":${stableStringify(t.terminal)},` +
    `"usage":${stableStringify(t.usage)},"verifier":${stableStringify(t.verifier)}}`;
  return { text, steps: pieces };
}

// each list sorted (the order the text writes them in)
const TRAJECTORY_KEYS = [
  'endedAt',
  'exitStatus',
  'externalId',
  'format',
  'judgeScores',
  'metadata',
  'policy',
  'startedAt',
  'steps',
  'submission',
  'task',
  'terminal',
  'usage',
  'verifier',
];
const STEP_KEYS = ['castTime', 'index', 'observations', 'reasoning', 'source', 'text', 'timestamp', 'toolCalls', 'usage'];
const TOOL_CALL_KEYS = ['arguments', 'id', 'name'];
const OBSERVATION_KEYS = ['content', 'isError', 'toolCallId'];
const USAGE_KEYS = ['completionTokens', 'costUsd', 'promptTokens'];

/** A plain object with exactly these keys, none of them undefined (or a function: JSON leaves those out). */
function exactly(v: unknown, keys: readonly string[]): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Date || Object.keys(v).length !== keys.length) return false;
  for (const key of keys) {
    const x = (v as Record<string, unknown>)[key];
    if (x === undefined || typeof x === 'function') return false;
  }
  return true;
}

/** An array element as JSON writes it (undefined and functions become null). */
function inArray(x: unknown): string {
  return (stableStringify(x) as string | undefined) ?? 'null';
}

/** Only scalars (string, number, boolean, null) are written by JSON.stringify directly; anything else by stableStringify. */
function scalar(v: unknown): string {
  return typeof v === 'object' && v !== null ? stableStringify(v) : (JSON.stringify(v) as string);
}

function arrayOf(v: unknown, item: (x: unknown) => string): string {
  if (!Array.isArray(v)) return stableStringify(v);
  let out = '[';
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    out += (i > 0 ? ',' : '') + (x === undefined || typeof x === 'function' ? 'null' : item(x));
  }
  return out + ']';
}

function toolCallText(c: unknown): string {
  if (!exactly(c, TOOL_CALL_KEYS)) return stableStringify(c);
  return `{"arguments":${stableStringify(c.arguments)},"id":${scalar(c.id)},"name":${scalar(c.name)}}`;
}

function observationText(o: unknown): string {
  if (!exactly(o, OBSERVATION_KEYS)) return stableStringify(o);
  return `{"content":${scalar(o.content)},"isError":${scalar(o.isError)},"toolCallId":${scalar(o.toolCallId)}}`;
}

function usageText(u: unknown): string {
  if (!exactly(u, USAGE_KEYS)) return stableStringify(u);
  return `{"completionTokens":${scalar(u.completionTokens)},"costUsd":${scalar(u.costUsd)},"promptTokens":${scalar(u.promptTokens)}}`;
}
