import React from 'react';
import { interpolate } from 'remotion';
import type { StepCard, StepScene } from '../schema';
import { actorColor, layout, theme, type } from '../theme';
import { formatCount, mathSegments, richTextSource } from '../../../../lib/video/text';
import {
  callRows,
  excerptRows,
  LINE,
  messageFontSize,
  pageAt,
  richTextHeight,
  stepCardPages,
  type CardPage,
  type PageBlock,
} from '../../../../lib/video/card-pages';
import { CodeListing } from '../../../ui/code-listing';
import { caption, clock, enter, MarkdownView, RichTextView, Tag } from './common';

export const Header: React.FC<{ card: StepCard; note?: string }> = ({ card, note }) => {
  const color = actorColor[card.source] ?? theme.accent;
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
      <Tag color={color}>STEP {card.index + 1}</Tag>
      <span style={{ fontSize: type.body, fontWeight: 600, color }}>{card.actor}</span>
      {card.source !== 'agent' && card.actor !== card.source ? (
        <span style={{ fontSize: type.min, color: theme.faint }}>{card.source}</span>
      ) : null}
      {note ? <span style={{ fontSize: type.min, color: theme.muted }}>{note}</span> : null}
      <div style={{ flex: 1 }} />
      {card.realSeconds !== null ? (
        <span style={{ fontFamily: theme.mono, fontSize: type.min, color: theme.faint }}>t+{clock(card.realSeconds)}</span>
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
    {label ? <span style={caption(color)}>{label}</span> : null}
    {children}
  </div>
);

/** Mono rows of code or output as the card draws them (the page planner, lib/video/card-pages.ts, wraps them at the same size). */
const mono: React.CSSProperties = {
  fontFamily: theme.mono,
  fontSize: type.code,
  lineHeight: LINE.code,
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
  margin: 0,
};

/** "lines 13–24 of 40" under a block that runs over pages */
const RowsNote: React.FC<{ rows: [number, number]; total: number; extra?: string }> = ({ rows, total, extra }) => (
  <span data-rows={`${rows[0] + 1}-${rows[1]}`} style={{ fontSize: type.min, color: theme.muted, fontFamily: theme.mono }}>
    lines {rows[0] + 1}–{rows[1]} of {total}
    {extra ?? ''}
  </span>
);

/** Rows of an excerpt (head, "… N more lines", tail) from `rows[0]` to `rows[1]`. */
const ExcerptRows: React.FC<{ all: string[]; rows: [number, number]; color: string; prefix?: string; omitted: number }> = ({
  all,
  rows,
  color,
  prefix,
  omitted,
}) => (
  <pre style={{ ...mono, color }}>
    {all.slice(rows[0], rows[1]).map((r, i) => {
      const k = rows[0] + i;
      if (omitted > 0 && r === `… ${formatCount(omitted)} more lines`)
        return (
          <div key={k} style={{ color: theme.warn, fontFamily: theme.sans, fontWeight: 600 }}>
            {r} (in the transcript)
          </div>
        );
      return (
        <div key={k}>
          {k === 0 && prefix ? <span style={{ color: theme.accent }}>{prefix}</span> : null}
          {r === '' ? '\u200b' : r}
        </div>
      );
    })}
  </pre>
);

const box: React.CSSProperties = { padding: '10px 14px', borderRadius: 8, border: `1px solid ${theme.border}` };

/** One block of a card's page. */
const Block: React.FC<{ card: StepCard; block: PageBlock; obsOpacity: number }> = ({ card, block, obsOpacity }) => {
  switch (block.kind) {
    case 'message':
      return (
        <div>
          <RichTextView text={block.text} style={{ fontSize: messageFontSize(card), lineHeight: LINE.prose, color: theme.text }} />
          {card.messageOmittedChars > 0 && block.part === block.parts - 1 ? (
            <div style={{ fontSize: type.min, color: theme.faint, marginTop: 4 }}>
              {formatCount(card.messageOmittedChars)} more characters in the transcript
            </div>
          ) : null}
        </div>
      );
    case 'empty':
      return <div style={{ fontSize: type.body, color: theme.faint, fontStyle: 'italic' }}>(an empty step: no message, no tool call)</div>;
    case 'reasoning':
      return (
        <div
          data-reasoning-part={`${block.part + 1}/${block.parts}`}
          style={{
            ...box,
            display: 'flex',
            flexDirection: 'column',
            gap: 4,
            background: 'rgba(194,151,255,0.07)',
            borderColor: 'rgba(194,151,255,0.3)',
          }}
        >
          <span style={caption('#c297ff')}>Reasoning{block.parts > 1 ? ` · ${block.part + 1} of ${block.parts}` : ''}</span>
          <MarkdownView source={reasoningSource(block.text)} style={{ fontSize: type.body, lineHeight: LINE.prose, color: '#d5d9e2' }} />
        </div>
      );
    case 'call': {
      const call = card.toolCalls[block.call]!;
      const all = callRows(call);
      const whole = block.rows[0] === 0 && block.rows[1] === all.length;
      const last = block.rows[1] === all.length;
      return (
        <Section
          label={block.caption ? (card.toolCalls.length > 1 ? `Tool calls (${card.toolCalls.length})` : 'Tool call') : ''}
          color={theme.accent}
        >
          <div style={{ ...box, display: 'flex', flexDirection: 'column', gap: 4, background: theme.panelRaised }}>
            <span style={{ fontFamily: theme.mono, fontSize: type.min, color: theme.accent, fontWeight: 700 }}>
              {call.name}
              {block.rows[0] > 0 ? ' (continued)' : ''}
            </span>
            {call.code ? (
              <CodeListing
                code={call.code.text}
                language={call.code.language}
                firstLine={block.rows[0]}
                lineCount={block.rows[1] - block.rows[0]}
                style={{ ...mono, padding: '4px 6px', borderRadius: 6 }}
              />
            ) : (
              <ExcerptRows
                all={all}
                rows={block.rows}
                color={theme.text}
                prefix={call.kind === 'command' ? '$ ' : undefined}
                omitted={call.body.omittedLines}
              />
            )}
            {!whole || (call.code && call.code.omittedLines > 0) ? (
              <RowsNote
                rows={block.rows}
                total={all.length + (call.code?.omittedLines ?? 0)}
                extra={
                  call.code && call.code.omittedLines > 0 && last
                    ? ` · the last ${formatCount(call.code.omittedLines)} in the transcript`
                    : ''
                }
              />
            ) : null}
            {call.code?.rest && last ? <pre style={{ ...mono, color: theme.muted }}>{call.code.rest}</pre> : null}
          </div>
        </Section>
      );
    }
    case 'observation': {
      const o = card.observations[block.index]!;
      const all = excerptRows(o.body);
      return (
        <Section
          label={block.caption ? (card.observations.length > 1 ? `Observations (${card.observations.length})` : 'Observation') : ''}
          style={{ opacity: obsOpacity }}
        >
          <div style={{ ...box, background: '#0a0c10', borderColor: o.isError ? 'rgba(248,81,73,0.6)' : theme.border }}>
            {o.isError ? (
              <div style={{ fontSize: type.min, fontWeight: 700, color: theme.fail, marginBottom: 4, letterSpacing: 1 }}>
                ERROR{o.toolName ? ` · ${o.toolName}` : ''}
              </div>
            ) : null}
            {o.body.totalLines === 0 ? (
              <div style={{ fontSize: type.code, color: theme.faint, fontStyle: 'italic' }}>(no output)</div>
            ) : (
              <ExcerptRows all={all} rows={block.rows} color={o.isError ? '#ffb3ad' : '#c9ced8'} omitted={o.body.omittedLines} />
            )}
            {block.rows[0] > 0 || block.rows[1] < all.length ? <RowsNote rows={block.rows} total={all.length} /> : null}
          </div>
        </Section>
      );
    }
  }
};

/** The reasoning's text as Markdown with maths (the one renderer, as the transcript shows it). */
const reasoningSource = (text: string) => richTextSource(mathSegments(text));

/** The pages of a card, computed once per card (a card is the same object on every frame it shows). */
const pagesOf = new WeakMap<StepCard, CardPage[]>();
function cardPagesOf(card: StepCard): CardPage[] {
  let pages = pagesOf.get(card);
  if (!pages) {
    pages = stepCardPages(card);
    pagesOf.set(card, pages);
  }
  return pages;
}

/**
 * One step in full: message, reasoning, tool calls, observations, as pages that fit the scene
 * (lib/video/card-pages.ts), each shown for its share of the card's time: a long reasoning,
 * program or output runs on to the next page, never cut.
 */
const FullCard: React.FC<{
  card: StepCard;
  frame: number;
  from: number;
  duration: number;
  revealFrame: number;
  page?: [number, number];
}> = ({ card, frame, from, duration, revealFrame, page }) => {
  const obsOpacity = interpolate(frame, [revealFrame, revealFrame + 8], [0, 1], { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' });
  const pages = cardPagesOf(card);
  const k = pageAt(pages, frame, from, duration);
  // the card's own pages count on from the message's pages (read pacing splits a long message into scenes)
  const note =
    page || pages.length > 1
      ? page
        ? `page ${page[0]}${pages.length > 1 ? `.${k + 1}` : ''} of ${page[1]}`
        : `page ${k + 1} of ${pages.length}`
      : undefined;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12, ...enter(frame, from) }} data-card-page={`${k + 1}/${pages.length}`}>
      <Header card={card} note={note} />
      {pages[k]!.blocks.map((b, i) => (
        <Block key={`${k}-${i}`} card={card} block={b} obsOpacity={obsOpacity} />
      ))}
    </div>
  );
};

/** A group card's height (estimated): its header and its message. */
const groupCardHeight = (card: StepCard) =>
  24 + 34 + 8 + (card.message.length > 0 ? richTextHeight(card.message, type.body, layout.scene.width - 34) : 30) + 14;

/** A single step, or a group of small consecutive steps shown as a short conversation (the latest ones that fit). */
export const StepView: React.FC<{ scene: StepScene; frame: number }> = ({ scene, frame }) => {
  if (scene.cards.length === 1) {
    const c = scene.cards[0]!;
    return <FullCard card={c.card} frame={frame} from={c.from} duration={c.duration} revealFrame={c.revealFrame} page={scene.page} />;
  }
  const started = scene.cards.filter((c) => c.from <= frame);
  // the newest cards that fit the scene: an older one gives way (it was read while it was the newest)
  let room = layout.scene.height;
  let first = started.length;
  while (first > 0) {
    const h = groupCardHeight(started[first - 1]!.card);
    if (first < started.length && h > room) break;
    room -= h;
    first--;
  }
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 14 }}>
      {started.slice(first).map((c) => {
        const active = frame >= c.from && frame < c.from + c.duration;
        return (
          <div
            key={c.card.index}
            style={{
              padding: '12px 16px',
              borderRadius: 10,
              background: active ? theme.panelRaised : theme.panel,
              border: `1px solid ${active ? (actorColor[c.card.source] ?? theme.border) : theme.border}`,
              opacity: active ? 1 : 0.6,
              display: 'flex',
              flexDirection: 'column',
              gap: 8,
              ...enter(frame, c.from, 6),
            }}
          >
            <Header card={c.card} />
            {c.card.message.length > 0 ? (
              <RichTextView text={c.card.message} style={{ fontSize: type.body, lineHeight: LINE.prose, color: theme.text }} />
            ) : (
              <span style={{ fontSize: type.min, color: theme.faint, fontStyle: 'italic' }}>(empty)</span>
            )}
          </div>
        );
      })}
    </div>
  );
};
