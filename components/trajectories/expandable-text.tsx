'use client';

import { startTransition, useEffect, useRef, useState, type ReactNode } from 'react';
import { formatCount } from '../../lib/video/text';
import { inert } from '@/lib/rich-text/inert-text';
import { DeferredRichText } from '../ui/deferred-text';
import { COLLAPSED_CHARS, COLLAPSED_LINES, collapsedText } from './collapsed-text';
import { MarkedText } from './marked-text';

/**
 * Long text shown by its first lines, with a "Show all" button. Text is untrusted: plain text
 * is a text node with control characters marked (already inert(), inert-text.ts); `rich` text
 * goes through the one rich-text renderer (Markdown + maths, inert output), its code loaded apart
 * (components/ui/deferred-text.tsx) so that a page hydrates without it.
 *
 * `typeset`: the collapsed rich text already typeset by the server component that renders this
 * one (`<RichText text={collapsedText(...).rich} />`): the browser hydrates it as it is, without
 * running Markdown and KaTeX again (they were most of a long transcript's hydration); the full
 * text is typeset in the browser when the reader opens it.
 *
 * `typesetWhenNear`: rich text far down a long page is shown as its plain text until it comes
 * within a few screens of the view, then typeset (see useNear), in a transition: the server render
 * and the hydration of a 50-step transcript page typeset only what a reader can reach at once,
 * and the typesetting after it gives way to a click (the video's Play) between steps.
 */
export function ExpandableText({
  text,
  maxLines = COLLAPSED_LINES,
  maxChars = COLLAPSED_CHARS,
  className,
  rich = false,
  typesetWhenNear = false,
  typeset,
}: {
  text: string;
  maxLines?: number;
  maxChars?: number;
  className: string;
  /** Markdown with LaTeX maths (prose: instructions, agent messages), not for logs and code */
  rich?: boolean;
  /** rich text typeset once it comes near the view (plain until then) */
  typesetWhenNear?: boolean;
  /** the collapsed rich text typeset by the server (RichText of `collapsedText(text, maxLines, maxChars).rich`) */
  typeset?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [box, near] = useNear(rich && typesetWhenNear && typeset === undefined);
  const collapsed = collapsedText(text, maxLines, maxChars);
  const long = collapsed.long;
  const more = long && !open;
  const shown = more ? collapsed.shown : text;
  return (
    <div ref={box}>
      {rich && !open && typeset !== undefined ? (
        <div className={className}>{typeset}</div>
      ) : rich && near ? (
        <div className={className}>
          <DeferredRichText text={more ? collapsed.rich : shown} />
        </div>
      ) : rich ? (
        <div className={className} data-typeset="when-near">
          <p className="whitespace-pre-wrap break-words leading-relaxed">
            <MarkedText text={inert(more ? collapsed.rich : shown)} />
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
          {open ? 'Show less' : `Show all (${formatCount(collapsed.lines)} lines, ${formatCount(text.length)} characters)`}
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
    // a transition: typesetting what came near gives way to input (a click on Play while the page starts)
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && startTransition(() => setNear(true)), {
      rootMargin: NEAR_MARGIN,
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [box, near] as const;
}
