import type { ImportInput, Importer, ParsedItem, Probe, SourceFile } from './importer';
import { baseName, errorItem, isoFromUnix, trajectoryItem } from './item';
import { asNumber, asString, isRecord, parseJson } from './parse-json';
import type { CastEvent, Step, TerminalRecording, Trajectory } from './trajectory';

/**
 * asciinema recordings (asciicast v2 and v3), streamed line by line (casts reach tens of MB).
 *
 * v2: header `{"version": 2, "width", "height", "timestamp"?, "title"?, ...}`, events
 *     `[time, code, data]` with `time` in seconds since the start.
 * v3: header `{"version": 3, "term": {"cols", "rows", ...}, "timestamp"?, "title"?, ...}`,
 *     events `[interval, code, data]` with `interval` since the previous event, an `x` (exit)
 *     event, and `#` comment lines.
 *
 * Both become a `TerminalRecording` with absolute times. Times are kept to the microsecond
 * (v3 intervals are summed as integer microseconds) so a v2 and a v3 file of the same timeline
 * give identical events. Blank lines and `#` lines are skipped in both versions; events with an
 * unknown code are skipped (the spec tells players to ignore them); v2 events out of time
 * order are sorted (stable).
 *
 * A cast alone imports as one trajectory (see `castSteps` for the step rule); task name = header
 * title, else the file name without `.cast`.
 */

export const BURST_IDLE_SECONDS = 2;

export interface CastHeader {
  version: 2 | 3;
  width: number;
  height: number;
  /** unix seconds of the recording start, when the header has it */
  timestamp: number | null;
  title: string | null;
  command: string | null;
  idleTimeLimit: number | null;
  env: Record<string, string>;
}

export type CastParseResult =
  { ok: true; header: CastHeader; recording: TerminalRecording } | { ok: false; where: string; message: string };

type HeaderResult = { ok: true; header: CastHeader } | { ok: false; message: string };

const positiveInt = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null);

export function parseCastHeader(line: string): HeaderResult {
  if (line.trim() === '') return { ok: false, message: 'empty header line: expected an asciicast header object' };
  const json = parseJson(line);
  if (!json.ok)
    return {
      ok: false,
      message: `header: invalid JSON at column ${json.column}: ${json.message.replace(/^invalid JSON at line \d+, column \d+: /, '')}`,
    };
  const h = json.value;
  if (!isRecord(h)) return { ok: false, message: 'header: expected a JSON object' };
  const env: Record<string, string> = {};
  if (isRecord(h.env)) for (const [k, v] of Object.entries(h.env)) if (typeof v === 'string') env[k] = v;
  const common = {
    timestamp: asNumber(h.timestamp),
    title: asString(h.title),
    command: asString(h.command),
    idleTimeLimit: asNumber(h.idle_time_limit),
    env,
  };
  if (h.version === 2) {
    const width = positiveInt(h.width);
    const height = positiveInt(h.height);
    if (width === null || height === null) return { ok: false, message: 'header: v2 needs positive integer "width" and "height"' };
    return { ok: true, header: { version: 2, width, height, ...common } };
  }
  if (h.version === 3) {
    const term = isRecord(h.term) ? h.term : null;
    const width = positiveInt(term?.cols);
    const height = positiveInt(term?.rows);
    if (width === null || height === null) return { ok: false, message: 'header: v3 needs "term" with positive integer "cols" and "rows"' };
    return { ok: true, header: { version: 3, width, height, ...common } };
  }
  if (h.version === 1) return { ok: false, message: 'header: asciicast v1 is not supported (re-record or convert to v2/v3)' };
  return { ok: false, message: `header: unsupported asciicast version ${JSON.stringify(h.version)}` };
}

const CODES = new Set(['o', 'i', 'r', 'm', 'x']);
const MICRO = 1_000_000;
const toMicros = (seconds: number) => Math.round(seconds * MICRO);

/** Reads a cast through `lines()`; errors name the line (`line 7`). */
export async function parseCast(file: SourceFile): Promise<CastParseResult> {
  let header: CastHeader | null = null;
  let lineNo = 0;
  let clock = 0; // v3: accumulated microseconds
  let sorted = true;
  let last = 0;
  const events: CastEvent[] = [];
  for await (const line of file.lines()) {
    lineNo++;
    if (header === null) {
      const h = parseCastHeader(lineNo === 1 && line.charCodeAt(0) === 0xfeff ? line.slice(1) : line);
      if (!h.ok) return { ok: false, where: `line ${lineNo}`, message: `line ${lineNo}: ${h.message}` };
      header = h.header;
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const bad = (why: string): CastParseResult => ({ ok: false, where: `line ${lineNo}`, message: `line ${lineNo}: ${why}` });
    const json = parseJson(line);
    if (!json.ok)
      return bad(
        `invalid event: invalid JSON at column ${json.column}: ${json.message.replace(/^invalid JSON at line \d+, column \d+: /, '')}`,
      );
    const e = json.value;
    if (!Array.isArray(e) || e.length !== 3) return bad('invalid event: expected [time, code, data]');
    const [time, code, data] = e as [unknown, unknown, unknown];
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0)
      return bad(`invalid event: time must be a non-negative number, got ${JSON.stringify(time)}`);
    if (typeof code !== 'string') return bad(`invalid event: code must be a string, got ${JSON.stringify(code)}`);
    if (typeof data !== 'string') return bad(`invalid event: data must be a string, got ${JSON.stringify(data)}`);
    let micros: number;
    if (header.version === 3) {
      clock += toMicros(time);
      micros = clock;
    } else {
      micros = toMicros(time);
    }
    if (!CODES.has(code)) continue;
    if (micros < last) sorted = false;
    last = micros;
    events.push([micros / MICRO, code as CastEvent[1], data]);
  }
  if (header === null) return { ok: false, where: 'line 1', message: 'line 1: empty file: expected an asciicast header' };
  if (!sorted) events.sort((a, b) => a[0] - b[0]);
  return {
    ok: true,
    header,
    recording: { version: header.version, width: header.width, height: header.height, title: header.title, events },
  };
}

