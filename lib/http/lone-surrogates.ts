/**
 * Unpaired UTF-16 surrogates ("\ud800" in a JSON body) are replaced with U+FFFD, the replacement
 * character, wherever text comes in: JSON bodies (read-body.ts's parseJsonBytes, every /api/v1
 * body and the fast lane's), server actions' input (action.ts). Before, a comment, campaign name,
 * rubric title, adjudication note or token name carrying one answered 500: PostgreSQL's jsonb
 * refuses the `\ud800` escape JSON.stringify writes for it, while a text column took it as U+FFFD
 * (UTF-8 cannot encode a lone surrogate; every encoder, node's and the pg driver's included,
 * writes U+FFFD instead).
 *
 * Replaced rather than refused: that is what the importers already do with trajectory files
 * (lib/ingest/queries/storable-trajectory.ts's storableText; an agent's output cut between the
 * halves of an emoji is common and no reason to refuse a run), what a browser's UTF-8 encoding
 * does to a form, and what a text column did anyway; so one string reads the same whichever
 * column it lands in. Text that arrives as bytes (URLs, form posts, files, the command line) is
 * decoded from UTF-8 and cannot hold a lone surrogate at all: only a `\uD8xx` JSON escape can.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** `s` with each unpaired surrogate as U+FFFD (the same string when it has none). */
export function wellFormedText(s: string): string {
  return LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATES, '\uFFFD') : s;
}

/**
 * A parsed JSON value (or a server action's plain input) whose strings and keys are well-formed:
 * the value itself when nothing needed replacing (the usual case costs one scan), else a copy
 * with only the changed parts rebuilt.
 */
export function withWellFormedText<T>(value: T): T {
  return wellFormed(value) as T;
}

function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return wellFormedText(value);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = wellFormed(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  if (value && typeof value === 'object' && isPlainObject(value)) {
    let changed = false;
    const entries = Object.entries(value).map(([k, v]) => {
      const key = wellFormedText(k);
      const next = wellFormed(v);
      if (key !== k || next !== v) changed = true;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/** Objects JSON and React's action encoding make; a FormData, Date or Map is left as it is. */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
