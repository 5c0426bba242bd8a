import type React from 'react';
import { highlightTokens, tokenColor, type CodeToken } from './highlight';

/**
 * Code as a reader expects it: highlighted (Prism, GitHub-dark colours) with line numbers, on a
 * dark block. Shared by the transcript on the review and trajectory pages and by the video, so
 * the page and the video show a program the same way. Pure: props in, elements out.
 */
export function CodeTokens({ tokens }: { tokens: CodeToken[] }) {
  return (
    <>
      {tokens.map(([piece, type], i) =>
        type ? (
          <span key={i} style={{ color: tokenColor[type] ?? tokenColor.punctuation }}>
            {piece}
          </span>
        ) : (
          piece
        ),
      )}
    </>
  );
}

/** The tokens of a highlighted block, split into lines (a token that spans lines is cut at each break). */
export function tokenLines(code: string, language: string | null): CodeToken[][] {
  const lines: CodeToken[][] = [[]];
  for (const [text, type] of highlightTokens(code, language)) {
    const parts = text.split('\n');
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') lines[lines.length - 1]!.push([part, type]);
    });
  }
  return lines;
}

export function CodeListing({
  code,
  language,
  firstLine = 0,
  lineCount,
  style,
  className,
}: {
  code: string;
  language: string | null;
  /** the first line shown (0-based) */
  firstLine?: number;
  /** how many lines from firstLine (default: all) */
  lineCount?: number;
  style?: React.CSSProperties;
  className?: string;
}) {
  const all = tokenLines(code, language);
  const shown = all.slice(firstLine, lineCount === undefined ? undefined : firstLine + lineCount);
  const width = String(all.length).length;
  return (
    <pre
      className={className}
      data-language={language ?? undefined}
      style={{ margin: 0, background: '#0d1117', color: '#c9d1d9', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', ...style }}
    >
      {shown.map((tokens, i) => (
        <div key={firstLine + i} style={{ display: 'flex' }}>
          <span
            aria-hidden
            style={{ flex: 'none', width: `${width + 1}ch`, paddingRight: '1ch', textAlign: 'right', color: '#6e7681', userSelect: 'none' }}
          >
            {firstLine + i + 1}
          </span>
          <code style={{ flex: 1, minWidth: 0 }}>{tokens.length === 0 ? '\u200b' : <CodeTokens tokens={tokens} />}</code>
        </div>
      ))}
    </pre>
  );
}
