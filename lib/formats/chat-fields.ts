import { buildTrajectory } from './build-trajectory';
import { isRecord, parseJson } from './parse-json';
import type { Trajectory } from './trajectory';

/** Small field helpers shared by the chat-style importers. */

/** A nested value by keys, or undefined when any step is missing / not an object. */
export function dig(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function digString(value: unknown, ...keys: string[]): string | null {
  const v = dig(value, ...keys);
  return typeof v === 'string' && v !== '' ? v : null;
}

/** An object, or a string holding a JSON object (SWE-agent stores `replay_config` as a JSON string). */
export function objectOrJson(value: unknown): Record<string, unknown> | null {
  if (isRecord(value)) return value;
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    if (parsed.ok && isRecord(parsed.value)) return parsed.value;
  }
  return null;
}

/** A list of strings, or a string holding a JSON list of strings (SWE-bench `FAIL_TO_PASS`). */
export function stringList(value: unknown): string[] {
  let v = value;
  if (typeof v === 'string') {
    const parsed = parseJson(v);
    v = parsed.ok ? parsed.value : [v];
  }
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/** Text for a value that should be text: strings as-is, other JSON compactly serialised. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  return JSON.stringify(value);
}

/** A trajectory with every optional part empty, to spread the known parts over. */
export function emptyTrajectory(format: Trajectory['format'], taskName: string): Trajectory {
  return buildTrajectory({ format, task: { name: taskName } });
}

/** Drops undefined / null entries so metadata stays small and JSON-clean. */
export function compact(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) if (v !== undefined && v !== null) out[k] = v;
  return out;
}
