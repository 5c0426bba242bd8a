import React from 'react';
import { interpolate } from 'remotion';
import type { StepCard, StepScene } from '../schema';
import { actorColor, theme } from '../theme';
import { formatCount } from '../../../../lib/video/text';
import { CodeListing } from '../../../ui/code-listing';
import { caption, clock, enter, ExcerptView, RichTextView, Tag } from './common';

export const Header: React.FC<{ card: StepCard; note?: string }> = ({ card, note }) => {
  const color = actorColor[card.source] ?? theme.accent;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
      <Tag color={color}>STEP {card.index + 1}</Tag>
      <span style={{ fontSize: 15, fontWeight: 600, color }}>{card.actor}</span>
      {card.source !== 'agent' && card.actor !== card.source ? (
        <span style={{ fontSize: 13, color: theme.faint }}>{card.source}</span>
      ) : null}
      {note ? <span style={{ fontSize: 13, color: theme.muted }}>{note}</span> : null}
      <div style={{ flex: 1 }} />
      {card.realSeconds !== null ? (
        <span style={{ fontFamily: theme.mono, fontSize: 12, color: theme.faint }}>t+{clock(card.realSeconds)}</span>
      ) : null}
    </div>
  );
};

const Section: React.FC<{ label: string; color?: string; children: React.ReactNode; style?: React.CSSProperties }> = ({
  label,
  color = theme.faint,
  children,
  style,
}) => (
  <div style={{ display: 'flex', flexDirection: 'column', gap: 6, ...style }}>
    <span style={caption(color)}>{label}</span>
    {children}
  </div>
);

type ProgramCode = NonNullable<StepCard['toolCalls'][number]['code']>;

/** Lines of a program a card has room for at once (14 px mono in the scene's 556 px, less what else the card shows). */
export function programPageLines(card: StepCard): number {
  const others =
    (card.message.length > 0 ? 4 : 0) + (card.reasoning ? 3 : 0) + card.observations.length * 6 + (card.toolCalls.length - 1) * 4;
  return Math.max(6, 19 - others);
}

/** Which lines of a program show at a frame: the card's time shared evenly between its pages. Pure. */
export function programPage(lines: number, pageLines: number, frame: number, from: number, duration: number): [number, number] {
  const pages = Math.max(1, Math.ceil(lines / pageLines));
  const k = Math.min(pages - 1, Math.max(0, Math.floor(((frame - from) / Math.max(1, duration)) * pages)));
  return [k * pageLines, Math.min(lines, (k + 1) * pageLines)];
}

/**
 * A tool call's program, whole: highlighted with line numbers as the transcript shows it
 * (render/ui/code-listing.tsx), a page at a time while the card holds, never "… 12 more lines".
 */
const ProgramView: React.FC<{ code: ProgramCode; frame: number; from: number; duration: number; pageLines: number }> = ({
  code,
  frame,
  from,
  duration,
  pageLines,
}) => {
  const lines = code.text.split('\n').length;
  const [first, end] = programPage(lines, pageLines, frame, from, duration);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
      <CodeListing
        code={code.text}
        language={code.language}
        firstLine={first}
        lineCount={end - first}
        style={{ fontFamily: theme.mono, fontSize: 14, lineHeight: 1.45, padding: '4px 6px', borderRadius: 6 }}
      />
      {lines > pageLines || code.omittedLines > 0 ? (
        <span data-program-lines={`${first + 1}-${end}`} style={{ fontSize: 12, color: theme.muted, fontFamily: theme.mono }}>
          lines {first + 1}–{end} of {lines + code.omittedLines}
          {code.omittedLines > 0 && end === lines ? ` · the last ${formatCount(code.omittedLines)} in the transcript` : ''}
        </span>
      ) : null}
      {code.rest ? (
        <ExcerptView excerpt={{ head: code.rest, omittedLines: 0, tail: '', totalLines: 1 }} fontSize={13} color={theme.muted} />
      ) : null}
    </div>
  );
};

