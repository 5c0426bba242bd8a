import React from 'react';
import { chapterAt, criterionStateAt } from '../../../../lib/video/chapters';
import type { Scene, TrajectoryVideoProps } from '../schema';
import { actorColor, layout, theme, type } from '../theme';
import { markUnicodeMaths } from '../../../../lib/rich-text/unicode-maths';
import { CheckIcon, clock, CrossIcon, MarkdownView, PendingIcon } from './common';

/** The frame around every scene: top bar, criteria checklist, progress rail with chapter ticks. */

export const TopBar: React.FC<{ props: TrajectoryVideoProps; frame: number; scene: Scene }> = ({ props, frame, scene }) => {
  const chapter = chapterAt(props.chapters, frame);
  const right =
    scene.kind === 'title'
      ? 'Overview'
      : scene.kind === 'result'
        ? 'Result'
        : scene.kind === 'closing'
          ? 'Outcome'
          : chapter
            ? `Step ${chapter.step + 1} of ${props.header.stepCount}`
            : scene.kind === 'diff'
              ? 'Submission'
              : scene.kind === 'terminal'
                ? 'Terminal'
                : '';
  return (
    <div
      style={{
        position: 'absolute',
        left: 0,
        top: 0,
        right: 0,
        height: layout.topBar,
        contain: 'strict',
        display: 'flex',
        alignItems: 'center',
        gap: 14,
        padding: `0 ${layout.pad}px`,
        borderBottom: `1px solid ${theme.border}`,
        background: theme.panel,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 8, flex: 'none' }}>
        <div style={{ width: 10, height: 10, borderRadius: 3, background: theme.accent, transform: 'rotate(45deg)' }} />
        <span style={{ fontWeight: 700, letterSpacing: 2, fontSize: type.min, color: theme.text }}>WITNESS</span>
      </div>
      <div style={{ width: 1, height: 22, background: theme.border }} />
      <div
        style={{
          fontSize: type.min,
          fontWeight: 600,
          color: theme.text,
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          flex: 1,
        }}
      >
        {props.header.task}
      </div>
      {chapter?.realSeconds != null ? (
        <div style={{ fontFamily: theme.mono, fontSize: type.min, color: theme.muted, flex: 'none' }}>t+{clock(chapter.realSeconds)}</div>
      ) : null}
      {props.criteria.length > 0 ? <CriteriaCount props={props} frame={frame} /> : null}
      <div
        style={{
          fontSize: type.min,
          fontWeight: 600,
          color: theme.text,
          padding: '2px 10px',
          borderRadius: 6,
          background: theme.panelRaised,
          border: `1px solid ${theme.border}`,
          flex: 'none',
          whiteSpace: 'nowrap',
        }}
      >
        {right}
      </div>
    </div>
  );
};

/** The criteria met, failed and in all, in the top bar (the sidebar shows them whole beside the title and closing cards). */
const CriteriaCount: React.FC<{ props: TrajectoryVideoProps; frame: number }> = ({ props, frame }) => {
  const states = props.criteria.map((c) => criterionStateAt(c, frame)?.state);
  return (
    <span
      data-criteria-count
      style={{ fontSize: type.min, color: theme.muted, fontFamily: theme.mono, flex: 'none', whiteSpace: 'nowrap' }}
    >
      <span style={{ color: theme.pass }}>✓{states.filter((s) => s === 'pass').length}</span>{' '}
      <span style={{ color: theme.fail }}>✗{states.filter((s) => s === 'fail').length}</span> / {props.criteria.length}
    </span>
  );
};

/** The scenes the criteria sidebar stands beside: the title card and the closing card. */
export function withSidebar(scene: Scene): boolean {
  return scene.kind === 'title' || scene.kind === 'closing';
}

/** Criterion text in the video's sidebar (px at 1280x720): 12.3 px in the review page's 718 px player. */
export const CRITERION_FONT_PX = type.min;
const CRITERION_LINE_PX = Math.round(CRITERION_FONT_PX * 1.3);
/** characters on a line of the sidebar at that size (an estimate, on the low side: a page never overflows) */
const CRITERION_LINE_CHARS = 30;
/** a page of criteria shows this long when they do not fit at once */
const PAGE_SECONDS = 8;
/** a criterion met or failed mid-run shows as a note this long */
const NOTE_SECONDS = 4;

