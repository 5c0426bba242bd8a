import 'katex/dist/katex.min.css';
import './rich-text.css';
import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import type { CSSProperties, ReactNode } from 'react';
import Markdown, { type Components, type Options } from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import type { VFile } from 'vfile';
// relative imports: Remotion's bundler has no `@/` alias
import { highlightTokens } from './highlight';
import { CodeTokens } from './code-listing';
import { BoundedCache } from '../../lib/bounded-cache';
import { DISPLAY_FENCE, markdownWithMathCounted } from '../../lib/rich-text/markdown-source';
import { inert } from '../../lib/rich-text/inert-text';

/**
 * The one renderer for trajectory text (task instructions, criteria, rubric labels, chapters,
 * transcript, notes, rationales; the video's cards too): Markdown (CommonMark + GFM tables,
 * lists, strikethrough, task lists) with LaTeX maths typeset by KaTeX and code blocks
 * highlighted by Prism.
 *
 * Untrusted input stays inert: raw HTML is shown as the text it is (never parsed), link targets
 * other than http(s) and mailto are dropped (no `javascript:`, no links into the studio), images
 * are shown as their alt text and address (never fetched), KaTeX runs with `trust: false`, and
 * every node becomes a React element (no innerHTML). Control characters are shown as markers.
 *
 * Pure React with no hooks and no Next APIs, so a server component, a client component and a
 * Remotion composition render it alike (the CSS is scoped under `.rich-text`).
 *
 * Each distinct text is typeset once and its output reused (see `typeset`): the output is a pure
 * function of the text and the renderer's options, so it is the same for every user and request.
 */
export function RichText({
  text,
  inline = false,
  className,
  style,
}: {
  text: string;
  /** a label or a chip: paragraphs flow as inline text */
  inline?: boolean;
  className?: string;
  style?: CSSProperties;
}): ReactNode {
  const shown = inert(text);
  const Tag = inline ? 'span' : 'div';
  const classes = `rich-text${inline ? ' rich-text-inline' : ''}${className ? ` ${className}` : ''}`;
  if (shown.length > MAX_CHARS)
    return (
      <Tag className={classes} style={style} data-rich-text="plain">
        <span style={{ whiteSpace: 'pre-wrap' }}>{shown}</span>
      </Tag>
    );
  return (
    <Tag className={classes} style={style} data-rich-text="markdown">
      {typeset(shown, inline)}
    </Tag>
  );
}

/**
 * Typeset texts, by the options that shape the output and the text: Markdown + KaTeX of a
 * derivation step costs milliseconds to tens of milliseconds, and the same texts are shown again
 * and again (every view of a trajectory, the review page, its transcript and its chapters).
 * The output (React elements, immutable) depends on nothing but the key: the plugins and the
 * KaTeX options below are constants of this module, and `inline` (which components render the
 * paragraphs) is in the key; an option added to RichText that changes the output must go in the
 * key too. Nothing else is: the same text typesets the same for every user, so an entry shows no
 * one anything but the text they asked to see.
 *
 * Bounded in memory: at most TYPESET_CACHE_ENTRIES texts and TYPESET_CACHE_BYTES of their
 * estimated heap, least recently used dropped first. The estimate (typesetBytes) was fitted on
 * measured heap (NODE_ENV=production, after GC): prose ~5 bytes a character, the demo
 * derivation's step (1.5k characters, 29 formulas) 427 KB, a line of 100 `\frac` formulas 781 KB;
 * it errs high. Each JavaScript realm that renders RichText has its own cache (the server's RSC
 * and SSR layers, each browser tab, each video render).
 */
const TYPESET_CACHE_ENTRIES = 5000;
const TYPESET_CACHE_BYTES = 32 * 2 ** 20;
const typesetCache = new BoundedCache<ReactNode>({ maxEntries: TYPESET_CACHE_ENTRIES, maxWeight: TYPESET_CACHE_BYTES });

/** the heap an entry is estimated to hold: its key, its prose, and KaTeX's output (by formula and by TeX character) */
const typesetBytes = (chars: number, formulas: number, texChars: number) => 512 + 8 * chars + 4096 * formulas + 384 * texChars;

