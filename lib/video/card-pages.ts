import { countWords, READING, richTextReadingSeconds, STILL_MAX_SECONDS } from './pacing';
import type { Excerpt, RichText, StepCard, TrajectoryVideoProps } from './schema';
import { formatCount, mathSegments } from './text';

/**
 * The proof-of-work video's type scale and the room its scenes have, and how a step card is laid
 * out over pages that fit that room (estimated from the text: pure, no measuring). The
 * composition (render/compositions/trajectory-video/theme.ts) draws with these sizes, and the
 * props (lib/video/props.ts) hold a card for the reading time of each of its pages, so the two
 * agree on what a page holds without a browser.
 *
 * Sizes are px of the 1280x720 composition. The review page's player is 718 px wide (scale
 * 0.561), so `min` 22 is 12.3 px on screen, the floor for text in the players (issue 43 §2);
 * KaTeX draws maths at 1.08 em, its scripts at 70% (first order) and 50% (second order) of that.
 */
export const VIDEO_TYPE = {
  /** nothing in the video is smaller: captions, tags, line numbers, counters, the rail's label */
  min: 22,
  /** prose of a card, a criterion, the reasoning */
  body: 24,
  /** a card's message when it is all the card holds, the result's answer */
  lead: 28,
  /** code, tool output, diffs and the terminal */
  code: 22,
  /** the task on the title card */
  title: 40,
} as const;

/** The frame: a top bar, the progress rail at the bottom, the scene between with a margin. */
export const VIDEO_FRAME = { width: 1280, height: 720, topBar: 56, rail: 60, pad: 24 } as const;
/** The scene's room when the criteria are not beside it (every scene but the title and the closing card). */
export const SCENE_ROOM = {
  width: VIDEO_FRAME.width - 2 * VIDEO_FRAME.pad,
  height: VIDEO_FRAME.height - VIDEO_FRAME.topBar - VIDEO_FRAME.rail - 2 * VIDEO_FRAME.pad,
} as const;

/** Line heights (em) the cards draw with. */
export const LINE = { prose: 1.45, code: 1.4 } as const;
/** average advance of a character in em, on the high side so that a page never overflows (Inter ~0.5, JetBrains Mono 0.6) */
const SANS_EM = 0.56;
const MONO_EM = 0.6;
/** a card's header line and the gap under it */
export const CARD_HEADER_PX = 48;
/** a section's caption ("Tool call", "Observation") and its gap */
const CAPTION_PX = 36;
/** a boxed block's padding and border, top and bottom together, and the gap after it */
const BOX_Y_PX = 2 * 10 + 2 + 12;
const BOX_X_PX = 2 * 14 + 2;
/** a paged program's "lines 1-12 of 40" under it */
const FOOTER_PX = 34;
/** the "Reasoning" caption above the reasoning's text */
const REASONING_CAPTION_PX = 32;

/** One piece of a card on a page. Line ranges are [from, to) into the block's rows. */
export type PageBlock =
  | { kind: 'message'; text: RichText; part: number; parts: number }
  | { kind: 'empty' }
  | { kind: 'reasoning'; text: string; part: number; parts: number }
  | { kind: 'call'; call: number; rows: [number, number]; caption: boolean }
  | { kind: 'observation'; index: number; rows: [number, number]; caption: boolean };

export interface CardPage {
  blocks: PageBlock[];
  /** the reading time of what is new on this page (seconds, before the still cap) */
  seconds: number;
}

const linesOf = (chars: number, perLine: number) => Math.max(1, Math.ceil(chars / Math.max(1, perLine)));
const charsPerLine = (width: number, fontSize: number, em: number) => Math.floor(width / (fontSize * em));

/** The height of rich text at a size in a width: prose wrapped by characters, a display equation about three lines. */
export function richTextHeight(text: RichText, fontSize: number, width: number): number {
  const perLine = charsPerLine(width, fontSize, SANS_EM);
  let lines = 0;
  let run = 0;
  const flush = () => {
    if (run > 0) lines += linesOf(run, perLine);
    run = 0;
  };
  for (const s of text) {
    if (s.k === 'math' && s.display) {
      flush();
      lines += 3;
    } else if (s.k === 'math') run += Math.ceil(s.tex.replace(/\\[a-zA-Z]+/g, 'x').replace(/[{}^_\s]/g, '').length * 1.2);
    else {
      const paragraphs = s.text.split(/\n/);
      paragraphs.forEach((p, i) => {
        run += p.length;
        if (i < paragraphs.length - 1) {
          flush();
          // a blank line between paragraphs is half a line of margin
          if (p.trim() === '') lines += 0.5;
        }
      });
    }
  }
  flush();
  return Math.ceil(lines * fontSize * LINE.prose);
}