/** A long formula in a criterion breaks after a relation or a sign like prose (a label elsewhere keeps it on one line: rich-text.css). */
const CRITERIA_CSS = '.wd-criterion .katex { white-space: normal; }';

/** A criterion's height in the sidebar (estimated from its text: pure, no measuring). */
function criterionHeight(text: string): number {
  // what it draws, roughly: a TeX command is one symbol; dollars, braces and script marks draw nothing
  const drawn = text.replace(/\\[a-zA-Z]+/g, 'x').replace(/[$^_{}]/g, '');
  const lines = drawn.split('\n').reduce((n, l) => n + Math.max(1, Math.ceil(l.length / CRITERION_LINE_CHARS)), 0);
  return lines * CRITERION_LINE_PX + 12 + 2 + Math.round(type.min * 1.3) + 2;
}

/**
 * The criteria as pages that fit the sidebar whole (a criterion is never cut: an expert must read
 * all of it); one page for most tasks. Indexes into `criteria`.
 */
export function criteriaPages(texts: readonly string[], room: number): number[][] {
  const pages: number[][] = [[]];
  let used = 0;
  texts.forEach((t, i) => {
    const h = criterionHeight(t) + 8;
    const page = pages[pages.length - 1]!;
    if (page.length > 0 && used + h > room) {
      pages.push([i]);
      used = h;
    } else {
      page.push(i);
      used += h;
    }
  });
  return pages;
}

