'use client';

import { useState } from 'react';
import { MarkedText } from './marked-text';
import { MathText } from './math-text';

/**
 * Long text shown by its first lines, with a "Show all" button. `text` is already made inert
 * (inert-text.ts) by the server component that passes it; it is only ever a text node here.
 */
export function ExpandableText({
  text,
  maxLines = 24,
  maxChars = 4000,
  className,
  math = false,
}: {
  text: string;
  maxLines?: number;
  maxChars?: number;
  className: string;
  /** show LaTeX as maths (prose: instructions, agent messages), not for logs and code */
  math?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > maxLines || text.length > maxChars;
  let shown = text;
  if (long && !open) {
    shown = lines.slice(0, maxLines).join('\n');
    if (shown.length > maxChars) shown = shown.slice(0, maxChars);
  }
  return (
    <div>
      <pre className={className}>
        {math ? <MathText text={shown} /> : <MarkedText text={shown} />}
        {long && !open ? <span className="select-none text-zinc-500">{'\n'}…</span> : null}
      </pre>
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
