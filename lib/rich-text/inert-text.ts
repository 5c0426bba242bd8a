/**
 * Agent output is untrusted text. React already renders strings as text nodes (never HTML);
 * this also makes terminal control characters visible and inert: ESC becomes `␛` (so
 * `\x1b[31m` reads as `␛[31m`), other C0 controls their Unicode control pictures, C1 controls
 * and bidirectional overrides (which can reorder what a reader sees) a visible `⟨U+XXXX⟩`.
 * Tabs and newlines stay; CRLF becomes LF.
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function inert(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, (ch) => {
    const code = ch.charCodeAt(0);
    if (code === 0x1b) return '␛';
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return '␡';
    return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
  });
}

/** Pretty JSON for tool arguments and metadata; strings are shown as they are. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