/** Sniffs the first line of a probe for an asciicast v2/v3 header. */
export function looksLikeCast(head: string): boolean {
  const text = head.charCodeAt(0) === 0xfeff ? head.slice(1) : head;
  const nl = text.indexOf('\n');
  // a header is an object with "version": 2 or 3; a first line without that word (nor a \u escape that could spell it) is none
  // (a pretty-printed JSON file's first line is "{": refused here without a failing JSON.parse and its error scan)
  const first = nl === -1 ? text : text.slice(0, nl);
  if (!first.includes('version') && !first.includes('\\u')) return false;
  if (nl === -1 && text.length < 1024) return parseCastHeader(text).ok;
  if (nl !== -1) return parseCastHeader(text.slice(0, nl)).ok;
  // a huge first line (large env/theme): fall back to the version key up front
  return /^\s*\{\s*"version"\s*:\s*[23]\s*,/.test(text) && /"(width|term)"\s*:/.test(text);
}

function stamp(header: CastHeader, t: number): string | null {
  return header.timestamp === null ? null : isoFromUnix(header.timestamp + t);
}

/**
 * Steps for a cast imported on its own:
 * - with markers (`m` events): one `agent` step per marker (text = the marker label, or
 *   `marker N` when empty), at the marker's time; the output printed until the next marker is
 *   the step's observation. Output before the first marker is an `environment` step.
 * - without markers: one `environment` step per burst of output, where a burst ends when no
 *   output arrives for more than BURST_IDLE_SECONDS (2 s); the step text is the burst's raw
 *   output (ANSI escapes kept as-is) and its castTime the burst's first output.
 */
export function castSteps(recording: TerminalRecording, header: CastHeader): Step[] {
  const steps: Step[] = [];
  const push = (source: Step['source'], text: string, t: number, output: string | null) =>
    steps.push({
      index: steps.length,
      source,
      text,
      reasoning: null,
      toolCalls: [],
      observations: output ? [{ toolCallId: null, content: output, isError: false }] : [],
      timestamp: stamp(header, t),
      castTime: t,
      usage: null,
    });
  const markers = recording.events.filter((e) => e[1] === 'm');
  if (markers.length > 0) {
    let pending: { label: string; t: number } | null = null;
    let output = '';
    let firstOutputAt: number | null = null;
    const flush = () => {
      if (pending) push('agent', pending.label, pending.t, output);
      else if (output !== '') push('environment', output, firstOutputAt ?? 0, null);
      output = '';
      firstOutputAt = null;
    };
    let n = 0;
    for (const [t, code, data] of recording.events) {
      if (code === 'm') {
        flush();
        n++;
        pending = { label: data.trim() === '' ? `marker ${n}` : data, t };
      } else if (code === 'o') {
        if (firstOutputAt === null) firstOutputAt = t;
        output += data;
      }
    }
    flush();
    return steps;
  }
  let burst = '';
  let start = 0;
  let prev = -Infinity;
  for (const [t, code, data] of recording.events) {
    if (code !== 'o') continue;
    if (burst !== '' && t - prev > BURST_IDLE_SECONDS) {
      push('environment', burst, start, null);
      burst = '';
    }
    if (burst === '') start = t;
    burst += data;
    prev = t;
  }
  if (burst !== '') push('environment', burst, start, null);
  return steps;
}

export function castTrajectory(path: string, header: CastHeader, recording: TerminalRecording): Trajectory {
  const lastEvent = recording.events[recording.events.length - 1];
  const exit = [...recording.events].reverse().find((e) => e[1] === 'x');
  return {
    format: 'asciinema',
    externalId: null,
    task: {
      name: header.title?.trim() || baseName(path, '.cast') || 'recording',
      instruction: '',
      acceptanceCriteria: [],
      environment: null,
      split: null,
      metadata: {},
    },
    policy: { model: null, checkpoint: null, agent: null },
    steps: castSteps(recording, header),
    verifier: null,
    judgeScores: [],
    usage: null,
    terminal: recording,
    submission: null,
    exitStatus: exit ? exit[2] : null,
    startedAt: stamp(header, 0),
    endedAt: stamp(header, lastEvent ? lastEvent[0] : 0),
    metadata: {
      ...(header.command ? { command: header.command } : {}),
      ...(header.idleTimeLimit !== null ? { idleTimeLimit: header.idleTimeLimit } : {}),
      ...(Object.keys(header.env).length > 0 ? { env: header.env } : {}),
    },
  };
}

export const asciinemaImporter: Importer = {
  format: 'asciinema',
  detect(probe: Probe): boolean {
    return probe.kind === 'file' && looksLikeCast(probe.head);
  },
  async *parse(input: ImportInput): AsyncIterable<ParsedItem> {
    if (input.kind !== 'file') {
      yield errorItem(input.dir.path, 'asciinema expects a single .cast file, not a directory');
      return;
    }
    const parsed = await parseCast(input.file);
    if (!parsed.ok) {
      yield errorItem(parsed.where, parsed.message);
      return;
    }
    yield trajectoryItem(castTrajectory(input.file.path, parsed.header, parsed.recording), input.file.path);
  },
};
