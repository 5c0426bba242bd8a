/**
 * The one CSV writer (agreement tables, insight tables, every download). CSV (RFC 4180): fields with a comma, quote, CR or LF are quoted and quotes doubled; text that
 * a spreadsheet would run as a formula (starting with = + - @ or a tab, and not a number) gets a
 * leading apostrophe. Numbers are written as they are; null/undefined as an empty field.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(headers: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [headers, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** A file name safe for Content-Disposition: letters, digits, dot, dash, underscore. */
export function safeFileName(name: string): string {
  return (
    name
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'download'
  );
}
