import React from 'react';
import { interpolate } from 'remotion';
import type { ClosingScene, TrajectoryVideoProps } from '../schema';
import { theme, type } from '../theme';
import { closingHolds, closingPages, componentLabel, LINE, shareAt, type ClosingPage } from '../../../../lib/video/card-pages';
import { caption, enter, Pill, RichTextView } from './common';

function scoreColor(v: number | null): string {
  if (v === null) return theme.muted;
  if (v >= 0.999) return theme.pass;
  if (v <= 0.001) return theme.fail;
  return theme.warn;
}

/** a judge's score and the final answer sit on the same panel */
const box: React.CSSProperties = { padding: '10px 14px', borderRadius: 8, background: theme.panel, border: `1px solid ${theme.border}` };
const fmt = (v: number | null) => (v === null ? '—' : Number.isInteger(v) ? String(v) : v.toFixed(2));

/** The closing card's pages, once per outcome (the same object on every frame). */
const pagesOf = new WeakMap<TrajectoryVideoProps['outcome'], ClosingPage[]>();

/**
 * The outcome: reward, its components as bars, judge scores and explanations, the final answer,
 * exit status and usage. Laid out over pages when it does not fit beside the criteria
 * (lib/video/card-pages.ts closingPages), each page its share of the card's time; nothing cut.
 */
export const ClosingCard: React.FC<{ props: TrajectoryVideoProps; scene: ClosingScene; frame: number }> = ({ props, scene, frame }) => {
  const o = props.outcome;
  let pages = pagesOf.get(o);
  if (!pages) {
    pages = closingPages(o);
    pagesOf.set(o, pages);
  }
  const { index: k, from: pageFrom } = shareAt(
    closingHolds(pages, props.pacing === 'read', o.judges.length > 0),
    frame,
    scene.from,
    scene.duration,
  );
  const page = pages[k]!;
  const grow = interpolate(frame - scene.from, [4, 22], [0, 1], { extrapolateLeft: 'clamp', extrapolateRight: 'clamp' });
  const components = o.components.slice(...page.components);
  const usage = o.usage;
  return (
    <div
      data-closing-page={`${k + 1}/${pages.length}`}
      style={{ display: 'flex', flexDirection: 'column', gap: 14, ...enter(frame, pageFrom, 10) }}
    >
      <div style={{ fontSize: type.min, letterSpacing: 2, textTransform: 'uppercase', color: theme.accent, fontWeight: 700 }}>
        Outcome
        {pages.length > 1 ? (
          <span style={{ letterSpacing: 0, textTransform: 'none', color: theme.faint, fontWeight: 400 }}>
            {' '}
            · page {k + 1} of {pages.length}
          </span>
        ) : null}
      </div>
      {k === 0 ? (
        <div style={{ display: 'flex', alignItems: 'flex-end', gap: 18 }}>
          {props.blind?.reward ? (
            <>
              <div style={{ fontSize: 48, fontWeight: 800, lineHeight: 1, color: theme.muted, fontFamily: theme.sans }}>Reward hidden</div>
              <div style={{ fontSize: type.min, color: theme.muted, paddingBottom: 6 }}>blind review: judge the run on what you saw</div>
            </>
          ) : (
            <>
              <div style={{ fontSize: 64, fontWeight: 800, lineHeight: 1, color: scoreColor(o.reward), fontFamily: theme.sans }}>
                {o.reward === null ? 'no reward' : fmt(o.reward)}
              </div>
              <div style={{ fontSize: type.min, color: theme.muted, paddingBottom: 8 }}>
                {o.reward === null ? 'the verifier gave no scalar reward' : 'verifier reward'}
              </div>
            </>
          )}
        </div>
      ) : null}
      {components.length > 0 ? (
        <div style={{ display: 'flex', flexDirection: 'column', gap: 7 }}>
          {components.map((c) => {
            const v = Math.max(0, Math.min(1, c.value));
            return (
              <div key={c.name} style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 2fr) 1fr 64px', alignItems: 'center', gap: 12 }}>
                <span
                  style={{
                    fontFamily: theme.mono,
                    fontSize: type.min,
                    color: theme.text,
                    overflowWrap: 'anywhere',
                  }}
                >
                  {componentLabel(c.name)}
                </span>
                <div style={{ height: 10, borderRadius: 5, background: theme.panelRaised, overflow: 'hidden' }}>
                  <div style={{ width: `${v * grow * 100}%`, height: 10, borderRadius: 5, background: scoreColor(c.value) }} />
                </div>
                <span style={{ fontFamily: theme.mono, fontSize: type.min, color: scoreColor(c.value), textAlign: 'right' }}>
                  {fmt(c.value)}
                </span>
              </div>
            );
          })}
        </div>
      ) : null}
      {page.judgeRows.map((row) => (
        <div key={row[0]} style={{ display: 'grid', gridTemplateColumns: `repeat(${row.length}, minmax(0, 1fr))`, gap: 10 }}>
          {row.map((i) => {
            const j = o.judges[i]!;
            return (
              <div key={i} style={{ ...box, display: 'flex', flexDirection: 'column', gap: 4 }}>
                <div style={{ display: 'flex', alignItems: 'baseline', gap: 8 }}>
                  <span style={caption()}>Judge · {j.judge}</span>
                  <div style={{ flex: 1 }} />
                  <span style={{ fontSize: type.body, fontWeight: 700, color: scoreColor(j.score) }}>{fmt(j.score)}</span>
                  {j.label ? <span style={{ fontSize: type.min, color: theme.muted }}>{j.label}</span> : null}
                </div>
                {j.explanation ? <span style={{ fontSize: type.min, lineHeight: 1.35, color: theme.muted }}>{j.explanation}</span> : null}
              </div>
            );
          })}
        </div>
      ))}
      {page.answer ? (
        <div style={box}>
          <div style={{ ...caption(), marginBottom: 4 }}>Final answer</div>
          <RichTextView text={page.answer} style={{ fontSize: type.body, lineHeight: LINE.prose, color: theme.text }} />
        </div>
      ) : null}
      {k === 0 ? (
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 10 }}>
          <Pill label="Exit status" value={o.exitStatus ?? '—'} />
          <Pill
            label="Tokens (in / out)"
            value={
              props.blind?.policy
                ? 'hidden'
                : usage && (usage.promptTokens !== null || usage.completionTokens !== null)
                  ? `${usage.promptTokens ?? '—'} / ${usage.completionTokens ?? '—'}`
                  : '—'
            }
          />
          <Pill label="Cost" value={props.blind?.policy ? 'hidden' : usage?.costUsd != null ? `$${usage.costUsd.toFixed(4)}` : '—'} />
        </div>
      ) : null}
    </div>
  );
};
