'use client';

import { useEffect, useRef, useState } from 'react';
import { inert } from '../ui/inert-text';
import { RichText } from '../ui/rich-text';
import { MarkedText } from './marked-text';

/**
 * Long text shown by its first lines, with a "Show all" button. Text is untrusted: plain text
 * is a text node with control characters marked (already inert(), inert-text.ts); `rich` text
 * goes through the one rich-text renderer (Markdown + maths, inert output).
 *
 * `typesetWhenNear`: rich text far down a long page is shown as its plain text until it comes
 * within a few screens of the view, then typeset (see useNear): the server render and the
 * hydration of a 50-step transcript page typeset only what a reader can reach at once.
 */
export function ExpandableText({
  text,
  maxLines = 24,
  maxChars = 4000,
  className,
  rich = false,
  typesetWhenNear = false,
}: {
  text: string;
  maxLines?: number;
  maxChars?: number;
  className: string;
  /** Markdown with LaTeX maths (prose: instructions, agent messages), not for logs and code */
  rich?: boolean;
  /** rich text typeset once it comes near the view (plain until then) */
  typesetWhenNear?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [box, near] = useNear(rich && typesetWhenNear);
  const lines = text.split('\n');
  const long = lines.length > maxLines || text.length > maxChars;
  let shown = text;
  if (long && !open) {
    shown = lines.slice(0, maxLines).join('\n');
    if (shown.length > maxChars) shown = shown.slice(0, maxChars);
  }
  const more = long && !open;
  return (
    <div ref={box}>
      {rich && near ? (
        <div className={className}>
          <RichText text={more ? `${shown}\n\n…` : shown} />
        </div>
      ) : rich ? (
        <div className={className} data-typeset="when-near">
          <p className="whitespace-pre-wrap break-words leading-relaxed">
            <MarkedText text={inert(more ? `${shown}\n\n…` : shown)} />
          </p>
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

/** how far outside the view deferred text is typeset: a few screens, so a reader scrolling never sees it plain */
const NEAR_MARGIN = '1500px 0px';

/** [ref, near]: near is true at once unless `defer`; else from when the element comes within NEAR_MARGIN of the view (then for good) */
function useNear(defer: boolean) {
  const [near, setNear] = useState(!defer);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (near || !el) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: NEAR_MARGIN,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [box, near] as const;
}