export const Checklist: React.FC<{ props: TrajectoryVideoProps; frame: number }> = ({ props, frame }) => {
  const states = props.criteria.map((c) => criterionStateAt(c, frame));
  const passed = states.filter((s) => s?.state === 'pass').length;
  const failed = states.filter((s) => s?.state === 'fail').length;
  const texts = props.criteria.map((c) => (c.origin === 'verifier' ? (c.text.split('::').pop() ?? c.text) : markUnicodeMaths(c.text)));
  const room = props.height - layout.topBar - layout.rail - 36 - 36;
  // estimated on the text as written (its TeX source is longer than what it draws)
  const pages = criteriaPages(
    props.criteria.map((c) => c.text),
    room,
  );
  // the page of a criterion that just changed; else the pages in turn
  const changed = states.reduce<number>(
    (best, s, i) => (s && frame - s.frame < 3 * props.fps && (best < 0 || s.frame > states[best]!.frame) ? i : best),
    -1,
  );
  const pageIndex =
    changed >= 0 ? pages.findIndex((p) => p.includes(changed)) : Math.floor(frame / (PAGE_SECONDS * props.fps)) % pages.length;
  const shown = pages[pageIndex] ?? [];
  return (
    <div
      style={{
        position: 'absolute',
        top: layout.topBar,
        right: 0,
        bottom: layout.rail,
        width: layout.sidebar,
        contain: 'strict',
        borderLeft: `1px solid ${theme.border}`,
        background: theme.panel,
        padding: '18px 16px',
        display: 'flex',
        flexDirection: 'column',
        gap: 8,
      }}
    >
      <style>{CRITERIA_CSS}</style>
      <div style={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between' }}>
        <span style={{ fontSize: type.min, letterSpacing: 1.2, textTransform: 'uppercase', color: theme.muted, fontWeight: 700 }}>
          Criteria{pages.length > 1 ? ` ${pageIndex + 1}/${pages.length}` : ''}
        </span>
        <span style={{ fontSize: type.min, color: theme.muted, fontFamily: theme.mono }}>
          <span style={{ color: theme.pass }}>{passed}</span> / <span style={{ color: theme.fail }}>{failed}</span> /{' '}
          {props.criteria.length}
        </span>
      </div>
      {props.criteria.length === 0 ? (
        <div style={{ fontSize: type.body, color: theme.faint, fontStyle: 'italic' }}>No acceptance criteria recorded for this task.</div>
      ) : null}
      {shown.map((i) => {
        const c = props.criteria[i]!;
        const s = states[i];
        const justChanged = s && frame - s.frame < 12;
        const bg = s?.state === 'pass' ? 'rgba(63,185,80,0.10)' : s?.state === 'fail' ? 'rgba(248,81,73,0.10)' : 'transparent';
        return (
          <div
            key={c.key}
            style={{
              display: 'flex',
              gap: 8,
              alignItems: 'flex-start',
              padding: '6px 8px',
              borderRadius: 8,
              background: bg,
              border: `1px solid ${justChanged ? (s.state === 'pass' ? theme.pass : theme.fail) : s ? 'transparent' : theme.border}`,
            }}
          >
            <div style={{ paddingTop: 3, transform: justChanged ? `scale(${1 + (12 - (frame - s.frame)) / 24})` : undefined }}>
              {s?.state === 'pass' ? <CheckIcon /> : s?.state === 'fail' ? <CrossIcon /> : <PendingIcon />}
            </div>
            <div style={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
              <span
                data-criterion={c.key}
                className="wd-criterion"
                style={{
                  fontSize: CRITERION_FONT_PX,
                  lineHeight: 1.3,
                  color: s ? theme.text : theme.muted,
                  fontFamily: c.origin === 'verifier' ? theme.mono : theme.sans,
                  overflowWrap: 'anywhere',
                }}
              >
                {c.origin === 'verifier' ? texts[i] : <MarkdownView source={texts[i]!} inline />}
              </span>
              <span style={{ fontSize: type.min, color: theme.faint }}>{criterionNote(c, s ?? null)}</span>
            </div>
          </div>
        );
      })}
    </div>
  );
};

/** what the line under a criterion says: where it was seen, or why it is not marked */
function criterionNote(c: TrajectoryVideoProps['criteria'][number], s: ReturnType<typeof criterionStateAt>): string {
  return s
    ? s.source === 'verifier'
      ? 'verifier verdict'
      : `seen in step ${(s.step ?? 0) + 1}`
    : c.origin === 'verifier'
      ? 'verifier test'
      : c.verdict === null
        ? 'not checked by the verifier'
        : 'pending';
}

/** A note over the scene's corner for the seconds after a criterion is met or failed (the sidebar is not there). */
export const CriterionNote: React.FC<{ props: TrajectoryVideoProps; frame: number }> = ({ props, frame }) => {
  let latest = -1;
  let at = -1;
  props.criteria.forEach((c, i) => {
    const s = criterionStateAt(c, frame);
    if (s && frame - s.frame < NOTE_SECONDS * props.fps && s.frame > at) {
      latest = i;
      at = s.frame;
    }
  });
  if (latest < 0) return null;
  const c = props.criteria[latest]!;
  const s = criterionStateAt(c, frame)!;
  const text = c.origin === 'verifier' ? (c.text.split('::').pop() ?? c.text) : markUnicodeMaths(c.text);
  const color = s.state === 'pass' ? theme.pass : theme.fail;
  const k = Math.min(1, (frame - s.frame) / 6);
  return (
    <div
      data-criterion-note={c.key}
      style={{
        position: 'absolute',
        right: layout.pad,
        bottom: layout.rail + layout.pad,
        width: 560,
        display: 'flex',
        gap: 10,
        alignItems: 'flex-start',
        padding: '12px 14px',
        borderRadius: 10,
        background: theme.panelRaised,
        border: `2px solid ${color}`,
        boxShadow: '0 8px 24px rgba(0,0,0,0.5)',
        opacity: k,
        transform: `translateY(${(1 - k) * 12}px)`,
      }}
    >
      <div style={{ paddingTop: 4 }}>{s.state === 'pass' ? <CheckIcon size={20} /> : <CrossIcon size={20} />}</div>
      <div style={{ display: 'flex', flexDirection: 'column', gap: 2, minWidth: 0 }}>
        <span className="wd-criterion" style={{ fontSize: type.body, lineHeight: 1.3, color: theme.text, overflowWrap: 'anywhere' }}>
          {c.origin === 'verifier' ? text : <MarkdownView source={text} inline />}
        </span>
        <span style={{ fontSize: type.min, color }}>
          {s.state === 'pass' ? 'met' : 'failed'} · {criterionNote(c, s)}
        </span>
      </div>
      <style>{CRITERIA_CSS}</style>
    </div>
  );
};

export const ProgressRail: React.FC<{ props: TrajectoryVideoProps; frame: number }> = ({ props, frame }) => {
  const total = props.durationInFrames;
  const width = props.width - layout.pad * 2;
  const x = (f: number) => (f / total) * width;
  const chapter = chapterAt(props.chapters, frame);
  // the bars change only when the playhead enters a chapter: drawn again then, not at every frame
  // (a 1,000-step run has 1,000 of them)
  const reached = chaptersReached(props.chapters, frame);
  return (
    <div
      style={{
        position: 'absolute',
        left: 0,
        right: 0,
        bottom: 0,
        height: layout.rail,
        contain: 'strict',
        borderTop: `1px solid ${theme.border}`,
        background: theme.panel,
        padding: `9px ${layout.pad}px 0`,
      }}
    >
      <RailBars
        chapters={props.chapters}
        colors={chapterColors(props.chapters, props.scenes)}
        total={total}
        width={width}
        activeStep={chapter?.step ?? null}
        reached={reached}
      />
      <div
        style={{
          position: 'absolute',
          // whole pixels: the playhead moves about a pixel every few frames, and a fractional
          // position would repaint it (and the tile under it) on every frame
          left: Math.round(layout.pad + x(frame) - 1),
          top: 4,
          width: 3,
          height: 18,
          borderRadius: 2,
          background: theme.text,
        }}
      />
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          marginTop: 7,
          fontSize: type.min,
          lineHeight: 1.2,
          color: theme.muted,
          gap: 16,
        }}
      >
        <span style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {chapter ? (
            <>
              {chapter.step + 1}. <MarkdownView source={chapter.label} inline />
            </>
          ) : frame < (props.chapters[0]?.fromFrame ?? 0) ? (
            'Task'
          ) : (
            'Outcome'
          )}
        </span>
        <span style={{ fontFamily: theme.mono, flex: 'none' }}>
          {clock(frame / props.fps)} / {clock(total / props.fps)}
        </span>
      </div>
    </div>
  );
};

