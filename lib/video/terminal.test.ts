import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CastEvent, TerminalRecording } from '../formats/trajectory';
import { harborImporter } from '../formats/harbor';
import { dirSource } from '../formats/source';
import {
  ANSI_PALETTE,
  LINE_MUTATORS,
  LINE_READERS,
  paletteColor,
  parseResize,
  ScreenTable,
  screenText,
  TerminalReplay,
  terminalScreenAt,
} from './terminal';

const rec = (events: CastEvent[], width = 20, height = 5): TerminalRecording => ({ version: 2, width, height, title: null, events });

describe('terminalScreenAt', () => {
  const recording = rec([
    [0.5, 'o', 'one\r\n'],
    [1.0, 'o', 'two\r\n'],
    [1.5, 'i', 'ignored input'],
    [2.0, 'o', 'three'],
  ]);

  it('shows exactly the events with time <= t', () => {
    expect(screenText(terminalScreenAt(recording, 0))).toEqual(['', '', '', '', '']);
    expect(screenText(terminalScreenAt(recording, 0.5))).toEqual(['one', '', '', '', '']);
    expect(screenText(terminalScreenAt(recording, 0.999))).toEqual(['one', '', '', '', '']);
    expect(screenText(terminalScreenAt(recording, 1.0))).toEqual(['one', 'two', '', '', '']);
    expect(screenText(terminalScreenAt(recording, 1.9))).toEqual(['one', 'two', '', '', '']);
    const end = terminalScreenAt(recording, 99);
    expect(screenText(end)).toEqual(['one', 'two', 'three', '', '']);
    expect(end.cursor).toEqual({ x: 5, y: 2, visible: true });
  });

  it('applies a clear, cursor positioning and erase-to-end-of-line', () => {
    const r = rec([
      [0.1, 'o', 'garbage everywhere\r\nmore garbage'],
      [0.2, 'o', '\x1b[2J\x1b[H'],
      [0.3, 'o', '\x1b[3;5Hxy'],
      [0.4, 'o', '\x1b[1;1Habcdefgh\x1b[1;4H\x1b[K'],
    ]);
    expect(screenText(terminalScreenAt(r, 0.1))).toEqual(['garbage everywhere', 'more garbage', '', '', '']);
    expect(screenText(terminalScreenAt(r, 0.2))).toEqual(['', '', '', '', '']);
    const s = terminalScreenAt(r, 0.3);
    expect(screenText(s)).toEqual(['', '', '    xy', '', '']);
    expect(s.cursor).toMatchObject({ x: 6, y: 2 });
    expect(screenText(terminalScreenAt(r, 0.4))[0]).toBe('abc');
  });

  it('keeps SGR colours and attributes per cell', () => {
    const r = rec([[0, 'o', '\x1b[31mR\x1b[0m\x1b[1;38;5;196mB\x1b[0m\x1b[48;2;1;2;3mG\x1b[0m\x1b[7mI\x1b[0m\x1b[92mL\x1b[0mp']]);
    const row = terminalScreenAt(r, 1).rows[0]!;
    expect(row[0]).toMatchObject({ ch: 'R', fg: ANSI_PALETTE[1], bg: null, bold: false });
    expect(row[1]).toMatchObject({ ch: 'B', fg: '#ff0000', bold: true });
    expect(row[2]).toMatchObject({ ch: 'G', fg: null, bg: '#010203' });
    expect(row[3]).toMatchObject({ ch: 'I', inverse: true });
    expect(row[4]).toMatchObject({ ch: 'L', fg: ANSI_PALETTE[10] });
    expect(row[5]).toMatchObject({ ch: 'p', fg: null, bg: null, bold: false, inverse: false });
  });

  it('survives broken and incomplete escape sequences', () => {
    const r = rec([
      [0.1, 'o', 'ok \x1b['],
      [0.2, 'o', '31mred'],
      [0.3, 'o', '\x1b[999999999999999m\x1b[38;5;\x1b]0;title-without-end'],
      [0.4, 'o', '\r\nnext\x1bP unterminated dcs'],
      [0.5, 'o', '\x1b\\ \x1b[?25l after'],
    ]);
    for (const t of [0.1, 0.2, 0.3, 0.4, 0.5]) expect(() => terminalScreenAt(r, t)).not.toThrow();
    expect(screenText(terminalScreenAt(r, 0.1))[0]).toBe('ok');
    const s2 = terminalScreenAt(r, 0.2);
    expect(screenText(s2)[0]).toBe('ok red');
    expect(s2.rows[0]![3]).toMatchObject({ ch: 'r', fg: ANSI_PALETTE[1] });
    const s5 = terminalScreenAt(r, 0.5);
    expect(s5.cursor.visible).toBe(false);
  });

  it('applies resize events and ignores malformed ones', () => {
    const r = rec([
      [0.1, 'o', 'a'],
      [0.2, 'r', '30x8'],
      [0.3, 'r', 'nonsense'],
    ]);
    expect(terminalScreenAt(r, 0.1).cols).toBe(20);
    const s = terminalScreenAt(r, 0.3);
    expect(s.cols).toBe(30);
    expect(s.rows).toHaveLength(8);
    expect(parseResize('120x40')).toEqual({ cols: 120, rows: 40 });
    expect(parseResize('0x5')).toBeNull();
  });

  it('replays forward incrementally and restarts when asked to go back', () => {
    const r = rec([
      [1, 'o', 'a'],
      [2, 'o', 'b'],
    ]);
    const replay = new TerminalReplay(r);
    expect(replay.advanceTo(1)).toBe(true);
    expect(replay.advanceTo(1.5)).toBe(false);
    expect(replay.advanceTo(2)).toBe(true);
    expect(screenText(replay.screen())[0]).toBe('ab');
    replay.advanceTo(1);
    expect(screenText(replay.screen())[0]).toBe('a');
    expect(replay.applied).toBe(1);
    replay.dispose();
  });

  it('replays the harbor fixture cast', async () => {
    let recording: TerminalRecording | null = null;
    for await (const item of harborImporter.parse({
      kind: 'dir',
      dir: dirSource(path.join(import.meta.dirname, '..', 'formats', 'fixtures', 'harbor', 'trial-basic')),
    })) {
      if (item.ok) recording = item.trajectory.terminal;
    }
    expect(recording).not.toBeNull();
    expect(screenText(terminalScreenAt(recording!, 0.4)).slice(0, 3)).toEqual(['$ ls', 'script.sh', '$']);
    const end = terminalScreenAt(recording!, 10);
    expect(end.cols).toBe(120);
    expect(screenText(end).slice(0, 6)).toEqual(['$ ls', 'script.sh', '$ chmod +x script.sh', '<script>alert(1)</script>', 'ok', '$']);
    expect(end.rows[4]![0]).toMatchObject({ ch: 'o', fg: ANSI_PALETTE[2] });
  });
});

