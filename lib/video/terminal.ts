import { Terminal } from '@xterm/headless/lib-headless/xterm-headless.mjs';
import type { IBufferCell, IBufferLine } from '@xterm/headless';
import type { TerminalRecording } from '../formats/trajectory';
import type { TerminalStyle } from './schema';

/**
 * Terminal emulation for the video's terminal replay, with a real emulator (@xterm/headless):
 * the screen at recording time t is exactly the screen after feeding every event with time <= t
 * (output written, resizes applied; input, markers and exit events do not change the screen).
 *
 * Synchronous on purpose: props derivation is a plain function. xterm's public `write` is
 * asynchronous (it parses on a timer), so we feed data through the core's `writeSync`, which
 * runs the same parser at once (safe here: no addons with asynchronous handlers are loaded).
 * The xterm version is pinned exactly in package.json and a unit test covers this path.
 */

export interface TerminalCell extends TerminalStyle {
  /** the character(s) drawn in this cell; '' for the right half of a wide character */
  ch: string;
  /** 1, 2 for a wide character, 0 for the cell a wide character covers */
  width: number;
  invisible: boolean;
}

export interface TerminalScreen {
  cols: number;
  /** `rows.length` lines of `cols` cells (the visible screen, not the scrollback) */
  rows: TerminalCell[][];
  /** cursor position on the screen (0-based); visible=false after DECTCEM hide (ESC[?25l) */
  cursor: { x: number; y: number; visible: boolean };
}

/** The palette the 16 ANSI colours resolve to (a dark theme; default fg/bg stay null). */
export const ANSI_PALETTE = [
  '#1c1f24',
  '#e05561',
  '#8cc265',
  '#d18f52',
  '#4aa5f0',
  '#c162de',
  '#42b3c2',
  '#d7dae0',
  '#5c6370',
  '#ff616e',
  '#a5e075',
  '#f0a45d',
  '#4dc4ff',
  '#de73ff',
  '#4cd1e0',
  '#f5f6f8',
] as const;

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const rgbHex = (rgb: number) => `#${hex2((rgb >> 16) & 0xff)}${hex2((rgb >> 8) & 0xff)}${hex2(rgb & 0xff)}`;

/** xterm 256-colour palette index -> CSS colour. */
export function paletteColor(index: number): string {
  if (index < 16) return ANSI_PALETTE[index]!;
  if (index < 232) {
    const i = index - 16;
    const level = (v: number) => (v === 0 ? 0 : 55 + v * 40);
    return `#${hex2(level(Math.floor(i / 36)))}${hex2(level(Math.floor(i / 6) % 6))}${hex2(level(i % 6))}`;
  }
  const g = 8 + (index - 232) * 10;
  return `#${hex2(g)}${hex2(g)}${hex2(g)}`;
}

interface XtermCore {
  writeSync(data: string): void;
  coreService?: { isCursorHidden?: boolean };
}

type Cell = IBufferCell;

function cellColor(cell: Cell, which: 'fg' | 'bg'): string | null {
  if (which === 'fg') {
    if (cell.isFgDefault()) return null;
    return cell.isFgRGB() ? rgbHex(cell.getFgColor()) : paletteColor(cell.getFgColor());
  }
  if (cell.isBgDefault()) return null;
  return cell.isBgRGB() ? rgbHex(cell.getBgColor()) : paletteColor(cell.getBgColor());
}

/** parses an asciinema resize payload "COLSxROWS"; null when it is not one */
export function parseResize(data: string): { cols: number; rows: number } | null {
  const m = /^\s*(\d{1,4})\s*x\s*(\d{1,4})\s*$/.exec(data);
  if (!m) return null;
  const cols = Number(m[1]);
  const rows = Number(m[2]);
  return cols >= 1 && rows >= 1 && cols <= 1000 && rows <= 500 ? { cols, rows } : null;
}

/**
 * A replay of one recording that only moves forward: `advanceTo(t)` applies the events with
 * time <= t not applied yet; `screen()` reads the screen. Going back in time restarts it.
 */
export class TerminalReplay {
  private term: Terminal;
  private core: XtermCore;
  /** index of the next event to apply */
  private next = 0;
  private disposed = false;

