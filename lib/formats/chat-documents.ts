import type { SourceFile } from './importer';
import { isRecord, parseJson } from './parse-json';

/**
 * Reading the JSON documents of a file for the chat-style importers: one JSON document, or
 * JSONL (one document per line, each located as `line N`). A syntax error names line and column.
 */

export type JsonDocument =
  | { ok: true; /** '' for a whole-file document, `line N` for a JSONL line */ prefix: string; value: unknown }
  | { ok: false; where: string; message: string };

/** The file as exactly one JSON document. */
export async function readJsonDocument(file: SourceFile): Promise<JsonDocument> {
  const text = await file.readText();
  if (text.trim() === '') return { ok: false, where: 'line 1', message: 'empty input: expected a JSON document' };
  const parsed = parseJson(text);
  if (parsed.ok) return { ok: true, prefix: '', value: parsed.value };
  return { ok: false, where: `line ${parsed.line}`, message: parsed.message };
}

function isStructured(line: string): boolean {
  const t = line.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  const parsed = parseJson(t);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null;
}

/**
 * A whole JSON document (yielded once with prefix ''), or JSONL: every non-blank line parsed on
 * its own, so one broken line yields an error and the others still come through.
 */
export async function* readJsonOrJsonl(file: SourceFile): AsyncIterable<JsonDocument> {
  const text = await file.readText();
  if (text.trim() === '') {
    yield { ok: false, where: 'line 1', message: 'empty input: expected JSON or JSON Lines' };
    return;
  }
  const whole = parseJson(text);
  if (whole.ok) {
    yield { ok: true, prefix: '', value: whole.value };
    return;
  }
  const lines = text.split(/\r?\n/);
  const nonBlank = lines.filter((l) => l.trim() !== '');
  const looksJsonl = nonBlank.length >= 2 && nonBlank.slice(0, 5).some(isStructured);
  if (!looksJsonl) {
    yield { ok: false, where: `line ${whole.line}`, message: whole.message };
    return;
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const where = `line ${i + 1}`;
    const parsed = parseJson(line);
    if (parsed.ok) yield { ok: true, prefix: where, value: parsed.value };
    else yield { ok: false, where, message: parsed.message.replace(/at line 1, column (\d+)/, `at line ${i + 1}, column $1`) };
  }
}

/** One line of a JSONL log: its line number and the JSON object on it. */
export interface ObjectLine {
  line: number;
  value: Record<string, unknown>;
}

/**
 * A JSONL log whose every non-blank line is one JSON object (a coding agent's session file): its
 * lines, else the first line that is not JSON or not an object, or the file being empty, as an error.
 */
export async function readObjectLines(
  file: SourceFile,
  messages: { notObject: string; empty: string },
): Promise<{ ok: true; lines: ObjectLine[] } | { ok: false; where: string; message: string }> {
  const lines: ObjectLine[] = [];
  let n = 0;
  for await (const raw of file.lines()) {
    n++;
    if (raw.trim() === '') continue;
    const parsed = parseJson(raw);
    if (!parsed.ok) return { ok: false, where: `line ${n}`, message: parsed.message.replace(/at line 1, column/, `at line ${n}, column`) };
    if (!isRecord(parsed.value)) return { ok: false, where: `line ${n}`, message: messages.notObject };
    lines.push({ line: n, value: parsed.value });
  }
  if (lines.length === 0) return { ok: false, where: 'line 1', message: messages.empty };
  return { ok: true, lines };
}