/** how many chapters start at or before `frame` (chapters are in frame order) */
function chaptersReached(chapters: TrajectoryVideoProps['chapters'], frame: number): number {
  let lo = 0;
  let hi = chapters.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (chapters[mid]!.fromFrame <= frame) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Each chapter's bar colour (its step's actor), joined into one string: the same string for the
 * same colours, so the bars are not drawn again when the Player's props change but the colours do
 * not (a part of the video arriving brings new scene objects, not new actors: a head's stub
 * cards keep their source). Computed once per scenes array (the rail is drawn at every frame);
 * keyed by the scenes alone, as a props object's chapters are derived with its scenes.
 */
const colorsOfScenes = new WeakMap<TrajectoryVideoProps['scenes'], string>();
function chapterColors(chapters: TrajectoryVideoProps['chapters'], scenes: TrajectoryVideoProps['scenes']): string {
  const known = colorsOfScenes.get(scenes);
  if (known !== undefined) return known;
  const sources = new Map<number, string>();
  for (const s of scenes) if (s.kind === 'step') for (const c of s.cards) sources.set(c.card.index, c.card.source);
  const colors = chapters.map((c) => actorColor[sources.get(c.step) ?? 'agent'] ?? theme.accent).join(' ');
  colorsOfScenes.set(scenes, colors);
  return colors;
}

/** The rail's chapter bars: a pure function of the chapters, their colours, the active step and how many chapters the playhead reached. */
const RailBars = React.memo(function RailBars({
  chapters,
  colors,
  total,
  width,
  activeStep,
  reached,
}: {
  chapters: TrajectoryVideoProps['chapters'];
  /** chapterColors: one colour a chapter, space-separated */
  colors: string;
  total: number;
  width: number;
  activeStep: number | null;
  reached: number;
}) {
  const x = (f: number) => (f / total) * width;
  const color = colors.split(' ');
  return (
    <div style={{ position: 'relative', height: 8, width, borderRadius: 4, background: theme.panelRaised, overflow: 'hidden' }}>
      {chapters.map((c, i) => {
        const active = activeStep === c.step;
        return (
          <div
            key={c.step}
            style={{
              position: 'absolute',
              left: x(c.fromFrame),
              width: Math.max(1, x(c.toFrame) - x(c.fromFrame) - 1),
              top: 0,
              bottom: 0,
              background: color[i],
              opacity: active ? 1 : i < reached ? 0.55 : 0.2,
            }}
          />
        );
      })}
    </div>
  );
});
