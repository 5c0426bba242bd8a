'use client';

import { memo, startTransition, useEffect, useRef, useState } from 'react';
import type { TranscriptStep } from '@/lib/video/transcript';
import { stepNumber } from '../ui/format';
import { formatCount } from '../../lib/video/text';
import { DeferredCodeListing, DeferredRichText } from '../ui/deferred-text';
import { inert } from '@/lib/rich-text/inert-text';

const sourceStyle: Record<TranscriptStep['source'], { rule: string; chip: string }> = {
  system: { rule: 'border-l-zinc-400', chip: 'bg-zinc-100 text-zinc-700' },
  user: { rule: 'border-l-sky-500', chip: 'bg-sky-50 text-sky-800' },
  agent: { rule: 'border-l-indigo-500', chip: 'bg-indigo-50 text-indigo-800' },
  tool: { rule: 'border-l-amber-500', chip: 'bg-amber-50 text-amber-800' },
  environment: { rule: 'border-l-emerald-500', chip: 'bg-emerald-50 text-emerald-800' },
  hook: { rule: 'border-l-fuchsia-500', chip: 'bg-fuchsia-50 text-fuchsia-800' },
};

/** how long after the reviewer's own scrolling the transcript stops following the playhead */
const USER_SCROLL_HOLD_MS = 4000;
const TICK_MS = 500;
/** reading counts only while the reviewer was there this recently (a key, the pointer, the wheel, a scroll or a touch) */
const PRESENCE_MS = 45_000;
/** a step is in view when this share of it (or of the visible transcript, for a tall step) is on screen */
const IN_VIEW_SHARE = 0.4;

/**
 * Whether a step is on screen: inside the transcript's scroll box AND the window (a step below
 * the fold sits inside its box but is not read; issue 43 §1).
 */
function onScreen(el: HTMLElement, box: HTMLElement): boolean {
  const r = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const top = Math.max(r.top, b.top, 0);
  const bottom = Math.min(r.bottom, b.bottom, window.innerHeight);
  const shown = bottom - top;
  if (shown <= 0 || r.height <= 0) return false;
  const boxShown = Math.min(b.bottom, window.innerHeight) - Math.max(b.top, 0);
  return shown >= r.height * IN_VIEW_SHARE || shown >= boxShown * IN_VIEW_SHARE;
}

/** The last time the reviewer did something on the page (module-wide: one listener for every transcript). */
let lastPresenceAt = -Infinity;
/** when reading time was last counted, by any transcript on the page */
let readClock = -Infinity;
let presenceListening = false;
/** Starts listening (once); a transcript that mounts (a new item, a client navigation) starts with no presence: the click that brought it counts for nothing. */
function listenForPresence(): void {
  lastPresenceAt = -Infinity;
  if (presenceListening || typeof document === 'undefined') return;
  presenceListening = true;
  const mark = () => {
    lastPresenceAt = performance.now();
  };
  for (const type of ['pointermove', 'pointerdown', 'wheel', 'keydown', 'touchstart'] as const)
    document.addEventListener(type, mark, { passive: true, capture: true });
  document.addEventListener('scroll', mark, { passive: true, capture: true });
}

/** Whether reading time counts now: the tab visible and focused, and the reviewer present. */
function attending(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus() && performance.now() - lastPresenceAt < PRESENCE_MS;
}

/**
 * The blind transcript beside the player: every step in full (lib/video/transcript.ts), each
 * rendered once it comes near the view (see NEAR_MARGIN). The
 * step showing in the video is highlighted and kept in view unless the reviewer is scrolling;
 * clicking a step seeks the video to it; a step's "Note" pins an evidence note to the frame
 * where it shows. Steps in view (inside the box and the window) are reported every half second
 * while the tab is visible and focused and the reviewer has done something on the page in the
 * last 45 s (transcript reading counts toward coverage, lib/review/transcript-reading.ts: one
 * step at a time, each for its reading time).
 */