/** One step in full: message, reasoning summary, tool calls with arguments, observations. */
const FullCard: React.FC<{
  card: StepCard;
  frame: number;
  from: number;
  duration: number;
  revealFrame: number;
  page?: [number, number];
}> = ({ card, frame, from, duration, revealFrame, page }) => {
  const obsOpacity = interpolate(frame, [revealFrame, revealFrame + 8], [0, 1], { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' });
  const empty = card.message.length === 0 && card.toolCalls.length === 0 && card.observations.length === 0 && !card.reasoning;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 16, ...enter(frame, from) }}>
      <Header card={card} note={page ? `page ${page[0]} of ${page[1]}` : undefined} />
      {card.message.length > 0 ? (
        <div>
          <RichTextView
            text={card.message}
            style={{ fontSize: card.toolCalls.length + card.observations.length > 2 ? 17 : 20, lineHeight: 1.5, color: theme.text }}
          />
          {card.messageOmittedChars > 0 ? (
            <div style={{ fontSize: 12, color: theme.faint, marginTop: 4 }}>… {formatCount(card.messageOmittedChars)} more characters</div>
          ) : null}
        </div>
      ) : null}
      {empty ? (
        <div style={{ fontSize: 16, color: theme.faint, fontStyle: 'italic' }}>(an empty step: no message, no tool call)</div>
      ) : null}
      {card.reasoning ? (
        <div
          style={{
            display: 'flex',
            gap: 10,
            padding: '10px 14px',
            borderRadius: 8,
            background: 'rgba(194,151,255,0.07)',
            border: '1px solid rgba(194,151,255,0.22)',
          }}
        >
          <span
            style={{
              fontSize: 11,
              letterSpacing: 1.2,
              textTransform: 'uppercase',
              color: '#c297ff',
              fontWeight: 700,
              paddingTop: 3,
              flex: 'none',
            }}
          >
            Reasoning
          </span>
          <span style={{ fontSize: 15, lineHeight: 1.45, color: theme.muted, fontStyle: 'italic' }}>{card.reasoning}</span>
        </div>
      ) : null}
      {card.toolCalls.length > 0 ? (
        <Section label={card.toolCalls.length > 1 ? `Tool calls (${card.toolCalls.length})` : 'Tool call'} color={theme.accent}>
          {card.toolCalls.map((c, i) => (
            <div
              key={i}
              style={{
                display: 'flex',
                flexDirection: 'column',
                gap: 4,
                padding: '8px 12px',
                borderRadius: 8,
                background: theme.panelRaised,
                border: `1px solid ${theme.border}`,
              }}
            >
              <span style={{ fontFamily: theme.mono, fontSize: 12, color: theme.accent, fontWeight: 700 }}>{c.name}</span>
              {c.code ? (
                <ProgramView code={c.code} frame={frame} from={from} duration={duration} pageLines={programPageLines(card)} />
              ) : (
                <ExcerptView excerpt={c.body} prefix={c.kind === 'command' ? '$ ' : undefined} fontSize={14} />
              )}
            </div>
          ))}
        </Section>
      ) : null}
      {card.observations.length > 0 ? (
        <Section
          label={card.observations.length > 1 ? `Observations (${card.observations.length})` : 'Observation'}
          style={{ opacity: obsOpacity }}
        >
          {card.observations.map((o, i) => (
            <div
              key={i}
              style={{
                padding: '8px 12px',
                borderRadius: 8,
                background: '#0a0c10',
                border: `1px solid ${o.isError ? 'rgba(248,81,73,0.6)' : theme.border}`,
              }}
            >
              {o.isError ? (
                <div style={{ fontSize: 11, fontWeight: 700, color: theme.fail, marginBottom: 4, letterSpacing: 1 }}>
                  ERROR{o.toolName ? ` · ${o.toolName}` : ''}
                </div>
              ) : null}
              <ExcerptView excerpt={o.body} fontSize={13} color={o.isError ? '#ffb3ad' : '#c9ced8'} empty="(no output)" />
            </div>
          ))}
        </Section>
      ) : null}
    </div>
  );
};

/** A single step, or a group of small consecutive steps shown as a short conversation. */
export const StepView: React.FC<{ scene: StepScene; frame: number }> = ({ scene, frame }) => {
  if (scene.cards.length === 1) {
    const c = scene.cards[0]!;
    return <FullCard card={c.card} frame={frame} from={c.from} duration={c.duration} revealFrame={c.revealFrame} page={scene.page} />;
  }
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 14 }}>
      {scene.cards
        .filter((c) => c.from <= frame)
        .map((c) => {
          const active = frame >= c.from && frame < c.from + c.duration;
          return (
            <div
              key={c.card.index}
              style={{
                padding: '12px 16px',
                borderRadius: 10,
                background: active ? theme.panelRaised : theme.panel,
                border: `1px solid ${active ? (actorColor[c.card.source] ?? theme.border) : theme.border}`,
                opacity: active ? 1 : 0.55,
                display: 'flex',
                flexDirection: 'column',
                gap: 8,
                ...enter(frame, c.from, 6),
              }}
            >
              <Header card={c.card} />
              {c.card.message.length > 0 ? (
                <RichTextView text={c.card.message} style={{ fontSize: 17, lineHeight: 1.45, color: theme.text }} />
              ) : (
                <span style={{ fontSize: 14, color: theme.faint, fontStyle: 'italic' }}>(empty)</span>
              )}
            </div>
          );
        })}
    </div>
  );
};