describe('palette and screen table', () => {
  it('reads the same lines through the fast path as through screen()', () => {
    const r = rec(
      [
        [0, 'o', '\x1b[1;31mbold red\x1b[0m plain \x1b[7minv\x1b[0m\x1b[4m   \x1b[0m\r\n'],
        [0, 'o', '\x1b[48;5;22m  bg  \x1b[0m trailing   \r\n\x1b[8msecret\x1b[0m seen\r\n中文 wide\x1b[38;2;10;20;30m rgb'],
      ],
      40,
      6,
    );
    const replay = new TerminalReplay(r);
    replay.advanceTo(1);
    const a = new ScreenTable();
    const b = new ScreenTable();
    const fast = replay.screenLines(a).lines.map((i) => a.lines[i]!.map(([t, s]) => [t, a.styles[s]]));
    const slow = replay.screen().rows.map((row) => b.lines[b.line(row)]!.map(([t, s]) => [t, b.styles[s]]));
    expect(fast).toEqual(slow);
    expect(fast[2]).toEqual([['       seen', expect.objectContaining({ fg: null })]]);
    replay.dispose();
  });

  it('recognises lines unchanged since the last snapshot (scrolled or not) and still reads what changed', () => {
    // a build log scrolling a 4-row screen, a line rewritten in place (\r), a colour change on one line
    const events: CastEvent[] = [];
    for (let k = 0; k < 12; k++) events.push([k, 'o', `\x1b[32mok\x1b[0m step ${k}\r\n`]);
    events.push(
      [12, 'o', 'progress 10%'],
      [13, 'o', '\rprogress 90%'],
      [14, 'o', '\x1b[1A\r\x1b[31mok\x1b[0m'],
      [15, 'o', '\x1b[2J\x1b[H中文 e\u0301 done'],
    );
    const r = rec(events, 24, 4);
    const replay = new TerminalReplay(r);
    const table = new ScreenTable();
    const check = new TerminalReplay(r);
    for (let t = 0; t <= 15; t++) {
      replay.advanceTo(t);
      check.advanceTo(t);
      const fast = replay.screenLines(table).lines.map((i) => table.lines[i]!.map(([text, st]) => [text, table.styles[st]]));
      const fresh = new ScreenTable();
      const slow = check.screen().rows.map((row) => fresh.lines[fresh.line(row)]!.map(([text, st]) => [text, fresh.styles[st]]));
      expect(fast, `screen at t=${t}`).toEqual(slow);
    }
    // 16 snapshots of 4 rows: most rows were only scrolled, and were not read again
    expect(table.stats.read + table.stats.reused).toBe(64);
    expect(table.stats.reused).toBeGreaterThan(30);
    expect(table.stats.read).toBeGreaterThanOrEqual(16);
    replay.dispose();
    check.dispose();
  });

  it('reads what every kind of write changed, and nothing it did not (insert, delete, erase, scroll regions, alt screen, resize)', () => {
    // each event writes rows in a different way; the screen is compared with a fresh reading after each
    const writes = [
      '\x1b[31mred\x1b[0m line one\r\nline two\r\nline three\r\nline four',
      '\x1b[2;1H\x1b[3@ins', // insert characters (ICH) on row 2
      '\x1b[3;3H\x1b[2P', // delete characters (DCH) on row 3
      '\x1b[1;6H\x1b[K', // erase to the end of row 1
      '\x1b[2;3r\x1b[3;1H\r\nscrolled in region\x1b[r', // a scroll region: only rows 2-3 move
      '\x1b[1;1H\x1bM', // reverse index at the top: everything moves down
      '\x1b[4:3mcurly\x1b[0m \x1b[58;5;196munder\x1b[0m e\u0301 中', // extended attributes, a combining mark, a wide character
      '\x1b[?1049h\x1b[Halternate screen', // the alternate buffer: other line objects
      '\x1b[?1049l', // back to the normal one, unchanged
      '\x1b[2J\x1b[3;2Hcleared',
    ];
    const events: CastEvent[] = writes.map((w, k) => [k, 'o', w]);
    events.push([writes.length, 'r', '18x6'], [writes.length + 1, 'o', '\r\nafter resize']);
    const r = rec(events, 24, 5);
    const replay = new TerminalReplay(r);
    const table = new ScreenTable();
    for (let t = 0; t <= writes.length + 1; t++) {
      replay.advanceTo(t);
      const fast = replay.screenLines(table).lines.map((i) => table.lines[i]!.map(([text, st]) => [text, table.styles[st]]));
      const fresh = new ScreenTable();
      const slow = terminalScreenAt(r, t).rows.map((row) => fresh.lines[fresh.line(row)]!.map(([text, st]) => [text, fresh.styles[st]]));
      expect(fast, `screen at t=${t}`).toEqual(slow);
    }
    expect(table.stats.reused).toBeGreaterThan(10);
    replay.dispose();
  });

  it("counts the writes of every method of xterm's line class that changes cells (an upgrade adding one fails here)", () => {
    const replay = new TerminalReplay(rec([[0, 'o', 'x']]));
    replay.advanceTo(1);
    const buffer = (replay as unknown as { term: { buffer: { active: { _buffer: { lines: { get(i: number): object } } } } } }).term.buffer
      .active._buffer;
    const line = buffer.lines.get(0) as { witnessWrites?: number };
    const proto = Object.getPrototypeOf(line) as object;
    const methods = Object.getOwnPropertyNames(proto).filter((n) => typeof Object.getOwnPropertyDescriptor(proto, n)?.value === 'function');
    const known = new Set<string>([...LINE_MUTATORS, ...LINE_READERS]);
    expect(methods.filter((m) => !known.has(m))).toEqual([]);
    expect(LINE_MUTATORS.filter((m) => !methods.includes(m))).toEqual([]);
    // the write just made ('x' on row 0) was counted on the line
    expect(line.witnessWrites).toBeGreaterThan(0);
    replay.dispose();
  });

  it('maps the 256-colour palette', () => {
    expect(paletteColor(1)).toBe(ANSI_PALETTE[1]);
    expect(paletteColor(16)).toBe('#000000');
    expect(paletteColor(196)).toBe('#ff0000');
    expect(paletteColor(231)).toBe('#ffffff');
    expect(paletteColor(232)).toBe('#080808');
    expect(paletteColor(255)).toBe('#eeeeee');
  });

  it('interns lines as styled runs, trailing blanks dropped', () => {
    const table = new ScreenTable();
    const s = terminalScreenAt(rec([[0, 'o', '\x1b[32mok\x1b[0m done   \r\n\r\n\x1b[32mok\x1b[0m done']]), 1);
    const ids = s.rows.map((r) => table.line(r));
    expect(ids[0]).toBe(ids[2]);
    expect(ids[1]).toBe(ids[3]);
    const runs = table.lines[ids[0]!]!;
    expect(runs.map((r) => r[0])).toEqual(['ok', ' done']);
    expect(table.styles[runs[0]![1]]).toMatchObject({ fg: ANSI_PALETTE[2] });
    expect(table.styles[runs[1]![1]]).toMatchObject({ fg: null });
    expect(table.lines[ids[1]!]).toEqual([]);
    expect(table.styles).toHaveLength(2);
  });
});
