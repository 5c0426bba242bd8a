import { Terminal } from '@xterm/headless/lib-headless/xterm-headless.mjs';
import type { IBuffer, IBufferCell, IBufferLine } from '@xterm/headless';
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
  /** writes to the terminal's lines are counted (trackLineWrites): screenLines reads only the lines written since */
  private tracking: boolean;
  /** the cell screenLines reads into */
  private cell: IBufferCell | undefined;

  constructor(private readonly recording: TerminalRecording) {
    this.term = TerminalReplay.open(recording);
    this.core = TerminalReplay.coreOf(this.term);
    this.tracking = TerminalReplay.track(this.term);
  }

  /** counts the writes to the lines of `term`'s class of line (see trackLineWrites); false where xterm is not what this expects */
  private static track(term: Terminal): boolean {
    const first = coreBufferOf(term.buffer.active)?.lines.get(0);
    const proto: unknown = first ? Object.getPrototypeOf(first) : null;
    return typeof proto === 'object' && proto !== null && trackLineWrites(proto as Record<string, unknown>);
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
    this.tracking = TerminalReplay.track(this.term);
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
    const cell = (this.cell ??= buffer.getNullCell());
    const core = this.tracking ? coreBufferOf(buffer) : null;
    const rows = term.rows;
    const cols = term.cols;
    const base = buffer.baseY;
    const lines: number[] = new Array(rows);
    for (let y = 0; y < rows; y++) lines[y] = table.rowLine(buffer, core, base + y, cols, cell);
    const hidden = this.core.coreService?.isCursorHidden === true;
    return {
      cols,
      rows,
      lines,
      cursor: { x: Math.min(buffer.cursorX, cols - 1), y: buffer.cursorY, visible: !hidden },
    };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.term.dispose();
  }
}

/**
 * xterm's own line (common/buffer/BufferLine.ts): `_data` holds 3 Uint32 per cell; `_combined`
 * and `_extendedAttrs` what does not fit. `witnessWrites` counts the calls to its mutating methods
 * (see trackLineWrites), undefined until the first.
 */
interface CoreLine {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
  witnessWrites?: number;
}

/** xterm's active buffer behind the API's view of it (`_buffer`): its circular list of lines and the scroll base. */
interface CoreBuffer {
  lines: { get(index: number): CoreLine | undefined };
  ybase: number;
}

/**
 * Every method of xterm's BufferLine that changes a line's cells (6.0.0, read from its source:
 * nothing else in xterm writes `_data`, `_combined` or `_extendedAttrs`; the constructor fills
 * through setCell). lib/video/terminal.test.ts fails when the class gains a method this list and
 * LINE_READERS do not name, so an xterm upgrade cannot add a write path unseen.
 */
export const LINE_MUTATORS = [
  'set',
  'setCell',
  'setCellFromCodepoint',
  'addCodepointToCell',
  'insertCells',
  'deleteCells',
  'replaceCells',
  'resize',
  'cleanupMemory',
  'fill',
  'copyFrom',
  'copyCellsFrom',
] as const;

/** BufferLine's methods that only read (see LINE_MUTATORS). */
export const LINE_READERS = [
  'constructor',
  'get',
  'getWidth',
  'hasWidth',
  'getFg',
  'getBg',
  'hasContent',
  'getCodePoint',
  'isCombined',
  'getString',
  'isProtected',
  'loadCell',
  'clone',
  'getTrimmedLength',
  'getNoBgTrimmedLength',
  'translateToString',
] as const;

const tracked = new WeakMap<object, boolean>();

/**
 * Makes every write to a line of xterm's BufferLine class count itself on the line
 * (`witnessWrites`), so a reader knows a line it read before is unchanged without comparing its
 * cells. Once per class; false (and nothing patched) when the class is not the one this was
 * written against (a mutator missing): then every line is read every time.
 */
function trackLineWrites(proto: Record<string, unknown>): boolean {
  const known = tracked.get(proto);
  if (known !== undefined) return known;
  const ok = LINE_MUTATORS.every((name) => typeof proto[name] === 'function');
  if (ok)
    for (const name of LINE_MUTATORS) {
      const write = proto[name] as (this: CoreLine, ...args: unknown[]) => unknown;
      proto[name] = function (this: CoreLine, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown) {
        const n = this.witnessWrites;
        this.witnessWrites = n === undefined ? 1 : n + 1;
        return write.call(this, a, b, c, d, e);
      };
    }
  tracked.set(proto, ok);
  return ok;
}

const isEmpty = (o: object) => {
  for (const _ in o) return false;
  return true;
};

/** the core buffer behind the API's view of the active buffer; null when xterm's internals are not what this expects */
function coreBufferOf(buffer: IBuffer): CoreBuffer | null {
  const core = (buffer as unknown as { _buffer?: Partial<CoreBuffer> })._buffer;
  return core && core.lines && typeof core.lines.get === 'function' && typeof core.ybase === 'number' ? (core as CoreBuffer) : null;
}