export function BlindTranscript({
  steps,
  activeStep,
  readSteps,
  divergentStep = null,
  label = 'Transcript',
  onSeekStep,
  onPinStep,
  onReading,
  className = 'max-h-[34rem]',
  fill = false,
}: {
  steps: TranscriptStep[];
  activeStep: number | null;
  readSteps: ReadonlySet<number>;
  /** position (0-based) of the first step where this run and the other differ (compare page) */
  divergentStep?: number | null;
  label?: string;
  onSeekStep: (step: number) => void;
  onPinStep: (step: number) => void;
  onReading: (inView: number[], seconds: number) => void;
  className?: string;
  /**
   * fill its parent's height at lg (the review pages lay the transcript out beside the player:
   * the parent is a flex column with the room left; the steps scroll in their own box)
   */
  fill?: boolean;
}) {
  const box = useRef<HTMLOListElement>(null);
  const visible = useRef(new Set<number>());
  // the steps rendered whole (see NEAR_MARGIN), for these steps: a new transcript starts with none
  const [nearOf, setNearOf] = useState<{ steps: TranscriptStep[]; near: ReadonlySet<number> }>(() => ({ steps, near: NO_STEPS }));
  const near = nearOf.steps === steps ? nearOf.near : NO_STEPS;
  const userScrollAt = useRef(0);
  const onReadingRef = useRef(onReading);
  useEffect(() => {
    onReadingRef.current = onReading;
  }, [onReading]);

  // which steps are in view (at least 40% of the step, or 40% of the box for tall steps)
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const seen = visible.current;
    const observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          const step = Number((e.target as HTMLElement).dataset.transcriptStep);
          const enough =
            e.isIntersecting && (e.intersectionRatio >= 0.4 || e.intersectionRect.height >= (e.rootBounds?.height ?? Infinity) * 0.4);
          if (enough) seen.add(step);
          else seen.delete(step);
        }
      },
      { root, threshold: [0, 0.1, 0.2, 0.4, 0.6, 0.8, 1] },
    );
    root.querySelectorAll('[data-transcript-step]').forEach((el) => observer.observe(el));
    listenForPresence();
    let last = performance.now();
    const timer = window.setInterval(() => {
      const now = performance.now();
      // the reading clock is the page's, not this transcript's: two transcripts in view (the compare page) share
      // the seconds, so reading both takes as long as reading one after the other (what the server checks)
      const since = Math.max(last, readClock);
      last = now;
      if (seen.size === 0 || !attending()) return;
      const inView = [...seen].filter((step) => {
        const el = root.querySelector<HTMLElement>(`[data-transcript-step="${step}"]`);
        return el !== null && onScreen(el, root);
      });
      if (inView.length === 0) return;
      readClock = now;
      onReadingRef.current(inView, Math.min(2, Math.max(0, now - since) / 1000));
    }, TICK_MS);
    return () => {
      observer.disconnect();
      window.clearInterval(timer);
      seen.clear();
    };
  }, [steps]);

  // which steps are near the view: one observer for the whole transcript (not one a step); a step
  // that came near stays rendered whole. Typesetting them is a transition: it yields to the
  // reviewer's clicks and keys, and never holds up the page becoming interactive.
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const came: number[] = [];
        for (const e of entries) {
          if (!e.isIntersecting) continue;
          came.push(Number((e.target as HTMLElement).dataset.transcriptStep));
          observer.unobserve(e.target);
        }
        if (came.length === 0) return;
        startTransition(() =>
          setNearOf((old) => {
            const next = new Set(old.steps === steps ? old.near : NO_STEPS);
            for (const step of came) next.add(step);
            return { steps, near: next };
          }),
        );
      },
      { root, rootMargin: NEAR_MARGIN },
    );
    root.querySelectorAll('[data-transcript-step]').forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [steps]);

  // follow the playhead unless the reviewer is scrolling
  useEffect(() => {
    const root = box.current;
    if (!root || activeStep === null) return;
    if (Date.now() - userScrollAt.current < USER_SCROLL_HOLD_MS) return;
    const el = root.querySelector<HTMLElement>(`[data-transcript-step="${activeStep}"]`);
    if (!el) return;
    const top = el.offsetTop; // the list is the steps' offset parent (relative)
    if (top < root.scrollTop || top > root.scrollTop + root.clientHeight - Math.min(el.clientHeight, root.clientHeight / 2))
      root.scrollTo({ top: Math.max(0, top - 8) });
  }, [activeStep]);

  const markUserScroll = () => {
    userScrollAt.current = Date.now();
  };

  if (steps.length === 0) return <p className="rounded-lg border border-dashed border-zinc-300 p-4 text-sm text-zinc-500">No steps.</p>;
  return (
    <section
      aria-label={label}
      className={`rounded-xl border border-zinc-200 bg-white shadow-sm ${fill ? 'flex min-h-0 flex-col lg:min-h-0 lg:flex-1' : ''}`}
    >
      <div className="flex items-baseline justify-between border-b border-zinc-100 px-3 py-1.5">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-500">{label}</h2>
        <span className="text-[11px] text-zinc-400" data-testid="transcript-read">
          {readSteps.size} of {steps.length} steps read · click a step to play it
        </span>
      </div>
      <ol
        ref={box}
        className={`relative space-y-2 overflow-y-auto p-2 ${fill ? 'max-h-[34rem] lg:max-h-none lg:min-h-0 lg:flex-1' : className}`}
        onWheel={markUserScroll}
        onTouchMove={markUserScroll}
        onKeyDown={markUserScroll}
        onMouseDown={(e) => {
          // dragging the scrollbar
          if (e.target === box.current) markUserScroll();
        }}
        data-testid="transcript"
      >
        {steps.map((s, i) => (
          <TranscriptItem
            key={s.index}
            step={s}
            active={s.index === activeStep}
            read={readSteps.has(s.index)}
            near={near.has(s.index)}
            divergent={divergentStep === i}
            onSeekStep={onSeekStep}
            onPinStep={onPinStep}
          />
        ))}
      </ol>
    </section>
  );
}