  constructor(private readonly recording: TerminalRecording) {
    this.term = TerminalReplay.open(recording);
    this.core = TerminalReplay.coreOf(this.term);
  }

  private static open(recording: TerminalRecording): Terminal {
    return new Terminal({
      cols: recording.width,
      rows: recording.height,
      scrollback: 0,
      allowProposedApi: true,
      logLevel: 'off',
      convertEol: false,
    });
  }

  private static coreOf(term: Terminal): XtermCore {
    const core = (term as unknown as { _core?: XtermCore })._core;
    if (!core || typeof core.writeSync !== 'function')
      throw new Error('@xterm/headless: core.writeSync is missing (xterm version changed?)');
    return core;
  }

  /** how many events have been applied */
  get applied(): number {
    return this.next;
  }

  /** time of the next event not yet applied (Infinity when all are) */
  get nextEventTime(): number {
    return this.recording.events[this.next]?.[0] ?? Infinity;
  }

  /** Apply every event with time <= t. Returns true when any event was applied. */
  advanceTo(t: number): boolean {
    if (this.disposed) throw new Error('TerminalReplay is disposed');
    const events = this.recording.events;
    if (this.next > 0 && events[this.next - 1]![0] > t) this.restart();
    const start = this.next;
    let pending = '';
    while (this.next < events.length && events[this.next]![0] <= t) {
      const [, code, data] = events[this.next]!;
      if (code === 'o') pending += data;
      else if (code === 'r') {
        const size = parseResize(data);
        if (size) {
          if (pending) this.core.writeSync(pending);
          pending = '';
          this.term.resize(size.cols, size.rows);
        }
      }
      this.next++;
    }
    if (pending) this.core.writeSync(pending);
    return this.next > start;
  }

  private restart(): void {
    this.term.dispose();
    this.term = TerminalReplay.open(this.recording);
    this.core = TerminalReplay.coreOf(this.term);
    this.next = 0;
  }

  screen(): TerminalScreen {
    const term = this.term;
    const buffer = term.buffer.active;
    const cell = buffer.getNullCell();
    const rows: TerminalCell[][] = [];
    for (let y = 0; y < term.rows; y++) {
      const line = buffer.getLine(buffer.baseY + y);
      const row: TerminalCell[] = [];
      for (let x = 0; x < term.cols; x++) {
        if (!line?.getCell(x, cell)) {
          row.push(blankCell());
          continue;
        }
        const width = cell.getWidth();
        const chars = cell.getChars();
        row.push({
          ch: width === 0 ? '' : chars === '' ? ' ' : chars,
          width,
          fg: cellColor(cell, 'fg'),
          bg: cellColor(cell, 'bg'),
          bold: cell.isBold() !== 0,
          dim: cell.isDim() !== 0,
          italic: cell.isItalic() !== 0,
          underline: cell.isUnderline() !== 0,
          strike: cell.isStrikethrough() !== 0,
          inverse: cell.isInverse() !== 0,
          invisible: cell.isInvisible() !== 0,
        });
      }
      rows.push(row);
    }
    const hidden = this.core.coreService?.isCursorHidden === true;
    return {
      cols: term.cols,
      rows,
      cursor: { x: Math.min(buffer.cursorX, term.cols - 1), y: buffer.cursorY, visible: !hidden },
    };
  }