/** The rows of an excerpt as drawn: its head, a "… N more lines" marker, its tail. */
export function excerptRows(e: Excerpt): string[] {
  if (e.totalLines === 0) return [''];
  const rows = e.head === '' ? [] : e.head.split('\n');
  if (e.omittedLines > 0) rows.push(`… ${formatCount(e.omittedLines)} more lines`);
  if (e.tail !== '') rows.push(...e.tail.split('\n'));
  return rows;
}

/** The rows of a tool call: its program's lines, else its command's or arguments' excerpt. */
export function callRows(call: StepCard['toolCalls'][number]): string[] {
  if (call.code) return call.code.text.split('\n');
  return excerptRows(call.body);
}

/** Height of mono rows wrapped at a width (each row at least one line). */
function rowsHeight(rows: readonly string[], width: number): number {
  const perLine = charsPerLine(width, VIDEO_TYPE.code, MONO_EM);
  return rows.reduce((n, r) => n + linesOf(r.length, perLine), 0) * VIDEO_TYPE.code * LINE.code;
}

/** Text in sentences and paragraph ends, every character kept (joined, they are the text again). */
function sentences(text: string): string[] {
  return text.match(/[^.!?\n]*(?:[.!?]+|\n+|$)\s*/g)?.filter((s) => s !== '') ?? [text];
}

/** Neighbouring text segments as one (as the text was before it was cut into sentences). */
function joinText(rt: RichText): RichText {
  return rt.reduce<RichText>((out, seg) => {
    const last = out[out.length - 1];
    if (seg.k === 'text' && last?.k === 'text') out[out.length - 1] = { k: 'text', text: last.text + seg.text };
    else out.push(seg);
    return out;
  }, []);
}

/** The font size of a card's message: larger when it is all the card holds. */
export function messageFontSize(card: StepCard): number {
  return card.toolCalls.length + card.observations.length > 0 || card.reasoning ? VIDEO_TYPE.body : VIDEO_TYPE.lead;
}

/**
 * A card's pages: the message first, then its reasoning, its tool calls and its observations, as
 * many as fit the scene's room under the card's header; a long message, reasoning, program or
 * output runs on over pages (by sentences, by lines), never cut. Each page carries its reading
 * time: the props hold the card for their sum, each page a still of its own (its reading, at most
 * STILL_MAX_SECONDS, as every page of prose in the video: pacing.ts), and the composition shows
 * each page for its share of the card. Pure in the card.
 */