const TranscriptItem = memo(function TranscriptItem({
  step,
  active,
  read,
  near,
  divergent,
  onSeekStep,
  onPinStep,
}: {
  step: TranscriptStep;
  active: boolean;
  read: boolean;
  /** rendered whole (near the view, or it was) */
  near: boolean;
  divergent: boolean;
  onSeekStep: (step: number) => void;
  onPinStep: (step: number) => void;
}) {
  const style = sourceStyle[step.source];
  const empty = step.text === '' && !step.reasoning && step.toolCalls.length === 0 && step.observations.length === 0;
  const far = near ? 0 : farHeight(step);
  return (
    <li
      data-transcript-step={step.index}
      // off screen, the browser skips a far step's layout and paint, at its estimated height
      style={near ? undefined : { contentVisibility: 'auto', containIntrinsicSize: `auto ${STEP_HEADER_PX + far}px` }}
      data-active={active || undefined}
      aria-current={active ? 'step' : undefined}
      className={`rounded-lg border border-l-4 ${style.rule} ${active ? 'border-indigo-300 bg-indigo-50/40 ring-1 ring-indigo-200' : 'border-zinc-200 bg-white'}`}
      onClick={(e) => {
        const target = e.target as HTMLElement;
        if (target.closest('button, a, summary, details[open] pre')) return;
        if (window.getSelection()?.toString()) return;
        onSeekStep(step.index);
      }}
    >
      {divergent ? (
        <p className="rounded-t-md bg-rose-600 px-3 py-0.5 text-[11px] font-semibold text-white" data-testid="divergence">
          The two runs diverge here
        </p>
      ) : null}
      <div className="flex cursor-pointer items-center gap-2 px-3 py-1 text-xs">
        <span className="font-mono text-zinc-400">#{stepNumber(step.index)}</span>
        <span className={`rounded px-1.5 py-0.5 font-semibold ${style.chip}`}>{inert(step.actor)}</span>
        {read ? (
          <span className="text-[10px] text-emerald-700" title="counted as read">
            ✓ read
          </span>
        ) : null}
        <span className="ml-auto flex gap-1">
          <button
            type="button"
            onClick={() => onSeekStep(step.index)}
            className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-100"
            aria-label={`Play step ${stepNumber(step.index)} in the video`}
          >
            ▶ play
          </button>
          <button
            type="button"
            onClick={() => onPinStep(step.index)}
            className="rounded px-1.5 py-0.5 text-zinc-600 hover:bg-zinc-100"
            aria-label={`Pin a note to step ${stepNumber(step.index)}`}
          >
            + note
          </button>
        </span>
      </div>
      {near ? (
        <div className="space-y-2 px-3 pb-2 text-sm text-zinc-800">
          {step.text !== '' ? <DeferredRichText text={step.text} /> : null}
          {step.reasoning ? <Reasoning text={step.reasoning} /> : null}
          {step.toolCalls.map((c, i) =>
            c.code ? (
              <CodeCall key={i} name={c.name} code={c.code.text} language={c.code.language} rest={c.arguments} />
            ) : c.arguments === '' ? (
              <p key={i} className="font-mono text-xs font-semibold text-indigo-800">
                {inert(c.name)}()
              </p>
            ) : (
              <LongBlock key={i} title={inert(c.name)} text={c.arguments} tone="call" />
            ),
          )}
          {step.observations.map((o, i) => (
            <LongBlock
              key={i}
              title={o.isError ? 'Error output' : o.toolName ? `Output of ${inert(o.toolName)}` : 'Output'}
              text={o.content === '' ? '(no output)' : o.content}
              tone={o.isError ? 'error' : 'output'}
            />
          ))}
          {step.diffs.map((d, i) => (
            <DiffBlock key={i} path={d.path} text={d.text} />
          ))}
          {empty ? <p className="text-xs italic text-zinc-400">Empty step.</p> : null}
        </div>
      ) : (
        <FarStep step={step} height={far} />
      )}
    </li>
  );
});

