import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../../../lib/formats/build-trajectory';
import { trajectoryVideoProps } from '../../../../lib/video/props';
import type { StepScene } from '../schema';
import { stepCardPages } from '../../../../lib/video/card-pages';
import { StepView } from './step-view';

/* Issue 43 §3: the video shows the whole program a step runs, a page at a time, not "… 12 more
   lines". The call's shape is Inspect's `python` tool ({"code": …}, inspect_ai/tool/_tools/_execute.py). */
const program = Array.from({ length: 42 }, (_, i) => (i === 0 ? 'import math' : `x${i} = math.sqrt(${i})  # line ${i + 1}`)).join('\n');
const run = buildTrajectory({
  format: 'inspect',
  task: { name: 'hoop-check', instruction: 'Check it numerically.' },
  policy: { model: 'm' },
  steps: [
    { source: 'user', text: 'Check it numerically.' },
    {
      source: 'agent',
      text: 'Integrating the equation of motion:',
      toolCalls: [{ id: 'c1', name: 'python', arguments: { code: program, timeout: 60 } }],
    },
  ],
});

describe('a tool call that runs a program, in the video', () => {
  const props = trajectoryVideoProps(run, { pacing: 'read' });
  const scene = props.scenes.find((s): s is StepScene => s.kind === 'step' && s.cards[0]!.card.index === 1)!;
  const entry = scene.cards[0]!;
  const html = (frame: number) => renderToStaticMarkup(createElement(StepView, { scene, frame }));

  it('carries the whole program under read pacing (its other arguments beside it), and holds the card to read it', () => {
    expect(entry.card.toolCalls[0]!.code).toEqual({ text: program, language: 'python', omittedLines: 0, rest: 'timeout: 60' });
    expect(entry.duration / props.fps).toBeGreaterThanOrEqual(42 * 0.8);
    // skim keeps its short excerpt
    const skim = trajectoryVideoProps(run, { pacing: 'skim' });
    const card = skim.scenes.flatMap((s) => (s.kind === 'step' ? s.cards.map((c) => c.card) : [])).find((c) => c.index === 1)!;
    expect(card.toolCalls[0]!.code).toBeUndefined();
  });

  it('pages through every line, highlighted with line numbers, never "… N more lines"', () => {
    const pages = stepCardPages(entry.card);
    expect(pages.length).toBeGreaterThan(1);
    const seen = new Set<number>();
    let firstRows = '';
    for (let f = entry.from; f < entry.from + entry.duration; f += 3) {
      const out = html(f);
      for (const m of out.matchAll(/data-rows="(\d+)-(\d+)"/g)) {
        if (!firstRows) firstRows = m[0];
        for (let k = Number(m[1]); k <= Number(m[2]); k++) seen.add(k);
      }
    }
    expect(seen.size).toBe(42);
    const first = html(entry.from + 2);
    expect(first).toContain('data-language="python"');
    expect(first).toMatch(/lines 1–\d+ of 42/);
    expect(first).not.toMatch(/more lines/);
    const last = html(entry.from + entry.duration - 1);
    expect(last).toContain('line 42');
    expect(last).toContain('>42<'); // its line number
    expect(last).not.toContain('import'); // the first page is gone
  });

  it('holds each page for its reading time: the whole card at least its lines at 0.8 s', () => {
    const pages = stepCardPages(entry.card);
    const rows = pages.flatMap((p) => p.blocks).reduce((n, b) => n + (b.kind === 'call' ? b.rows[1] - b.rows[0] : 0), 0);
    expect(rows).toBe(42);
    expect(entry.duration / props.fps).toBeGreaterThanOrEqual(42 * 0.8);
  });
});
