import type { ParsedItem } from './importer';
import { formatIssues, zodIssues } from './json-pointer';
import { trajectorySchema, type Trajectory } from './trajectory';

/**
 * The last gate of every importer: validates the trajectory it built against the normalised
 * model and turns a failure (an importer bug or an out-of-range value) into an error item
 * instead of a crash.
 */
export function trajectoryItem(trajectory: Trajectory, where: string): ParsedItem {
  const parsed = trajectorySchema.safeParse(trajectory);
  if (parsed.success) return { ok: true, trajectory: parsed.data, where };
  return { ok: false, where, message: `internal: built trajectory is invalid: ${formatIssues(zodIssues(parsed.error, trajectory))}` };
}

export function errorItem(where: string, message: string): ParsedItem {
  return { ok: false, where, message };
}

/** ISO-8601 from unix seconds, or null when out of range. */
export function isoFromUnix(seconds: number): string | null {
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** unix seconds from an ISO-8601 string, or null. */
export function unixFromIso(iso: string | null | undefined): number | null {
  if (!iso) return null;
  // a date-time without a zone (Python's naive isoformat) is read as UTC, never local time
  const trimmed = iso.trim();
  const zoned = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(trimmed) ? `${trimmed.replace(' ', 'T')}Z` : trimmed;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? null : ms / 1000;
}

/** The last path segment without the given extension(s). */
export function baseName(path: string, ...extensions: string[]): string {
  let name =
    path
      .split(/[\\/]/)
      .filter((s) => s !== '')
      .pop() ?? path;
  for (const ext of extensions) {
    if (name.toLowerCase().endsWith(ext) && name.length > ext.length) {
      name = name.slice(0, -ext.length);
      break;
    }
  }
  return name;
}