/**
 * A long transcript is rendered where the reviewer reads it: a 200-step run is thousands of
 * elements and hundreds of formulas, and rendering and typesetting them all (on the server and
 * again at hydration) kept the review page from becoming interactive for seconds. A step is
 * rendered whole and typeset (Markdown + KaTeX) once it comes within a few screens of the
 * transcript's view, and stays so; until then it is its header (play, note: every step can be
 * played and pinned) and the start of its text, about as tall as the whole step (FarStep), and
 * the browser skips its layout and paint while it is off screen (`content-visibility: auto`, at
 * that same height).
 */
const NEAR_MARGIN = '1200px 0px';
const NO_STEPS: ReadonlySet<number> = new Set();

/** a far step's estimated height: its body's (farHeight) and its header's */
const STEP_HEADER_PX = 30;

function farHeight(step: TranscriptStep): number {
  const blocks = step.toolCalls.length + step.observations.length + step.diffs.length + (step.reasoning ? 1 : 0);
  const lines = (t: string) => Math.min(LONG_LINES, t.split('\n').length);
  const textLines = Math.min(200, Math.ceil(step.text.length / 90) + step.text.split('\n').length - 1);
  const blockLines = [
    ...step.toolCalls.map((c) => (c.code ? Math.min(CODE_LINES, c.code.text.split('\n').length) : lines(c.arguments))),
    ...step.observations.map((o) => lines(o.content)),
  ].reduce((a, b) => a + b, 0);
  return Math.round(8 + textLines * 20 + blocks * 30 + blockLines * 19.5 + (step.reasoning ? 40 : 0));
}

/** characters of a far step's text shown before it comes near */
const FAR_PREVIEW = 240;

/** A step far from view: the start of its text, and room for the rest (about its rendered height, so the scroll position holds). */
function FarStep({ step, height }: { step: TranscriptStep; height: number }) {
  return (
    <div className="px-3 pb-2 text-sm text-zinc-800" style={{ minHeight: height }}>
      {step.text !== '' ? (
        <p className="line-clamp-2 whitespace-pre-wrap break-words text-zinc-500">{inert(step.text.slice(0, FAR_PREVIEW))}</p>
      ) : null}
    </div>
  );
}

function Reasoning({ text }: { text: string }) {
  const [open, setOpen] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > 3 || text.length > 320;
  const shown = open || !long ? text : `${lines.slice(0, 3).join('\n').slice(0, 320)}…`;
  return (
    <div className="rounded-md border border-dashed border-zinc-300 bg-zinc-50/60 px-3 py-1.5 text-[13px] italic text-zinc-600">
      <p className="mb-0.5 text-[11px] font-medium not-italic text-zinc-500">Reasoning</p>
      <DeferredRichText text={shown} />
      {long ? (
        <button
          type="button"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          className="mt-0.5 text-xs font-medium not-italic text-indigo-700 hover:underline"
        >
          {open ? 'Show less' : `Show all reasoning (${formatCount(text.length)} characters)`}
        </button>
      ) : null}
    </div>
  );
}

const LONG_LINES = 14;
/** a program is read whole up to this many lines before it folds (an expert reads the code, not its start) */
const CODE_LINES = 80;

