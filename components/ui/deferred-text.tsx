'use client';

// the styles load with the page (the server's HTML is typeset already); only the code waits
import 'katex/dist/katex.min.css';
import '@/render/ui/rich-text.css';
import { lazy, Suspense, type ComponentProps } from 'react';
import { inert } from '@/lib/rich-text/inert-text';
import type { CodeListing } from '@/render/ui/code-listing';
import type { CriterionText } from '@/render/ui/criterion-text';
import type { RichText } from '@/render/ui/rich-text';

/**
 * RichText, CriterionText and CodeListing (render/ui) whose code (Markdown, KaTeX, Prism: most of
 * a review page's JavaScript) loads in a chunk of its own instead of holding up hydration. The
 * server renders them whole, so the page shows its maths typeset at once; the browser hydrates
 * everything around them first (the transcript's steps, the rubric's buttons: what a click
 * needs) and these once their chunk is in (issue 43 §5). Text first rendered in the browser
 * before the chunk arrives shows as plain text for those few milliseconds. For client components
 * of pages that must be interactive before their text is typeset (the review pages, a long
 * transcript); server components use the render/ui components directly (their code stays on the server).
 */
const LazyRichText = lazy(() => import('@/render/ui/rich-text').then((m) => ({ default: m.RichText })));
const LazyCriterionText = lazy(() => import('@/render/ui/criterion-text').then((m) => ({ default: m.CriterionText })));
const LazyCodeListing = lazy(() => import('@/render/ui/code-listing').then((m) => ({ default: m.CodeListing })));

export function DeferredRichText(props: ComponentProps<typeof RichText>) {
  const Tag = props.inline ? 'span' : 'div';
  return (
    <Suspense
      fallback={
        <Tag className={`rich-text${props.className ? ` ${props.className}` : ''}`} style={{ ...props.style, whiteSpace: 'pre-wrap' }}>
          {inert(props.text)}
        </Tag>
      }
    >
      <LazyRichText {...props} />
    </Suspense>
  );
}

export function DeferredCriterionText(props: ComponentProps<typeof CriterionText>) {
  return (
    <Suspense fallback={<span className={props.className}>{inert(props.text)}</span>}>
      <LazyCriterionText {...props} />
    </Suspense>
  );
}

export function DeferredCodeListing(props: ComponentProps<typeof CodeListing>) {
  const lines = props.code.split('\n');
  const shown = lines.slice(props.firstLine ?? 0, props.lineCount === undefined ? undefined : (props.firstLine ?? 0) + props.lineCount);
  return (
    <Suspense
      fallback={
        <pre className={props.className} style={props.style}>
          {inert(shown.join('\n'))}
        </pre>
      }
    >
      <LazyCodeListing {...props} />
    </Suspense>
  );
}
