import path from 'node:path';
import { stat } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { asciinemaImporter, BURST_IDLE_SECONDS, looksLikeCast, parseCast } from './asciinema';
import type { ParsedItem, SourceFile } from './importer';
import { fileSource, memorySource, probeFile } from './source';
import { trajectorySchema } from './trajectory';

const fixture = async (name: string): Promise<SourceFile> => {
  const p = path.join(import.meta.dirname, 'fixtures', 'asciinema', name);
  return fileSource(p, (await stat(p)).size);
};

async function importFile(file: SourceFile): Promise<ParsedItem[]> {
  const items: ParsedItem[] = [];
  for await (const item of asciinemaImporter.parse({ kind: 'file', file })) items.push(item);
  return items;
}

/** a source whose readText/readBytes throw: casts must be streamed */
function linesOnly(file: SourceFile): SourceFile {
  const fail = () => Promise.reject(new Error('casts must be read with lines()'));
  return { ...file, readText: fail, readBytes: fail };
}

describe('asciinema casts', () => {
  it('v2 and v3 casts of the same timeline give identical recordings', async () => {
    const v2 = await parseCast(linesOnly(await fixture('timeline-v2.cast')));
    const v3 = await parseCast(linesOnly(await fixture('timeline-v3.cast')));
    expect(v2.ok && v3.ok).toBe(true);
    if (!v2.ok || !v3.ok) return;
    expect(v3.recording.events).toEqual(v2.recording.events);
    expect(v2.recording.events.map((e) => e[0])).toEqual([0.1, 0.3, 0.3, 0.4, 3.7, 3.9, 4.05, 7.123456]);
    expect(v2.recording).toMatchObject({ version: 2, width: 100, height: 30, title: 'fix-permissions' });
    expect(v3.recording).toMatchObject({ version: 3, width: 100, height: 30, title: 'fix-permissions' });
    expect(v3.header.timestamp).toBe(1762074000);
  });

  it('imports a cast with markers as one agent step per marker', async () => {
    const [item] = await importFile(linesOnly(await fixture('timeline-v3.cast')));
    expect(item?.ok).toBe(true);
    if (!item?.ok) return;
    const t = item.trajectory;
    expect(() => trajectorySchema.parse(t)).not.toThrow();
    expect(t.task.name).toBe('fix-permissions');
    expect(t.steps.map((s) => [s.source, s.text, s.castTime])).toEqual([
      ['environment', '$ ', 0.1],
      ['agent', 'Episode 0: inspect', 0.3],
      ['agent', 'Episode 1: chmod', 3.7],
    ]);
    expect(t.steps[1]?.observations[0]?.content).toBe('ls\r\nscript.sh\r\n$ ');
    // HTML and ANSI are stored verbatim
    expect(t.steps[2]?.observations[0]?.content).toContain('<script>alert(1)</script>');
    expect(t.steps[1]?.timestamp).toBe('2025-11-02T09:00:00.300Z');
    expect(t.startedAt).toBe('2025-11-02T09:00:00.000Z');
    expect(t.endedAt).toBe('2025-11-02T09:00:07.123Z');
    expect(t.terminal?.events).toHaveLength(8);
  });

  it(`without markers, splits output into bursts separated by more than ${BURST_IDLE_SECONDS}s of silence`, async () => {
    const [item] = await importFile(await fixture('bursts.cast'));
    expect(item?.ok).toBe(true);
    if (!item?.ok) return;
    const t = item.trajectory;
    expect(t.task.name).toBe('bursts'); // no title: the file name
    expect(t.steps.map((s) => [s.source, s.castTime, s.text])).toEqual([
      ['environment', 0.5, '$ make\r\ncc -o app main.c\r\ndone\r\n'],
      ['environment', 5, '$ ./app\r\nhello\r\n'],
      ['environment', 9.5, 'exit\r\n'],
    ]);
    expect(t.metadata).toEqual({ command: '/bin/bash' });
  });

  it('keeps v3 exit status and skips comments, blank lines and unknown codes', async () => {
    const cast = [
      '{"version": 3, "term": {"cols": 80, "rows": 24}}',
      '# comment',
      '[0.5, "o", "a"]',
      '',
      '[0.25, "z", "unknown code"]',
      '[0.25, "o", "b"]',
      '[1, "x", "2"]',
    ].join('\n');
    const [item] = await importFile(memorySource('exit.cast', cast));
    expect(item?.ok).toBe(true);
    if (!item?.ok) return;
    expect(item.trajectory.terminal?.events).toEqual([
      [0.5, 'o', 'a'],
      [1, 'o', 'b'],
      [2, 'x', '2'],
    ]);
    expect(item.trajectory.exitStatus).toBe('2');
    expect(item.trajectory.startedAt).toBeNull();
  });

  it('sorts out-of-order v2 events', async () => {
    const r = await parseCast(memorySource('x.cast', '{"version":2,"width":8,"height":2}\n[2,"o","b"]\n[1,"o","a"]\n'));
    expect(r.ok && r.recording.events.map((e) => e[2])).toEqual(['a', 'b']);
  });

  it('names the line of a bad event', async () => {
    const [item] = await importFile(await fixture('bad-event.cast'));
    expect(item).toEqual({ ok: false, where: 'line 4', message: 'line 4: invalid event: expected [time, code, data]' });
    const bad = await parseCast(memorySource('x.cast', '{"version":3,"term":{"cols":8,"rows":2}}\n[1,"o","a"]\n[-1,"o","b"]'));
    expect(bad).toMatchObject({ ok: false, where: 'line 3' });
    const json = await parseCast(memorySource('x.cast', '{"version":2,"width":8,"height":2}\n[1,"o","a"\n'));
    expect(json).toMatchObject({ ok: false, where: 'line 2' });
    if (!json.ok) expect(json.message).toMatch(/^line 2: invalid event: invalid JSON at column \d+/);
  });

  it('rejects bad headers and empty files', async () => {
    expect(await parseCast(memorySource('e.cast', ''))).toEqual({
      ok: false,
      where: 'line 1',
      message: 'line 1: empty file: expected an asciicast header',
    });
    expect(await parseCast(memorySource('v1.cast', '{"version": 1, "width": 80, "height": 24, "stdout": []}'))).toMatchObject({
      ok: false,
      where: 'line 1',
    });
    expect(await parseCast(memorySource('v3.cast', '{"version": 3, "width": 80, "height": 24}'))).toMatchObject({
      ok: false,
      message: 'line 1: header: v3 needs "term" with positive integer "cols" and "rows"',
    });
  });

  it('detects v2 and v3 headers by content', async () => {
    expect(asciinemaImporter.detect(await probeFile(await fixture('timeline-v2.cast')))).toBe(true);
    expect(asciinemaImporter.detect(await probeFile(await fixture('timeline-v3.cast')))).toBe(true);
    expect(asciinemaImporter.detect(await probeFile(memorySource('a.cast', '{"version": 2}\n')))).toBe(false);
    expect(asciinemaImporter.detect(await probeFile(memorySource('a.cast', '[0.1, "o", "x"]\n')))).toBe(false);
    expect(looksLikeCast(`{"version": 2, "width": 80, "height": 24, "env": {"X": "${'y'.repeat(70_000)}"}}`.slice(0, 65_536))).toBe(true);
  });
});
