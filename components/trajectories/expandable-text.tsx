'use client';

import { useState } from 'react';
import { RichText } from '../ui/rich-text';
import { MarkedText } from './marked-text';

/**
 * Long text shown by its first lines, with a "Show all" button. Text is untrusted: plain text
 * is a text node with control characters marked (already inert(), inert-text.ts); `rich` text
 * goes through the one rich-text renderer (Markdown + maths, inert output).
 */
export function ExpandableText({
  text,
  maxLines = 24,
  maxChars = 4000,
  className,
  rich = false,
}: {
  text: string;
  maxLines?: number;
  maxChars?: number;
  className: string;
  /** Markdown with LaTeX maths (prose: instructions, agent messages), not for logs and code */
  rich?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > maxLines || text.length > maxChars;
  let shown = text;
  if (long && !open) {
    shown = lines.slice(0, maxLines).join('\n');
    if (shown.length > maxChars) shown = shown.slice(0, maxChars);
  }
  const more = long && !open;
  return (
    <div>
      {rich ? (
        <div className={className}>
          <RichText text={more ? `${shown}\n\n…` : shown} />
        </div>
      ) : (
        <pre className={className}>
          <MarkedText text={shown} />
          {more ? <span className="select-none text-zinc-500">{'\n'}…</span> : null}
        </pre>
      )}
      {long ? (
        <button
          type="button"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
          className="mt-1 text-xs font-medium text-indigo-700 hover:underline"
        >
          {open
            ? 'Show less'
            : `Show all (${lines.length.toLocaleString('en-US')} lines, ${text.length.toLocaleString('en-US')} characters)`}
        </button>
      ) : null}
    </div>
  );
}