export function stepCardPages(card: StepCard, room: { width: number; height: number } = SCENE_ROOM): CardPage[] {
  const avail = room.height - CARD_HEADER_PX;
  const pages: CardPage[] = [];
  let blocks: PageBlock[] = [];
  let used = 0;
  let seconds = 0;
  const newPage = () => {
    if (blocks.length > 0) pages.push({ blocks, seconds });
    blocks = [];
    used = 0;
    seconds = 0;
  };
  const place = (block: PageBlock, height: number, reading: number) => {
    if (blocks.length > 0 && used + height > avail) newPage();
    blocks.push(block);
    used += height;
    seconds += reading;
  };
  /**
   * Pieces of text (sentences, formulas whole) onto pages: each piece joins the page while the
   * text fits; else the text so far is placed and the piece starts the next page.
   */
  const flow = <T, B extends Extract<PageBlock, { part: number }>>(
    pieces: readonly T[],
    measure: (run: T[]) => { h: number; r: number },
    make: (run: T[], part: number) => B,
  ): void => {
    const parts: B[] = [];
    let run: T[] = [];
    const over = (m: { h: number; r: number }) => used + m.h > avail;
    const flush = () => {
      if (run.length === 0) return;
      const m = measure(run);
      const block = make(run, parts.length);
      parts.push(block);
      blocks.push(block);
      used += m.h;
      seconds += m.r;
      run = [];
    };
    for (const piece of pieces) {
      if (run.length === 0) {
        if (blocks.length > 0 && over(measure([piece]))) newPage();
        run = [piece];
      } else if (over(measure([...run, piece]))) {
        flush();
        newPage();
        run = [piece];
      } else run.push(piece);
    }
    flush();
    for (const b of parts) b.parts = parts.length;
  };
  if (card.message.length > 0) {
    const size = messageFontSize(card);
    const note = card.messageOmittedChars > 0 ? 34 : 0;
    const pieces = card.message.flatMap((seg): RichText =>
      seg.k === 'math' ? [seg] : sentences(seg.text).map((text) => ({ k: 'text', text })),
    );
    flow(
      pieces,
      (run) => ({ h: richTextHeight(run, size, room.width) + note + 16, r: richTextReadingSeconds(run) }),
      (run, part) => ({ kind: 'message', text: joinText(run), part, parts: 0 }),
    );
  }
  if (card.reasoning) {
    const inner = room.width - BOX_X_PX;
    flow(
      sentences(card.reasoning),
      (run) => {
        const rt = mathSegments(run.join('').trim());
        return { h: BOX_Y_PX + REASONING_CAPTION_PX + richTextHeight(rt, VIDEO_TYPE.body, inner), r: richTextReadingSeconds(rt) };
      },
      (run, part) => ({ kind: 'reasoning', text: run.join('').trim(), part, parts: 0 }),
    );
  }
  const rowsBlocks = (
    rows: string[],
    header: number,
    perRow: number,
    make: (range: [number, number], caption: boolean) => PageBlock,
    first: boolean,
  ) => {
    const inner = room.width - BOX_X_PX - 60;
    let from = 0;
    let caption = first;
    while (from < rows.length) {
      const fixed = BOX_Y_PX + header + (caption ? CAPTION_PX : 0) + FOOTER_PX;
      const room0 = avail - used - fixed;
      let left = room0;
      let to = from;
      while (to < rows.length) {
        const h = rowsHeight([rows[to]!], inner);
        if (to > from && h > left) break;
        left -= h;
        to++;
      }
      // too little room left on this page for two rows: the block starts the next page
      if (blocks.length > 0 && (left < 0 || to - from < Math.min(2, rows.length - from))) {
        newPage();
        continue;
      }
      blocks.push(make([from, to], caption));
      used += fixed + room0 - left;
      seconds += (to - from) * perRow;
      caption = false;
      from = to;
    }
  };
  card.toolCalls.forEach((call, i) =>
    rowsBlocks(callRows(call), 32, READING.codeLineSeconds, (rows, caption) => ({ kind: 'call', call: i, rows, caption }), i === 0),
  );
  card.observations.forEach((o, i) =>
    rowsBlocks(
      excerptRows(o.body),
      o.isError ? 30 : 0,
      READING.outputLineSeconds,
      (rows, caption) => ({ kind: 'observation', index: i, rows, caption }),
      i === 0,
    ),
  );
  if (card.message.length === 0 && !card.reasoning && card.toolCalls.length === 0 && card.observations.length === 0)
    place({ kind: 'empty' }, 40, 0);
  newPage();
  return pages;
}

/** How long a card holds under read pacing: each page its reading time (a still at most STILL_MAX_SECONDS), a second to orient, 3 s at least; never cut to a total. */
export function pagedCardSeconds(pages: readonly CardPage[]): number {
  const still = pages.reduce((n, p) => n + Math.min(STILL_MAX_SECONDS, p.seconds), 0);
  return Math.max(READING.cardMinSeconds, READING.orientSeconds + still);
}

/**
 * The share of a scene showing at a frame, for a scene that holds from `from` for `duration`
 * frames split in proportion to `weights` (a card's pages, the title's, the closing card's): its
 * index and the frame it starts at. Pure.
 */
export function shareAt(weights: readonly number[], frame: number, from: number, duration: number): { index: number; from: number } {
  const total = weights.reduce((a, b) => a + b, 0);
  const t = ((frame - from) / Math.max(1, duration)) * total;
  let start = 0;
  for (let k = 0; k < weights.length; k++) {
    if (t < start + weights[k]! || k === weights.length - 1) return { index: k, from: from + Math.round((start / total) * duration) };
    start += weights[k]!;
  }
  return { index: 0, from };
}

/**
 * The page showing at a frame of a card that holds from `from` for `duration` frames: each page
 * its share of the card by its reading time (at least a second's share, so a page of little text
 * is still seen). Pure.
 */
export function pageAt(pages: readonly CardPage[], frame: number, from: number, duration: number): number {
  return shareAt(
    pages.map((p) => Math.max(1, Math.min(STILL_MAX_SECONDS, p.seconds))),
    frame,
    from,
    duration,
  ).index;
}

/** The criteria sidebar's width beside the title and closing cards (px of the composition). */
export const SIDEBAR_PX = 480;

/**
 * Rich text split into pages that fit `height` at `fontSize` in `width`: at paragraph and
 * sentence ends, a display equation kept whole. Pure.
 */
