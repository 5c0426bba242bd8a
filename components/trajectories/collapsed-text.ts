/** ExpandableText's defaults: what it shows of a long text while collapsed */
export const COLLAPSED_LINES = 24;
export const COLLAPSED_CHARS = 4000;

/**
 * What ExpandableText shows of a long text while collapsed: its first `maxLines` lines, at most
 * `maxChars` characters, with a closing "…" line when something was cut (`rich`: the text it
 * typesets). A module of its own, not the 'use client' one, so the server component that
 * typesets it (TypesetExpandableText) cuts it as the browser does.
 */
export function collapsedText(
  text: string,
  maxLines: number,
  maxChars: number,
): { shown: string; lines: number; long: boolean; rich: string } {
  const all = text.split('\n');
  const long = all.length > maxLines || text.length > maxChars;
  let shown = text;
  if (long) {
    shown = all.slice(0, maxLines).join('\n');
    if (shown.length > maxChars) shown = shown.slice(0, maxChars);
  }
  return { shown, lines: all.length, long, rich: long ? `${shown}\n\n…` : shown };
}