function typeset(shown: string, inline: boolean): ReactNode {
  const key = `${inline ? 'inline' : 'block'}\u0000${shown}`;
  const hit = typesetCache.get(key);
  if (hit !== undefined) return hit;
  const { markdown, formulas, texChars } = markdownWithMathCounted(shown);
  // react-markdown's synchronous renderer, called for its output (it has no hooks)
  const out = Markdown({
    children: markdown,
    remarkPlugins,
    rehypePlugins,
    components: inline ? inlineComponents : components,
    urlTransform: safeUrl,
  });
  typesetCache.set(key, out, typesetBytes(shown.length, formulas, texChars));
  return out;
}

/** for tests: the typeset cache's entries, estimated bytes and bounds; `clear` forgets every typeset text */
export const typesetCacheForTests = {
  state: () => ({ size: typesetCache.size, bytes: typesetCache.weight, bounds: typesetCache.bounds }),
  clear: () => typesetCache.clear(),
};

/** Past this length the text is shown plain (Markdown and KaTeX over a huge log are not worth it). */
const MAX_CHARS = 60_000;

const katexOptions = {
  trust: false,
  strict: 'ignore' as const,
  throwOnError: false,
  // HTML only, as the video draws it: MathML's TeX annotation would be the element's text (copy, search)
  output: 'html' as const,
  maxSize: 20,
  maxExpand: 200,
};

/** Raw HTML in the Markdown is shown as its text, never parsed. */
function remarkHtmlAsText() {
  return (tree: MdastRoot) => {
    const walk = (node: { type: string; value?: string; children?: unknown[] }) => {
      if (node.type === 'html') node.type = 'text';
      if (node.children) for (const child of node.children) walk(child as typeof node);
    };
    walk(tree);
  };
}

/** Text maths written with three dollars (markdownWithMath's display maths) is display maths. */
function remarkDisplayMath() {
  return (tree: MdastRoot, file: VFile) => {
    const source = String(file.value);
    const walk = (node: { type: string; position?: { start: { offset?: number } }; data?: object; children?: unknown[] }) => {
      if (node.type === 'inlineMath' && source.startsWith(DISPLAY_FENCE, node.position?.start.offset ?? -1))
        node.data = { ...node.data, hProperties: { className: ['language-math', 'math-display'] } };
      if (node.children) for (const child of node.children) walk(child as typeof node);
    };
    walk(tree);
  };
}

/** Links open in a new tab, without the studio as referrer. */
function rehypeSafeLinks() {
  return (tree: HastRoot) => {
    const walk = (node: { type: string; children?: unknown[] }) => {
      if (node.type === 'element') {
        const el = node as Element;
        if (el.tagName === 'a' && el.properties.href)
          Object.assign(el.properties, { target: '_blank', rel: 'noopener noreferrer nofollow' });
      }
      if (node.children) for (const child of node.children) walk(child as typeof node);
    };
    walk(tree);
  };
}

const remarkPlugins: Options['remarkPlugins'] = [
  remarkGfm,
  [remarkMath, { singleDollarTextMath: false }],
  remarkHtmlAsText,
  remarkDisplayMath,
];
const rehypePlugins: Options['rehypePlugins'] = [[rehypeKatex, katexOptions], rehypeSafeLinks];

function safeUrl(url: string): string {
  return /^(https?:\/\/|mailto:)/i.test(url.trim()) ? url : '';
}

const components: Components = {
  code({ className, children }) {
    const language = /language-([\w+#-]+)/.exec(className ?? '')?.[1] ?? null;
    const source = typeof children === 'string' ? children : null;
    if (language === null || source === null) return <code className={className}>{children}</code>;
    return (
      <code className={className} data-language={language}>
        <CodeTokens tokens={highlightTokens(source, language)} />
      </code>
    );
  },
  a({ href, children, target, rel }) {
    if (!href) return <span className="rich-text-link-dropped">{children}</span>;
    return (
      <a href={href} target={target} rel={rel}>
        {children}
      </a>
    );
  },
  img({ alt, src }) {
    return (
      <span className="rich-text-image" title="image (not loaded)">
        [image{alt ? `: ${alt}` : ''}
        {typeof src === 'string' && src ? ` ${src}` : ''}]
      </span>
    );
  },
};

const inlineComponents: Components = {
  ...components,
  p({ children }) {
    return <span className="rich-text-p">{children}</span>;
  },
};
