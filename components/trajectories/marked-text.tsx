import type { ReactNode } from 'react';

// the markers inert() puts in place of control characters
const MARKER = /[\u2400-\u2421]|⟨U\+[0-9A-F]{4}⟩/g;
/** Past this many markers the text is left plain (a long terminal log would become thousands of spans). */
const MAX_MARKERS = 2000;

/**
 * Already-inert text (see inert-text.ts) with its control-character markers tinted, so an
 * escape sequence stands out from the agent's own characters. Text nodes only.
 */
export function MarkedText({ text }: { text: string }): ReactNode {
  const parts: ReactNode[] = [];
  let last = 0;
  let count = 0;
  for (const match of text.matchAll(MARKER)) {
    if (++count > MAX_MARKERS) return text;
    const at = match.index;
    if (at > last) parts.push(text.slice(last, at));
    parts.push(
      <span key={at} className="text-amber-500" title="control character (shown, not interpreted)">
        {match[0]}
      </span>,
    );
    last = at + match[0].length;
  }
  if (count === 0) return text;
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}