export function pageRichText(text: RichText, fontSize: number, width: number, height: number): RichText[] {
  const pages: RichText[] = [];
  let page: RichText = [];
  const fits = (rt: RichText) => richTextHeight(rt, fontSize, width) <= height;
  const add = (seg: RichText[number]) => {
    const next = [...page, seg];
    if (page.length > 0 && !fits(next)) {
      pages.push(page);
      page = [seg];
    } else page = next;
  };
  for (const s of text) {
    if (s.k === 'math') add(s);
    else
      for (const piece of s.text.match(/[^.!?\n]*(?:[.!?]+|\n+|$)[ \t]*/g)?.filter((x) => x !== '') ?? [s.text])
        add({ k: 'text', text: piece });
  }
  if (page.length > 0) pages.push(page);
  return pages.map(joinText);
}

/** The title card's instruction box: its room, after the task's name (40 px, wrapped) and the facts under it. */
export function titleInstructionRoom(task: string): { width: number; height: number } {
  const width = SCENE_ROOM.width - SIDEBAR_PX - 2 * 16;
  const titleLines = linesOf(task.length, charsPerLine(SCENE_ROOM.width - SIDEBAR_PX, VIDEO_TYPE.title, SANS_EM));
  // the "Task" caption, the name, the two rows of facts, the gaps and the box's padding
  const used = 30 + titleLines * VIDEO_TYPE.title * 1.1 + 2 * 70 + 10 + 3 * 18 + 12;
  return { width, height: Math.max(3 * VIDEO_TYPE.body * LINE.prose, SCENE_ROOM.height - used) };
}

/** The instruction's pages on the title card (each shown for its share of the title card's time). */
export function titlePages(task: string, instruction: RichText): RichText[] {
  if (instruction.length === 0) return [];
  const room = titleInstructionRoom(task);
  return pageRichText(instruction, VIDEO_TYPE.body, room.width, room.height);
}

/** How long the closing card's first page holds (s): the reward and what it is made of, a second more with judges. */
export const CLOSING_SECONDS = 4.5;
/** Skim: each further page of the closing card (judges, a long answer). */
const CLOSING_SKIM_PAGE_SECONDS = 2.5;
/** A judge's explanation as the video carries it, at most (the review page's judge panel has it whole). */
export const JUDGE_EXPLANATION_CHARS = 600;
/** A submission shown as the final answer, at most (over pages of the closing card; the transcript has it whole). */
export const SUBMISSION_ANSWER_CHARS = 1500;

type Outcome = TrajectoryVideoProps['outcome'];

/** One page of the closing card. The first page has the reward, its components and the exit status; every page its share of the judges and the answer. */
export interface ClosingPage {
  /** the components' rows [from, to) */
  components: [number, number];
  /** the judges [from, to) */
  judges: [number, number];
  /** the judges' rows: two short ones side by side, a long explanation across the card */
  judgeRows: number[][];
  /** the final answer's text on this page (a page of it when it is long) */
  answer: RichText | null;
  /** the reading time of what is on this page (seconds, before the floor and the still cap) */
  seconds: number;
}

/** Heights on the closing card (px of the composition), as closing-card.tsx draws it. */
const CLOSING = {
  /** the card's room: the scene beside the criteria sidebar */
  width: SCENE_ROOM.width - SIDEBAR_PX,
  /** the "Outcome" caption and its gap */
  caption: 44,
  /** the reward line and its gap (first page) */
  reward: 64 + 14,
  /** the exit status, tokens and cost pills (their labels may wrap) and the gap above them (first page) */
  pills: 96 + 14,
  /** "page 2 of 3" and its gap */
  footer: 30 + 14,
  componentGap: 7,
  judgeGap: 10,
  /** a judge's box: padding and border, its header line, the gap under it */
  judgeBox: 2 * 10 + 2 + 30 + 4,
  /** the answer's box: padding and border, its caption */
  answerBox: 2 * 10 + 2 + 34,
} as const;

/** A reward component's name as the closing card shows it (a test's id without its `test:` prefix). */
export const componentLabel = (name: string) => name.replace(/^test:/, '');

/** a component's row: its name wrapped in its column (2 of 3 shares beside the bar), at least the bar's line */
function componentHeight(name: string): number {
  const column = ((CLOSING.width - 64 - 2 * 12) * 2) / 3;
  return linesOf(componentLabel(name).length, charsPerLine(column, VIDEO_TYPE.min, MONO_EM)) * VIDEO_TYPE.min * 1.35;
}

