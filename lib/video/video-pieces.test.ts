import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import type { CastEvent, Step } from '../formats/trajectory';
import { trajectoryVideoProps } from './props';
import { trajectoryVideoSchema, type TrajectoryVideoProps } from './schema';
import { mergeVideoParts, partAt } from './merge-video-parts';
import { PART_SCENE_KINDS, splitVideoProps, videoHeadSchema, videoPartSchema } from './video-pieces';

/** a run with `n` steps, each a shell command whose output the cast replays (the shape of bench/pages-bench-data.ts's long run, smaller) */
function longRun(n: number): TrajectoryVideoProps {
  const steps: Array<Partial<Step> & Pick<Step, 'source' | 'text'>> = [{ source: 'user', text: 'Fix the failing build.' }];
  const castSeconds = 20 * n;
  for (let i = 1; i < n; i++)
    steps.push({
      source: 'agent',
      text: `Step ${i}: with $n = ${i}$ the loop runs $O(n^2)$ times.`,
      reasoning: `Check step ${i}.`,
      toolCalls: [{ id: `c${i}`, name: 'bash', arguments: { command: `make test-${i}` } }],
      observations: [{ toolCallId: `c${i}`, content: `test ${i} ok`, isError: false }],
      castTime: (i / n) * castSeconds,
    });
  const events: CastEvent[] = [];
  for (let k = 0; k < 40 * n; k++) events.push([(k / (40 * n)) * castSeconds, 'o', `\x1b[32m[${k}]\x1b[0m building target ${k % 97}\r\n`]);
  const trajectory = buildTrajectory({
    format: 'harbor',
    task: { name: 'long-build', instruction: 'Fix the failing build.' },
    policy: { model: 'm' },
    steps,
    extra: { terminal: { version: 2, width: 80, height: 24, title: null, events } },
  });
  return trajectoryVideoProps(trajectory);
}

describe('splitVideoProps', () => {
  const props = longRun(60);
  const { head, parts } = splitVideoProps(props, 'rev-1', 8 * 1024);

  it('gives a head that is valid props drawing the title card, chapters and criteria, without the terminal lines', () => {
    expect(() => videoHeadSchema.parse(head)).not.toThrow();
    expect(() => trajectoryVideoSchema.parse(head.props)).not.toThrow();
    expect(head.props.scenes.map((s) => [s.kind, s.from, s.duration])).toEqual(props.scenes.map((s) => [s.kind, s.from, s.duration]));
    expect(head.props.scenes[0]).toEqual(props.scenes[0]);
    expect(head.props.chapters).toEqual(props.chapters);
    expect(head.props.header).toEqual(props.header);
    expect(head.props.terminal?.lines).toEqual([]);
    expect(props.terminal!.lines.length).toBeGreaterThan(100);
    // the bulk stays out of the head
    expect(JSON.stringify(head).length).toBeLessThan(JSON.stringify(props).length / 2);
  });

  it('splits into parts near the target size that tile the step and terminal scenes in order', () => {
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) {
      expect(() => videoPartSchema.parse(part)).not.toThrow();
      // a part never starts with a terminal replay: its step card comes with it
      expect(part.scenes[0]![1].kind).not.toBe('terminal');
    }
    const covered = parts.flatMap((p) => p.scenes.map(([i]) => i));
    const heavy = props.scenes.flatMap((s, i) => (PART_SCENE_KINDS.has(s.kind) ? [i] : []));
    expect(covered).toEqual(heavy);
    expect(head.parts.map((r) => r.part)).toEqual(parts.map((p) => p.part));
    for (let k = 1; k < head.parts.length; k++) expect(head.parts[k]!.fromFrame).toBeGreaterThanOrEqual(head.parts[k - 1]!.toFrame);
  });

  it('merges back to the props it was split from, and part by part draws what it has', () => {
    expect(mergeVideoParts(head, parts)).toEqual(props);
    const one = mergeVideoParts(head, [parts[1]!]);
    for (const [i, scene] of parts[1]!.scenes) expect(one.scenes[i]).toEqual(scene);
    expect(one.scenes[parts[0]!.scenes[0]![0]]).toEqual(head.props.scenes[parts[0]!.scenes[0]![0]]);
    expect(() => trajectoryVideoSchema.parse(one)).not.toThrow();
  });

  it('finds the part a frame needs, none on the title and closing cards', () => {
    expect(partAt(head, 0)).toBeNull();
    expect(partAt(head, props.durationInFrames - 1)).toBeNull();
    const second = head.parts[1]!;
    expect(partAt(head, second.fromFrame)?.part).toBe(second.part);
    expect(partAt(head, second.toFrame - 1)?.part).toBe(second.part);
  });

  it('refuses a part of another split', () => {
    const other = splitVideoProps(props, 'rev-2', 8 * 1024).parts[0]!;
    expect(() => mergeVideoParts(head, [other])).toThrow(/split rev-2/);
  });
});

describe('splitVideoProps on a maths run', () => {
  // a derivation (display equations, typeset as SVG glyphs in the props) and a patch (a diff scene)
  const trajectory = buildTrajectory({
    format: 'harbor',
    task: { name: 'hoop', instruction: 'Find the equilibria of a bead on a rotating hoop.' },
    policy: { model: 'm' },
    steps: [
      { source: 'user', text: 'Find the equilibria.' },
      {
        source: 'agent',
        text: 'The Lagrangian gives\n$$\nmR^2\\ddot\\theta = mR^2\\Omega^2\\sin\\theta\\cos\\theta - mgR\\sin\\theta,\n$$\nso that\n$$\n\\ddot\\theta = \\sin\\theta\\left(\\Omega^2\\cos\\theta - \\frac{g}{R}\\right).\n$$',
      },
      {
        source: 'agent',
        text: 'Fix the sign.',
        toolCalls: [{ id: 'e1', name: 'bash', arguments: { command: 'git apply fix.patch' } }],
        observations: [
          {
            toolCallId: 'e1',
            content: '--- a/hoop.py\n+++ b/hoop.py\n@@ -1,2 +1,2 @@\n-w = g / R\n+w = (g / R) ** 0.5\n print(w)\n',
            isError: false,
          },
        ],
      },
    ],
  });
  const props = trajectoryVideoProps(trajectory, { pacing: 'read' });
  const { head, parts } = splitVideoProps(props, 'rev-m');

  it('keeps the equations, their glyphs and the hunks out of the head, and merges back whole', () => {
    const kinds = props.scenes.map((s) => s.kind);
    expect(kinds).toContain('derivation');
    expect(kinds).toContain('diff');
    const derivation = props.scenes.find((s) => s.kind === 'derivation')!;
    expect(derivation.kind === 'derivation' && (derivation.glyphs?.length ?? 0) > 0).toBe(true);
    expect(() => trajectoryVideoSchema.parse(head.props)).not.toThrow();
    for (const s of head.props.scenes) {
      if (s.kind === 'derivation') {
        expect(s.glyphs).toEqual([]);
        expect(s.beats.every((b) => b.equation === null && b.previous === null)).toBe(true);
      }
      if (s.kind === 'diff') expect(s.files.every((f) => f.hunks.length === 0)).toBe(true);
    }
    expect(JSON.stringify(head).length).toBeLessThan(JSON.stringify(props).length / 2);
    expect(mergeVideoParts(head, parts)).toEqual(props);
    const at = derivation.from + 1;
    expect(partAt(head, at)?.part).toBe(parts.find((p) => p.scenes.some(([, s]) => s.kind === 'derivation'))!.part);
  });
});