const SPACE = 0x20;
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
function cellDraws(c: IBufferCell): boolean {
  const ch = c.getChars();
  return (ch !== '' && ch !== ' ') || !c.isBgDefault() || c.isInverse() !== 0 || c.isUnderline() !== 0 || c.isStrikethrough() !== 0;
}

/**
 * The raw attribute words xterm's cell object (CellData) holds after `getCell` loads it: two
 * cells with the same words have the same colours and flags, unless they have extended
 * attributes (then the underline style lives elsewhere).
 */
interface RawCell {
  fg: number;
  bg: number;
}
/** BgFlags.HAS_EXTENDED (common/buffer/Constants.ts) */
const BG_HAS_EXTENDED = 0x10000000;
const rawOf = (cell: IBufferCell): RawCell | null => {
  const raw = cell as unknown as Partial<RawCell>;
  return typeof raw.fg === 'number' && typeof raw.bg === 'number' ? (raw as RawCell) : null;
};

/** a cell's characters as UTF-16 code units: an invisible cell is spaces, an empty one a space */
function pushChars(codes: number[], cell: IBufferCell, width: number, flags: number): void {
  if (flags & F_INVISIBLE) for (let k = 0; k < width; k++) codes.push(SPACE);
  else {
    const ch = cell.getChars();
    if (ch.length === 1) codes.push(ch.charCodeAt(0));
    else if (ch === '') codes.push(SPACE);
    else for (let k = 0; k < ch.length; k++) codes.push(ch.charCodeAt(k));
  }
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
   * The last reading of each of xterm's line objects, with the count of writes the line had then:
   * xterm keeps one line object per screen row and moves it when the screen scrolls, so a line
   * not written since the last snapshot (most of them: a command prints a line, the rest scroll
   * up) is known by its count and not read cell by cell again. Reading every row of every
   * snapshot was ~85% of the props derivation of a long run, and comparing every row's cells
   * with the last reading still ~40% (bench/video.bench.ts, bench/pages.bench.ts's 1,000 steps).
   */
  private lastRead = new WeakMap<object, { writes: number | undefined; cols: number; id: number }>();

  /** lines read cell by cell and lines recognised unchanged (tests check the cache is used) */
  readonly stats = { read: 0, reused: 0 };

  /**
   * Interns the line at row `index` of `buffer` (see TerminalReplay.screenLines). `core`: the
   * buffer's own lines, their writes counted (trackLineWrites); null: every line is read. A line
   * holding combined characters or extended attributes is always read.
   */
  rowLine(buffer: IBuffer, core: CoreBuffer | null, index: number, cols: number, cell: IBufferCell): number {
    const own = core?.lines.get(index);
    if (!own || !isEmpty(own._combined) || !isEmpty(own._extendedAttrs)) return this.bufferLine(buffer.getLine(index), cols, cell);
    const writes = own.witnessWrites;
    const last = this.lastRead.get(own);
    if (last && last.writes === writes && last.cols === cols) {
      this.stats.reused++;
      return last.id;
    }
    const id = this.bufferLine(buffer.getLine(index), cols, cell);
    this.lastRead.set(own, { writes, cols, id });
    return id;
  }

  /** Interns a buffer line, read cell by cell. */
  bufferLine(line: IBufferLine | undefined, cols: number, cell: IBufferCell): number {
    if (!line) return this.intern([]);
    this.stats.read++;
    return this.readLine(line, cols, cell);
  }

  private readonly codes: number[] = [];

  private readLine(line: IBufferLine, cols: number, cell: IBufferCell): number {
    let end = Math.min(cols, line.length);
    while (end > 0) {
      if (!line.getCell(end - 1, cell)) break;
      if (cell.getWidth() !== 0 && cellDraws(cell)) break;
      end--;
    }
    const runs: Array<[string, number]> = [];
    // the run's UTF-16 code units, made a string once at its end: `text += ch` (or an array of the
    // characters joined) cost ~1.5 KB of garbage and most of the time of reading a line
    const text = this.codes;
    text.length = 0;
    let style = -1;
    let pFgMode = -1;
    let pFg = -1;
    let pBgMode = -1;
    let pBg = -1;
    let pFlags = -1;
    // the cell's raw words: the same as the last cell's (and no extended attributes), the same style
    const raw = rawOf(cell);
    let pRawFg = -1;
    let pRawBg = -1;
    for (let x = 0; x < end; x++) {
      if (!line.getCell(x, cell)) break;
      const width = cell.getWidth();
      if (width === 0) continue;
      if (raw && raw.fg === pRawFg && raw.bg === pRawBg && (raw.bg & BG_HAS_EXTENDED) === 0) {
        pushChars(text, cell, width, pFlags);
        continue;
      }
      if (raw) {
        pRawFg = raw.fg;
        pRawBg = raw.bg;
      }
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
          if (text.length > 0) runs.push([String.fromCharCode.apply(null, text), style]);
          text.length = 0;
          style = s;
        }
      }
      pushChars(text, cell, width, flags);
    }
    if (text.length > 0) runs.push([String.fromCharCode.apply(null, text), style]);
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