/** a judge's box `width` wide: the header (name, score, label) and the explanation wrapped */
function judgeHeight(j: Outcome['judges'][number], width: number): number {
  const perLine = charsPerLine(width - 2 * 14 - 2, VIDEO_TYPE.min, SANS_EM);
  const header = linesOf(`Judge · ${j.judge} 0.00 ${j.label ?? ''}`.length, perLine) - 1;
  const explanation = j.explanation ? linesOf(j.explanation.length, perLine) * VIDEO_TYPE.min * 1.35 : 0;
  return CLOSING.judgeBox + header * VIDEO_TYPE.min * 1.35 + explanation;
}
/** a judge's box in a column of two, at most this tall, or it goes across the card */
const JUDGE_COLUMN_MAX_PX = 300;

/**
 * The closing card laid out over pages that fit beside the criteria: the components, the judges
 * (two short ones to a row, a long explanation across the card) and the final answer, in that order, as many as fit under the reward on the
 * first page, the rest on pages of their own; nothing cut, no "+ N more" (issue 43 §3). Each
 * page carries its reading time (the judges' explanations, the answer, a look at each component).
 * Pure in the outcome.
 */
export function closingPages(outcome: Outcome): ClosingPage[] {
  const room = SCENE_ROOM.height - CLOSING.caption;
  const pages: ClosingPage[] = [];
  let page: ClosingPage = { components: [0, 0], judges: [0, 0], judgeRows: [], answer: null, seconds: 0 };
  // the first page's room; a later page's is the caption's and the footer's less
  let left = room - CLOSING.reward - CLOSING.pills;
  const newPage = () => {
    pages.push(page);
    const c = page.components[1];
    const j = page.judges[1];
    page = { components: [c, c], judges: [j, j], judgeRows: [], answer: null, seconds: 0 };
    left = room - CLOSING.footer;
  };
  const empty = () => page.components[0] === page.components[1] && page.judges[0] === page.judges[1] && page.answer === null;
  /** room for `h` px on this page, a new page when it does not fit (a block taller than a page has one of its own) */
  const fit = (h: number) => {
    if (h > left && !(pages.length > 0 && empty())) newPage();
    left -= h;
  };
  outcome.components.forEach((c) => {
    fit(componentHeight(c.name) + CLOSING.componentGap);
    page.components[1]++;
    page.seconds += READING.outputLineSeconds;
  });
  const column = (CLOSING.width - CLOSING.judgeGap) / 2;
  for (let i = 0; i < outcome.judges.length;) {
    const pair = outcome.judges.slice(i, i + 2);
    const inColumn = pair.map((j) => judgeHeight(j, column));
    const side = pair.length === 2 && inColumn.every((h) => h <= JUDGE_COLUMN_MAX_PX);
    const row = side ? pair : pair.slice(0, 1);
    fit((side ? Math.max(...inColumn) : judgeHeight(pair[0]!, CLOSING.width)) + CLOSING.judgeGap);
    page.judgeRows.push(row.map((_, k) => i + k));
    page.judges[1] += row.length;
    for (const j of row) page.seconds += (countWords(`${j.judge} ${j.label ?? ''} ${j.explanation ?? ''}`) * 60) / READING.wordsPerMinute;
    i += row.length;
  }
  if (outcome.answer && outcome.answer.length > 0) {
    const width = CLOSING.width - 2 * 14 - 2;
    const whole = richTextHeight(outcome.answer, VIDEO_TYPE.body, width) + CLOSING.answerBox;
    const parts =
      whole <= left || whole <= room - CLOSING.footer
        ? [outcome.answer]
        : pageRichText(outcome.answer, VIDEO_TYPE.body, width, room - CLOSING.footer - CLOSING.answerBox);
    parts.forEach((part, k) => {
      const h = richTextHeight(part, VIDEO_TYPE.body, width) + CLOSING.answerBox;
      // a page holds one part of the answer: the next part starts a page of its own
      if (k > 0) newPage();
      fit(h);
      page.answer = part;
      page.seconds += richTextReadingSeconds(part);
    });
  }
  pages.push(page);
  return pages;
}

/**
 * How long each page of the closing card holds (seconds): the first page the card's few seconds
 * (a second more with judges), under read pacing its reading time when longer; a further page its
 * reading time (3 s at least), skim 2.5 s. No page holds longer than STILL_MAX_SECONDS. The props
 * hold the card for the sum, and the composition shows each page for its share.
 */
export function closingHolds(pages: readonly ClosingPage[], read: boolean, judged: boolean): number[] {
  return pages.map((p, k) => {
    const reading = Math.min(STILL_MAX_SECONDS, READING.orientSeconds + p.seconds);
    if (k === 0) return Math.max(CLOSING_SECONDS + (judged ? 1 : 0), read ? reading : 0);
    return read ? Math.max(READING.cardMinSeconds, reading) : CLOSING_SKIM_PAGE_SECONDS;
  });
}