/** A tool call that runs a program: its source highlighted with line numbers, the other arguments under it. */
function CodeCall({ name, code, language, rest }: { name: string; code: string; language: 'python' | 'bash' | null; rest: string }) {
  const [open, setOpen] = useState(false);
  const lineCount = code.split('\n').length;
  const long = lineCount > CODE_LINES;
  return (
    <div className="overflow-hidden rounded-md border border-zinc-800 bg-[#0d1117]" data-testid="tool-call-code">
      <div className="flex items-center gap-2 px-2 py-0.5 text-[11px] text-zinc-300">
        <span className="font-mono font-semibold text-indigo-200">{inert(name)}</span>
        <span className="opacity-70">
          {language ?? 'code'} · {formatCount(lineCount)} {lineCount === 1 ? 'line' : 'lines'}
        </span>
        {long ? (
          <button
            type="button"
            onClick={() => setOpen((o) => !o)}
            aria-expanded={open}
            className="ml-auto underline-offset-2 hover:underline"
          >
            {open ? 'collapse' : `show all ${formatCount(lineCount)} lines`}
          </button>
        ) : null}
      </div>
      <DeferredCodeListing
        code={inert(code)}
        language={language}
        lineCount={long && !open ? CODE_LINES : undefined}
        className="px-2 pb-1.5 font-mono text-xs leading-relaxed"
      />
      {rest !== '' ? <pre className="border-t border-zinc-800 px-2 py-1 font-mono text-[11px] text-zinc-400">{inert(rest)}</pre> : null}
    </div>
  );
}
const LONG_CHARS = 1500;

function LongBlock({ title, text, tone }: { title: string; text: string; tone: 'call' | 'output' | 'error' }) {
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState(false);
  const shownText = inert(text);
  const lines = shownText.split('\n');
  const long = lines.length > LONG_LINES || shownText.length > LONG_CHARS;
  const shown = open || !long ? shownText : lines.slice(0, LONG_LINES).join('\n').slice(0, LONG_CHARS);
  const colours =
    tone === 'call'
      ? 'border-indigo-100 bg-indigo-50/40 text-zinc-800'
      : tone === 'error'
        ? 'border-rose-500 bg-rose-950 text-rose-50'
        : 'border-zinc-800 bg-zinc-900 text-zinc-100';
  return (
    <div className={`overflow-hidden rounded-md border ${colours}`}>
      <div className="flex items-center gap-2 px-2 py-0.5 text-[11px]">
        <span className="font-mono font-semibold">{title}</span>
        <span className="opacity-60">
          {formatCount(lines.length)} {lines.length === 1 ? 'line' : 'lines'}, {formatCount(text.length)} characters
        </span>
        <span className="ml-auto flex gap-2">
          {long ? (
            <button type="button" onClick={() => setOpen((o) => !o)} aria-expanded={open} className="underline-offset-2 hover:underline">
              {open ? 'collapse' : 'expand'}
            </button>
          ) : null}
          <button
            type="button"
            onClick={() => {
              void navigator.clipboard?.writeText(text).then(() => {
                setCopied(true);
                window.setTimeout(() => setCopied(false), 1200);
              });
            }}
            className="underline-offset-2 hover:underline"
          >
            {copied ? 'copied' : 'copy'}
          </button>
        </span>
      </div>
      <pre className="max-h-none overflow-x-auto whitespace-pre-wrap break-words px-2 pb-1.5 font-mono text-xs leading-relaxed">
        {shown}
        {long && !open ? (
          <span className="select-none opacity-60">{`\n… ${formatCount(lines.length - LONG_LINES)} more lines`}</span>
        ) : null}
      </pre>
    </div>
  );
}

function DiffBlock({ path, text }: { path: string | null; text: string }) {
  return (
    <div className="overflow-hidden rounded-md border border-zinc-200 bg-white">
      <div className="border-b border-zinc-100 px-2 py-0.5 font-mono text-[11px] text-zinc-600">{path ? inert(path) : 'diff'}</div>
      <pre className="overflow-x-auto px-0 py-1 font-mono text-xs leading-relaxed">
        {inert(text)
          .split('\n')
          .slice(0, 400)
          .map((line, i) => (
            <div
              key={i}
              className={`px-2 ${line.startsWith('+') ? 'bg-emerald-50 text-emerald-900' : line.startsWith('-') ? 'bg-rose-50 text-rose-900' : line.startsWith('@@') ? 'text-indigo-700' : 'text-zinc-700'}`}
            >
              {line || ' '}
            </div>
          ))}
      </pre>
    </div>
  );
}
