import katex from 'katex';
import 'katex/dist/katex.min.css';
import type { ReactNode } from 'react';
import { mathSegments } from '@/lib/video/text';
import { MarkedText } from './marked-text';

/** Past this length the text is left plain (KaTeX over a huge log is not worth it). */
const MAX_CHARS = 60_000;

function mathHtml(tex: string, display: boolean): string {
  // KaTeX escapes its input; trust is off, so no \href or \html* output reaches the page
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    output: 'html',
    strict: 'ignore',
    trust: false,
    maxSize: 20,
    maxExpand: 200,
  });
}

/**
 * Already-inert text (inert-text.ts) with its LaTeX shown as maths, the way the video shows
 * it: `$…$` / `\(…\)` inline, `$$…$$` / `\[…\]` display (the same splitter as the video's).
 * Text around the maths stays text nodes with control-character markers tinted.
 */
export function MathText({ text }: { text: string }): ReactNode {
  if (text.length > MAX_CHARS || !/[$\\]/.test(text)) return <MarkedText text={text} />;
  const segments = mathSegments(text);
  if (segments.every((s) => s.k === 'text')) return <MarkedText text={text} />;
  return (
    <>
      {segments.map((seg, i) =>
        seg.k === 'text' ? (
          <MarkedText key={i} text={seg.text} />
        ) : (
          <span
            key={i}
            data-testid="math"
            className={seg.display ? 'my-1 block overflow-x-auto text-[1.08em]' : 'text-[1.04em]'}
            dangerouslySetInnerHTML={{ __html: mathHtml(seg.tex, seg.display) }}
          />
        ),
      )}
    </>
  );
}
