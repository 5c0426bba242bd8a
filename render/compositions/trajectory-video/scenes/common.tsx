import React from 'react';
import { interpolate } from 'remotion';
import { formatCount, richTextSource } from '../../../../lib/video/text';
import { RichText } from '../../../ui/rich-text';
import type { Excerpt, RichText as RichTextProps } from '../schema';
import { theme, type } from '../theme';

/** Shared pieces of the video: rich text (the one renderer), excerpts with "… N more lines", icons. */

/** Two inline styles with the same properties and values (style objects are rebuilt every frame). */
function sameStyle(a: React.CSSProperties | undefined, b: React.CSSProperties | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const ka = Object.keys(a) as Array<keyof React.CSSProperties>;
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/**
 * Markdown with maths, through the one renderer (render/ui/rich-text.tsx). Memoised on its
 * source and style values: a card's text is the same on every frame it shows, so it is parsed and
 * typeset once, not once a frame.
 */
export const MarkdownView = React.memo(
  function MarkdownView({ source, style, inline = false }: { source: string; style?: React.CSSProperties; inline?: boolean }) {
    return <RichText text={source} style={style} inline={inline} />;
  },
  (a, b) => a.source === b.source && a.inline === b.inline && sameStyle(a.style, b.style),
);

/** Rich text of the props; lines break between words, never before a full stop after maths. */
export const RichTextView: React.FC<{ text: RichTextProps; style?: React.CSSProperties }> = ({ text, style }) => (
  <MarkdownView source={richTextSource(text)} style={{ overflowWrap: 'break-word', ...style }} />
);

export const OmittedMarker: React.FC<{ lines: number; what?: string }> = ({ lines, what = 'more lines' }) => (
  <div
    style={{
      display: 'flex',
      alignItems: 'center',
      gap: 8,
      margin: '4px 0',
      color: theme.warn,
      fontFamily: theme.sans,
      fontSize: type.min,
      fontWeight: 600,
    }}
  >
    <div style={{ flex: '0 0 14px', height: 1, background: theme.border }} />
    <span style={{ padding: '1px 8px', borderRadius: 999, background: 'rgba(210,153,34,0.12)', border: '1px solid rgba(210,153,34,0.35)' }}>
      … {formatCount(lines)} {what}
    </span>
    <div style={{ flex: 1, height: 1, background: theme.border }} />
  </div>
);

export const ExcerptView: React.FC<{ excerpt: Excerpt; prefix?: string; color?: string; fontSize?: number; empty?: string }> = ({
  excerpt,
  prefix,
  color = theme.text,
  fontSize = type.code,
  empty,
}) => {
  const mono: React.CSSProperties = {
    fontFamily: theme.mono,
    fontSize,
    lineHeight: 1.45,
    color,
    whiteSpace: 'pre-wrap',
    overflowWrap: 'anywhere',
    margin: 0,
  };
  if (excerpt.totalLines === 0)
    return <div style={{ ...mono, color: theme.faint, fontStyle: 'italic', fontFamily: theme.sans }}>{empty ?? '(empty)'}</div>;
  return (
    <div>
      <pre style={mono}>
        {prefix ? <span style={{ color: theme.accent, userSelect: 'none' }}>{prefix}</span> : null}
        {excerpt.head}
      </pre>
      {excerpt.omittedLines > 0 ? <OmittedMarker lines={excerpt.omittedLines} /> : null}
      {excerpt.tail ? <pre style={mono}>{excerpt.tail}</pre> : null}
    </div>
  );
};

export const CheckIcon: React.FC<{ size?: number; color?: string }> = ({ size = 16, color = theme.pass }) => (
  <svg width={size} height={size} viewBox="0 0 16 16" style={{ flex: 'none' }}>
    <circle cx="8" cy="8" r="8" fill={color} />
    <path d="M4.4 8.3l2.4 2.4 4.8-5" stroke="#0d1014" strokeWidth="1.9" fill="none" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export const CrossIcon: React.FC<{ size?: number; color?: string }> = ({ size = 16, color = theme.fail }) => (
  <svg width={size} height={size} viewBox="0 0 16 16" style={{ flex: 'none' }}>
    <circle cx="8" cy="8" r="8" fill={color} />
    <path d="M5.3 5.3l5.4 5.4M10.7 5.3l-5.4 5.4" stroke="#0d1014" strokeWidth="1.9" strokeLinecap="round" />
  </svg>
);

export const PendingIcon: React.FC<{ size?: number }> = ({ size = 16 }) => (
  <svg width={size} height={size} viewBox="0 0 16 16" style={{ flex: 'none' }}>
    <circle cx="8" cy="8" r="6.8" fill="none" stroke={theme.faint} strokeWidth="1.6" strokeDasharray="3 2.4" />
  </svg>
);

export const FastForwardIcon: React.FC<{ size?: number; color?: string }> = ({ size = 18, color = theme.text }) => (
  <svg width={size} height={size} viewBox="0 0 20 16" style={{ flex: 'none' }}>
    <path d="M1 2l8 6-8 6zM10 2l8 6-8 6z" fill={color} />
  </svg>
);

/** The small uppercase caption over a part of a card (a section's label, "Judge · x", "Plotted", "Final answer"). */
export function caption(color: string = theme.faint): React.CSSProperties {
  return { fontSize: type.min, letterSpacing: 1.2, textTransform: 'uppercase', color, fontWeight: 700 };
}

/** The badge that names a card ("STEP 3", "DIFF"): bold mono on its colour. */
export const Tag: React.FC<{ color: string; children: React.ReactNode }> = ({ color, children }) => (
  <span
    style={{
      fontFamily: theme.mono,
      fontSize: type.min,
      fontWeight: 700,
      color: theme.bg,
      background: color,
      borderRadius: 5,
      padding: '2px 8px',
    }}
  >
    {children}
  </span>
);

/** Fade/slide in over the first frames of a scene (pure in the frame). */
export function enter(frame: number, from: number, frames = 8): React.CSSProperties {
  const k = interpolate(frame - from, [0, frames], [0, 1], { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' });
  return { opacity: k, transform: `translateY(${(1 - k) * 10}px)` };
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const m = Math.floor(s / 60);
  const r = Math.round(s - m * 60);
  if (m < 60) return `${m} min ${r.toString().padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${(m % 60).toString().padStart(2, '0')} min`;
}

/** "0:04.5" style clock for a real-time offset. */
export function clock(s: number): string {
  const m = Math.floor(s / 60);
  const r = s - m * 60;
  return `${m}:${r < 10 ? '0' : ''}${r.toFixed(1)}`;
}

export const Pill: React.FC<{ label: string; value: string; color?: string }> = ({ label, value, color = theme.text }) => (
  <div
    style={{
      display: 'flex',
      flexDirection: 'column',
      gap: 2,
      padding: '6px 12px',
      background: theme.panel,
      border: `1px solid ${theme.border}`,
      borderRadius: 8,
      minWidth: 0,
    }}
  >
    <span style={{ fontSize: type.min, letterSpacing: 1, textTransform: 'uppercase', color: theme.faint, fontWeight: 600 }}>{label}</span>
    {/* a name is read whole: it wraps, never "…" */}
    <span style={{ fontSize: type.min, lineHeight: 1.25, color, fontWeight: 600, overflowWrap: 'anywhere' }}>{value}</span>
  </div>
);