  /**
   * The screen as ids of interned lines (what the video stores): the same content as
   * `screen()`, read straight from the buffer without building a cell object per cell.
   */
  screenLines(table: ScreenTable): { cols: number; rows: number; lines: number[]; cursor: { x: number; y: number; visible: boolean } } {
    const term = this.term;
    const buffer = term.buffer.active;
    const cell = buffer.getNullCell();
    const lines: number[] = [];
    for (let y = 0; y < term.rows; y++) lines.push(table.bufferLine(buffer.getLine(buffer.baseY + y), term.cols, cell));
    const hidden = this.core.coreService?.isCursorHidden === true;
    return {
      cols: term.cols,
      rows: term.rows,
      lines,
      cursor: { x: Math.min(buffer.cursorX, term.cols - 1), y: buffer.cursorY, visible: !hidden },
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.term.dispose();
  }
}

/** xterm's own line behind the API's view of it (`_line`: 3 Uint32 per cell; `_combined` and `_extendedAttrs` hold what does not fit). */
interface CoreLine {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
}

const isEmpty = (o: object) => {
  for (const _ in o) return false;
  return true;
};

/**
 * The core line of an API line when its cells are all in its typed array (no combined characters,
 * no extended attributes: then equal arrays mean equal cells); null otherwise, or when xterm's
 * internals are not what this expects (then every line is read cell by cell, as before).
 */
function coreLine(line: IBufferLine): CoreLine | null {
  const core = (line as unknown as { _line?: Partial<CoreLine> })._line;
  if (!core || !(core._data instanceof Uint32Array) || !core._combined || !core._extendedAttrs) return null;
  return isEmpty(core._combined) && isEmpty(core._extendedAttrs) ? (core as CoreLine) : null;
}

function sameCells(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const F_BOLD = 1;
const F_DIM = 2;
const F_ITALIC = 4;
const F_UNDERLINE = 8;
const F_STRIKE = 16;
const F_INVERSE = 32;
const F_INVISIBLE = 64;

function cellFlags(c: IBufferCell): number {
  return (
    (c.isBold() ? F_BOLD : 0) |
    (c.isDim() ? F_DIM : 0) |
    (c.isItalic() ? F_ITALIC : 0) |
    (c.isUnderline() ? F_UNDERLINE : 0) |
    (c.isStrikethrough() ? F_STRIKE : 0) |
    (c.isInverse() ? F_INVERSE : 0) |
    (c.isInvisible() ? F_INVISIBLE : 0)
  );
}

/** a cell that draws something: a glyph, a background, or a line through / under it */
function cellDraws(c: IBufferCell, flags: number): boolean {
  const ch = c.getChars();
  return (ch !== '' && ch !== ' ') || !c.isBgDefault() || (flags & (F_INVERSE | F_UNDERLINE | F_STRIKE)) !== 0;
}

function blankCell(): TerminalCell {
  return {
    ch: ' ',
    width: 1,
    fg: null,
    bg: null,
    bold: false,
    dim: false,
    italic: false,
    underline: false,
    strike: false,
    inverse: false,
    invisible: false,
  };
}

/** The screen after applying every event of `recording` with time <= tSeconds. */
export function terminalScreenAt(recording: TerminalRecording, tSeconds: number): TerminalScreen {
  const replay = new TerminalReplay(recording);
  try {
    replay.advanceTo(tSeconds);
    return replay.screen();
  } finally {
    replay.dispose();
  }
}

/** The plain text of a screen, one string per row with trailing spaces removed (for tests, search). */
export function screenText(screen: TerminalScreen): string[] {
  return screen.rows.map((row) =>
    row
      .map((c) => (c.invisible ? ' ' : c.ch))
      .join('')
      .replace(/\s+$/, ''),
  );
}

/**
 * Interns styles and screen lines so snapshots are stored compactly: a line is a list of
 * [text, styleIndex] runs (trailing blank cells dropped), identical lines share one index.
 */
export class ScreenTable {
  readonly styles: TerminalStyle[] = [];
  readonly lines: Array<Array<[string, number]>> = [];
  private styleIndex = new Map<string, number>();
  private lineIndex = new Map<string, number>();

  style(cell: TerminalStyle): number {
    const key = `${cell.fg ?? ''}|${cell.bg ?? ''}|${+cell.bold}${+cell.dim}${+cell.italic}${+cell.underline}${+cell.strike}${+cell.inverse}`;
    let i = this.styleIndex.get(key);
    if (i === undefined) {
      i = this.styles.length;
      this.styles.push({
        fg: cell.fg,
        bg: cell.bg,
        bold: cell.bold,
        dim: cell.dim,
        italic: cell.italic,
        underline: cell.underline,
        strike: cell.strike,
        inverse: cell.inverse,
      });
      this.styleIndex.set(key, i);
    }
    return i;
  }

  private rawStyleIndex = new Map<string, number>();

  /**
   * The last reading of each buffer line: xterm keeps one line object per screen row and moves it
   * when the screen scrolls, so a line that did not change since the last snapshot (most of them:
   * a command prints a line, the rest scroll up) is recognised by its cell data, compared as a
   * typed array, and not read cell by cell again. Without this, reading every row of every
   * snapshot was ~85% of the props derivation of a long run (bench/video.bench.ts).
   */
  private lastRead = new WeakMap<object, { data: Uint32Array; cols: number; id: number }>();

  /** lines read cell by cell and lines recognised unchanged (tests check the cache is used) */
  readonly stats = { read: 0, reused: 0 };

  /** Interns a buffer line directly (see TerminalReplay.screenLines). */
  bufferLine(line: IBufferLine | undefined, cols: number, cell: IBufferCell): number {
    if (!line) return this.intern([]);
    const core = coreLine(line);
    if (core) {
      const last = this.lastRead.get(core);
      if (last && last.cols === cols && sameCells(last.data, core._data)) {
        this.stats.reused++;
        return last.id;
      }
    }
    this.stats.read++;
    const id = this.readLine(line, cols, cell);
    if (core) this.lastRead.set(core, { data: core._data.slice(), cols, id });
    return id;
  }

  private readLine(line: IBufferLine, cols: number, cell: IBufferCell): number {
    let end = Math.min(cols, line.length);
    while (end > 0) {
      if (!line.getCell(end - 1, cell)) break;
      if (cell.getWidth() !== 0 && cellDraws(cell, cellFlags(cell))) break;
      end--;
    }
    const runs: Array<[string, number]> = [];
    let text = '';
    let style = -1;
    let pFgMode = -1;
    let pFg = -1;
    let pBgMode = -1;
    let pBg = -1;
    let pFlags = -1;
    for (let x = 0; x < end; x++) {
      if (!line.getCell(x, cell)) break;
      const width = cell.getWidth();
      if (width === 0) continue;
      const fgMode = cell.getFgColorMode();
      const fg = cell.getFgColor();
      const bgMode = cell.getBgColorMode();
      const bg = cell.getBgColor();
      const flags = cellFlags(cell);
      if (fgMode !== pFgMode || fg !== pFg || bgMode !== pBgMode || bg !== pBg || flags !== pFlags) {
        const key = `${fgMode}:${fg}:${bgMode}:${bg}:${flags}`;
        let s = this.rawStyleIndex.get(key);
        if (s === undefined) {
          s = this.style({
            fg: cellColor(cell, 'fg'),
            bg: cellColor(cell, 'bg'),
            bold: (flags & F_BOLD) !== 0,
            dim: (flags & F_DIM) !== 0,
            italic: (flags & F_ITALIC) !== 0,
            underline: (flags & F_UNDERLINE) !== 0,
            strike: (flags & F_STRIKE) !== 0,
            inverse: (flags & F_INVERSE) !== 0,
          });
          this.rawStyleIndex.set(key, s);
        }
        pFgMode = fgMode;
        pFg = fg;
        pBgMode = bgMode;
        pBg = bg;
        pFlags = flags;
        if (s !== style) {
          if (text !== '') runs.push([text, style]);
          text = '';
          style = s;
        }
      }
      const ch = cell.getChars();
      text += flags & F_INVISIBLE ? ' '.repeat(width) : ch === '' ? ' ' : ch;
    }
    if (text !== '') runs.push([text, style]);
    return this.intern(runs);
  }

  private intern(runs: Array<[string, number]>): number {
    let key = '';
    for (const [t, st] of runs) key += `${st}\u0001${t}\u0002`;
    let i = this.lineIndex.get(key);
    if (i === undefined) {
      i = this.lines.length;
      this.lines.push(runs);
      this.lineIndex.set(key, i);
    }
    return i;
  }

  line(row: TerminalCell[]): number {
    // drop trailing cells that draw nothing
    let end = row.length;
    while (end > 0) {
      const c = row[end - 1]!;
      if ((c.ch === ' ' || c.ch === '') && c.bg === null && !c.inverse && !c.underline && !c.strike) end--;
      else break;
    }
    const runs: Array<[string, number]> = [];
    for (let x = 0; x < end; x++) {
      const c = row[x]!;
      if (c.width === 0) continue;
      const s = this.style(c);
      const ch = c.invisible ? ' '.repeat(c.width) : c.ch;
      const last = runs[runs.length - 1];
      if (last && last[1] === s) last[0] += ch;
      else runs.push([ch, s]);
    }
    return this.intern(runs);
  }
}
