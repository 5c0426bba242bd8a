import { buildTrajectory } from '../formats/build-trajectory';
import { makeStep } from '../formats/chat-messages';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { harborImporter } from '../formats/harbor';
import { dirSource } from '../formats/source';
import type { CastEvent, Step, Trajectory } from '../formats/trajectory';
import { closingHolds, closingPages } from './card-pages';
import { chapterAt, criterionStateAt, evidenceFrame, frameForStep, pieceAt, snapshotAt } from './chapters';
import { trajectoryVideoProps } from './props';
import { displayEquationSeconds, EQUATION_MOTION_SECONDS, SKIM_EQUATION_SECONDS, STILL_MAX_SECONDS } from './pacing';
import { trajectoryVideoSchema, type DerivationScene, type ResultScene, type TerminalScene, type TrajectoryVideoProps } from './schema';
import { screenText, terminalScreenAt } from './terminal';

async function harbor(name: string): Promise<Trajectory> {
  for await (const item of harborImporter.parse({
    kind: 'dir',
    dir: dirSource(path.join(import.meta.dirname, '..', 'formats', 'fixtures', 'harbor', name)),
  })) {
    if (item.ok) return item.trajectory;
  }
  throw new Error('fixture did not import');
}

function step(index: number, over: Partial<Step> = {}): Step {
  return { index, ...makeStep('agent', over) };
}

function trajectory(over: Partial<Trajectory> = {}): Trajectory {
  return {
    ...buildTrajectory({ format: 'atif', task: { name: 'task', instruction: 'Do the thing.' }, policy: { model: 'm', agent: 'a' } }),
    ...over,
  };
}

/** scenes tile [0, duration); chapters are ordered, disjoint, non-empty and cover every step */
function checkTimeline(p: TrajectoryVideoProps, steps: number): void {
  expect(() => trajectoryVideoSchema.parse(p)).not.toThrow();
  let at = 0;
  for (const s of p.scenes) {
    expect(s.from).toBe(at);
    at += s.duration;
  }
  expect(at).toBe(p.durationInFrames);
  expect(p.scenes[0]!.kind).toBe('title');
  expect(p.scenes[p.scenes.length - 1]!.kind).toBe('closing');
  expect(p.chapters.map((c) => c.step)).toEqual(Array.from({ length: steps }, (_, i) => i));
  let prevEnd = 0;
  for (const c of p.chapters) {
    expect(c.toFrame).toBeGreaterThan(c.fromFrame);
    expect(c.fromFrame).toBeGreaterThanOrEqual(prevEnd);
    prevEnd = c.toFrame;
    expect(chapterAt(p.chapters, c.fromFrame)?.step).toBe(c.step);
    expect(chapterAt(p.chapters, c.toFrame - 1)?.step).toBe(c.step);
    expect(frameForStep(p.chapters, c.step)).toBe(c.fromFrame);
  }
  for (const s of p.scenes) {
    if (s.kind !== 'terminal') continue;
    expect(s.pieces[0]!.from).toBe(s.from);
    expect(s.snapshots[0]!.frame).toBe(s.from);
    const last = s.pieces[s.pieces.length - 1]!;
    expect(last.from + last.duration).toBe(s.from + s.duration);
  }
}

describe('trajectoryVideoProps on the harbor fixture', () => {
  it('builds a valid, tiled timeline with a chapter per step', async () => {
    const t = await harbor('trial-basic');
    const p = trajectoryVideoProps(t);
    checkTimeline(p, 4);
    expect(p).toMatchObject({ fps: 30, width: 1280, height: 720 });
    expect(p.header).toMatchObject({
      task: 'fix-permissions',
      environment: 'docker',
      policy: 'anthropic/claude-sonnet-4-5',
      agent: 'terminus-2',
      stepCount: 4,
    });
    expect(p.scenes.map((s) => s.kind)).toEqual(['title', 'step', 'terminal', 'step', 'terminal', 'step', 'terminal', 'step', 'closing']);
    expect(p.chapters[2]).toMatchObject({ step: 2, castTime: 4.5, realSeconds: 4.5, timestamp: '2025-11-02T09:00:04.500Z' });
    // a step's chapter includes its terminal replay
    const term = p.scenes.find((s): s is TerminalScene => s.kind === 'terminal' && s.step === 2)!;
    expect(p.chapters[2]!.toFrame).toBe(term.from + term.duration);
    expect(p.durationInFrames / p.fps).toBeLessThan(60);
  });

  it('is deterministic: same input, same props', async () => {
    const t = await harbor('trial-basic');
    const a = JSON.stringify(trajectoryVideoProps(t));
    const b = JSON.stringify(trajectoryVideoProps(structuredClone(t)));
    expect(a).toBe(b);
  });

  it('terminal snapshots are the emulator screen at the frame time', async () => {
    const t = await harbor('trial-basic');
    const p = trajectoryVideoProps(t);
    const table = p.terminal!;
    for (const scene of p.scenes) {
      if (scene.kind !== 'terminal') continue;
      for (let f = scene.from; f < scene.from + scene.duration; f += 3) {
        const { castTime } = pieceAt(scene.pieces, f);
        const snap = snapshotAt(scene.snapshots, f);
        const drawn = snap.lines.map((i) =>
          table.lines[i]!.map((r) => r[0])
            .join('')
            .replace(/\s+$/, ''),
        );
        expect(drawn).toEqual(screenText(terminalScreenAt(t.terminal!, castTime + 1e-6)));
      }
    }
    // the markers of the cast show up in the replay
    expect(p.scenes.flatMap((s) => (s.kind === 'terminal' ? s.markers.map((m) => m.label) : []))).toEqual([
      'Episode 0: inspect',
      'Episode 1: chmod',
    ]);
  });

  it('ticks verifier-only verdicts at the closing card', async () => {
    const p = trajectoryVideoProps(await harbor('trial-basic'));
    const closing = p.scenes[p.scenes.length - 1]!;
    const byKey = new Map(p.criteria.map((c) => [c.key, c]));
    const exec = byKey.get('test_outputs.py::test_script_is_executable')!;
    expect(exec.marks).toEqual([{ frame: closing.from, state: 'pass', source: 'verifier', step: null }]);
    expect(criterionStateAt(exec, closing.from - 1)).toBeNull();
    expect(criterionStateAt(byKey.get('test_outputs.py::test_no_extra_files')!, closing.from)?.state).toBe('fail');
    expect(byKey.get('script-sh-is-executable')!.marks).toEqual([]);
  });

  it('uses the studio criteria and labels when given', async () => {
    const p = trajectoryVideoProps(await harbor('trial-judged'), {
      criteria: [{ key: 'summary', text: 'A summary exists', origin: 'manual', verdict: null }],
      labels: { environment: 'daytona-large', policy: 'opus-ckpt-7' },
    });
    expect(p.criteria.map((c) => c.key)).toEqual(['summary']);
    expect(p.header.environment).toBe('daytona-large');
    expect(p.header.policy).toBe('opus-ckpt-7');
    expect(p.outcome.judges.length).toBeGreaterThan(0);
  });
});

describe('trajectoryVideoProps edge cases', () => {
  it('gives an empty trajectory a title and a closing card', () => {
    const p = trajectoryVideoProps(trajectory());
    checkTimeline(p, 0);
    expect(p.scenes.map((s) => s.kind)).toEqual(['title', 'closing']);
    expect(p.chapters).toEqual([]);
    expect(p.terminal).toBeNull();
    expect(p.durationInFrames).toBeGreaterThan(p.fps * 5);
  });

  it('gives zero-length steps a chapter of their own', () => {
    const p = trajectoryVideoProps(
      trajectory({
        steps: [step(0, { castTime: 1 }), step(1, { castTime: 1, text: 'same moment' }), step(2, { castTime: 1 })],
        terminal: { version: 2, width: 40, height: 5, title: null, events: [[1.2, 'o', 'x']] },
      }),
    );
    checkTimeline(p, 3);
    // steps 0 and 1 have an empty slice of the recording: no terminal scene for them
    expect(p.scenes.filter((s) => s.kind === 'terminal').map((s) => (s as TerminalScene).step)).toEqual([2]);
  });

  it('groups consecutive small steps into one scene', () => {
    const p = trajectoryVideoProps(
      trajectory({ steps: [step(0, { source: 'system', text: 'sys' }), step(1, { source: 'user', text: 'hi' }), step(2, { text: 'ok' })] }),
    );
    checkTimeline(p, 3);
    const scene = p.scenes[1]!;
    expect(scene.kind === 'step' && scene.cards.map((c) => c.card.index)).toEqual([0, 1, 2]);
  });

  it('compresses idle terminal gaps into a one-second marker', () => {
    const events: CastEvent[] = [
      [0.5, 'o', '$ make\r\n'],
      [1.0, 'o', 'building\r\n'],
      [42.0, 'o', 'done\r\n'],
      [42.5, 'o', '$ '],
    ];
    const p = trajectoryVideoProps(
      trajectory({
        steps: [step(0, { castTime: 0, text: 'build it' })],
        terminal: { version: 2, width: 40, height: 6, title: null, events },
      }),
    );
    checkTimeline(p, 1);
    const scene = p.scenes.find((s): s is TerminalScene => s.kind === 'terminal')!;
    const idle = scene.pieces.filter((x) => x.idle);
    expect(idle).toHaveLength(1);
    expect(idle[0]).toMatchObject({ castFrom: 1, castTo: 42, duration: 30 });
    expect(scene.duration / p.fps).toBeLessThan(5);
    // before the marker ends the screen has not moved on; right after it, "done" is there
    const end = idle[0]!.from + idle[0]!.duration;
    const text = (f: number) => snapshotAt(scene.snapshots, f).lines.map((i) => p.terminal!.lines[i]!.map((r) => r[0]).join(''));
    expect(text(end - 1)).not.toContain('done');
    expect(text(end)).toContain('done');
  });

  it('speeds up long busy stretches to fit the scene', () => {
    const events: CastEvent[] = Array.from({ length: 120 }, (_, i) => [i * 0.5, 'o', `tick ${i}\r\n`] as CastEvent);
    const p = trajectoryVideoProps(
      trajectory({ steps: [step(0, { castTime: 0 })], terminal: { version: 2, width: 40, height: 6, title: null, events } }),
    );
    const scene = p.scenes.find((s): s is TerminalScene => s.kind === 'terminal')!;
    expect(scene.speed).toBeGreaterThan(5);
    expect(scene.duration / p.fps).toBeLessThanOrEqual(8.1);
    const last = snapshotAt(scene.snapshots, scene.from + scene.duration - 1);
    expect(p.terminal!.lines[last.lines[4]!]!.map((r) => r[0]).join('')).toBe('tick 119');
  });

  it('summarises a 100k-line observation', () => {
    const content = Array.from({ length: 100_000 }, (_, i) => `row ${i}`).join('\n');
    const t0 = performance.now();
    const p = trajectoryVideoProps(
      trajectory({
        steps: [
          step(0, {
            toolCalls: [{ id: 'c', name: 'bash', arguments: { command: 'seq 100000' } }],
            observations: [{ toolCallId: 'c', content, isError: false }],
          }),
        ],
      }),
    );
    expect(performance.now() - t0).toBeLessThan(2000);
    const scene = p.scenes[1]!;
    if (scene.kind !== 'step') throw new Error('expected a step scene');
    const ob = scene.cards[0]!.card.observations[0]!;
    expect(ob.toolName).toBe('bash');
    expect(ob.body.omittedLines).toBe(100_000 - 12);
    expect(ob.body.totalLines).toBe(100_000);
    expect(JSON.stringify(p).length).toBeLessThan(20_000);
    expect(scene.cards[0]!.card.toolCalls[0]).toMatchObject({ kind: 'command', body: { head: 'seq 100000' } });
  });

  it('clips a long message and keeps LaTeX segments; a derivation is built up whole under skim too', () => {
    const p = trajectoryVideoProps(
      trajectory({
        steps: [step(0, { text: `The energy is $E = mc^2$ and \\(p = mv\\). ${'word '.repeat(400)}` })],
      }),
    );
    const scene = p.scenes[1]!;
    if (scene.kind !== 'step') throw new Error('expected a step scene');
    const card = scene.cards[0]!.card;
    expect(card.message.filter((s) => s.k === 'math')).toEqual([
      { k: 'math', tex: 'E = mc^2', display: false },
      { k: 'math', tex: 'p = mv', display: false },
    ]);
    expect(card.messageOmittedChars).toBeGreaterThan(1000);
    const derivation = trajectoryVideoProps(
      trajectory({
        steps: [step(0, { text: `The energy is $E = mc^2$ and $$\\sum_{i=1}^n i = \\frac{n(n+1)}{2}$$. ${'word '.repeat(400)}` })],
      }),
    ).scenes[1]!;
    if (derivation.kind !== 'derivation') throw new Error('expected a derivation scene');
    expect(derivation.beats[0]!.equation?.tex).toBe('\\sum_{i=1}^n i = \\frac{n(n+1)}{2} .');
    expect(derivation.beats[0]!.prose).toContainEqual({ k: 'math', tex: 'E = mc^2', display: false });
  });

  it('shows diffs from tool arguments and the submission, and ticks criteria on test evidence', () => {
    const patch = ['--- a/calc.py', '+++ b/calc.py', '@@ -1,2 +1,2 @@', ' def add(a, b):', '-    return a - b', '+    return a + b'].join(
      '\n',
    );
    const p = trajectoryVideoProps(
      trajectory({
        task: {
          name: 'fix-add',
          instruction: 'Fix add().',
          environment: null,
          split: null,
          metadata: {},
          acceptanceCriteria: [
            { key: 'tests/test_calc.py::test_add', text: 'tests/test_calc.py::test_add', origin: 'verifier', verdict: true },
            { key: 'tests/test_calc.py::test_sub', text: 'tests/test_calc.py::test_sub', origin: 'verifier', verdict: false },
          ],
        },
        steps: [
          step(0, {
            toolCalls: [{ id: '1', name: 'bash', arguments: { command: 'pytest -v' } }],
            observations: [
              { toolCallId: '1', content: 'tests/test_calc.py::test_add FAILED\ntests/test_calc.py::test_sub PASSED', isError: false },
            ],
          }),
          step(1, {
            toolCalls: [{ id: '2', name: 'apply_patch', arguments: { patch } }],
            observations: [{ toolCallId: '2', content: 'applied', isError: false }],
          }),
          step(2, {
            toolCalls: [{ id: '3', name: 'bash', arguments: { command: 'pytest -v' } }],
            observations: [{ toolCallId: '3', content: 'tests/test_calc.py::test_add PASSED', isError: false }],
          }),
        ],
        submission: patch,
      }),
    );
    checkTimeline(p, 3);
    const diffs = p.scenes.filter((s) => s.kind === 'diff');
    expect(diffs.map((d) => d.kind === 'diff' && [d.step, d.title])).toEqual([
      [1, 'patch · apply_patch'],
      [null, 'submission'],
    ]);
    const file = diffs[0]!.kind === 'diff' ? diffs[0]!.files[0]! : null;
    expect(file).toMatchObject({ newPath: 'calc.py', language: 'python', additions: 1, deletions: 1 });
    expect(file!.hunks[0]!.lines.map((l) => l.kind)).toEqual(['context', 'del', 'add']);

    const [add, sub] = p.criteria;
    const closing = p.scenes[p.scenes.length - 1]!.from;
    expect(add!.marks.map((m) => [m.state, m.source, m.step])).toEqual([
      ['fail', 'evidence', 0],
      ['pass', 'evidence', 2],
      ['pass', 'verifier', null],
    ]);
    expect(add!.marks[2]!.frame).toBe(closing);
    expect(sub!.marks.map((m) => [m.state, m.source])).toEqual([
      ['pass', 'evidence'],
      ['fail', 'verifier'],
    ]);
    const step0 = p.scenes[1]!;
    expect(step0.kind === 'step' && add!.marks[0]!.frame === step0.cards[0]!.revealFrame).toBe(true);
  });

  it('reads a zone-less timestamp as UTC, whatever the machine zone', () => {
    const p = trajectoryVideoProps(
      trajectory({ steps: [step(0, { timestamp: '2025-01-01T00:00:00' }), step(1, { timestamp: '2025-01-01T00:00:05.250000' })] }),
    );
    expect(p.chapters.map((c) => c.realSeconds)).toEqual([0, 5.25]);
  });
});

describe('trajectoryVideoProps chapter labels', () => {
  it('names a command as code (a shell glob or `__pycache__` is not emphasis) and a message as the Markdown it is', () => {
    const p = trajectoryVideoProps(
      trajectory({
        steps: [
          step(0, {
            toolCalls: [{ id: '1', name: 'bash', arguments: { command: 'find . -name __pycache__ -o -name "*.pyc" | xargs rm -rf' } }],
          }),
          step(1, { toolCalls: [{ id: '2', name: 'bash', arguments: { command: `echo \`date\` ${'x'.repeat(120)}` } }] }),
          step(2, { text: 'The **Equilibria.** follow from $\\dot\\theta = 0$.' }),
        ],
      }),
    );
    checkTimeline(p, 3);
    const [find, long, prose] = p.chapters.map((c) => c.label);
    expect(find).toBe('a · bash: `find . -name __pycache__ -o -name "*.pyc" | xargs rm -rf`');
    // clipped inside the code span, its fence longer than the backticks in the command
    expect(long).toMatch(/^a · bash: ``echo `date` x+…``$/);
    expect(long!.length).toBeLessThan(100);
    expect(prose).toBe('a · The **Equilibria.** follow from $\\dot\\theta = 0$.');
  });
});

describe('trajectoryVideoProps for blind review', () => {
  it('hides the policy everywhere and the reward, verifier verdicts and judges, keeping the length', async () => {
    const t = await harbor('trial-basic');
    const judged: Trajectory = {
      ...t,
      policy: { ...t.policy, checkpoint: 'ckpt-secret-42' },
      usage: { promptTokens: 10, completionTokens: 5, costUsd: 0.5 },
      judgeScores: [{ judge: 'judge-x', score: 0.25, label: 'meh', explanation: 'the judge says meh' }],
    };
    const open = trajectoryVideoProps(judged, { labels: { policy: 'policy-secret' } });
    const blind = trajectoryVideoProps(judged, { labels: { policy: 'policy-secret' }, blind: { hidePolicy: true, hideReward: true } });
    checkTimeline(blind, 4);
    expect(blind.durationInFrames).toBe(open.durationInFrames);
    expect(open.outcome.reward).not.toBeNull();
    const json = JSON.stringify(blind);
    for (const secret of ['policy-secret', 'claude-sonnet', 'terminus', 'ckpt-secret-42', 'judge-x', 'the judge says meh'])
      expect(json).not.toContain(secret);
    expect(blind.header.policy).toBe('Policy hidden');
    expect(blind.blind).toEqual({ policy: true, reward: true });
    expect(blind.outcome).toMatchObject({ reward: null, components: [], judges: [], usage: null });
    expect(blind.criteria.every((c) => c.verdict === null && c.marks.every((m) => m.source !== 'verifier'))).toBe(true);
    expect(blind.chapters.every((c) => !c.label.includes('terminus'))).toBe(true);
  });

  it('hides only what is asked', async () => {
    const t = await harbor('trial-basic');
    const rewardOnly = trajectoryVideoProps(t, { blind: { hidePolicy: false, hideReward: true } });
    expect(rewardOnly.header.policy).toBe('anthropic/claude-sonnet-4-5');
    expect(rewardOnly.outcome.reward).toBeNull();
    const policyOnly = trajectoryVideoProps(t, { blind: { hidePolicy: true, hideReward: false } });
    expect(policyOnly.header.policy).toBe('Policy hidden');
    expect(policyOnly.outcome.reward).toBe(trajectoryVideoProps(t).outcome.reward);
    expect(trajectoryVideoProps(t).blind).toBeUndefined();
  });
});

describe('pacing: read vs skim on the demo physics runs', () => {
  const demo = (file: string) => path.join(import.meta.dirname, '..', '..', 'prisma', 'seed', 'demo', 'physics-derivations', file);
  async function inspectRuns(file: string): Promise<Trajectory[]> {
    const { inspectImporter } = await import('../formats/inspect');
    const { fileSource } = await import('../formats/source');
    const { statSync } = await import('node:fs');
    const out: Trajectory[] = [];
    for await (const item of inspectImporter.parse({ kind: 'file', file: fileSource(demo(file), statSync(demo(file)).size) }))
      if (item.ok) out.push(item.trajectory);
    return out;
  }

  it('holds the rotating-hoop derivation long enough to read; skim stays a short overview', async () => {
    const [hoop] = await inspectRuns('bead-on-rotating-hoop_acme-coder-7b-ckpt-2000.json');
    const read = trajectoryVideoProps(hoop!, { pacing: 'read' });
    const skim = trajectoryVideoProps(hoop!, { pacing: 'skim' });
    checkTimeline(read, hoop!.steps.length);
    checkTimeline(skim, hoop!.steps.length);
    expect(read.pacing).toBe('read');
    expect(skim.pacing).toBe('skim');
    const derivation = read.scenes.find((s): s is DerivationScene => s.kind === 'derivation' && s.step === 2)!;
    expect(derivation.equations).toBe(3);
    // each equation is held to be read (up to the still cap), in the order written
    const eqs = derivation.beats.filter((b) => b.equation);
    expect(eqs.map((b) => b.equation!.number)).toEqual([1, 2, 3]);
    for (const b of eqs)
      expect(b.duration / read.fps).toBeGreaterThanOrEqual(Math.min(STILL_MAX_SECONDS, displayEquationSeconds(b.equation!.tex)));
    // paced by what changes: no scene or beat holds still longer than 12 s (a beat whose terms move gets its motion on top)
    for (const s of read.scenes) {
      if (s.kind === 'derivation')
        for (const b of s.beats) expect(b.duration / read.fps).toBeLessThanOrEqual(STILL_MAX_SECONDS + EQUATION_MOTION_SECONDS);
      // the closing card is paged (lib/video/card-pages.ts closingPages): each page at most 12 s
      else if (s.kind === 'closing')
        for (const h of closingHolds(closingPages(read.outcome), true, read.outcome.judges.length > 0))
          expect(h).toBeLessThanOrEqual(STILL_MAX_SECONDS);
      else if (s.kind !== 'terminal') expect(s.duration / read.fps).toBeLessThanOrEqual(STILL_MAX_SECONDS);
    }
    // the video a physicist reads in a minute or two, not 3:10 (the title held 22 s, one paragraph 48 s)
    expect(read.durationInFrames / read.fps).toBeLessThanOrEqual(120);
    expect(read.durationInFrames / read.fps).toBeGreaterThanOrEqual(60);
    const chapter = (p: TrajectoryVideoProps) => p.chapters.find((c) => c.step === 2)!;
    const readSeconds = (chapter(read).toFrame - chapter(read).fromFrame) / read.fps;
    expect(readSeconds).toBeGreaterThanOrEqual(45);
    expect(skim.durationInFrames / skim.fps).toBeLessThanOrEqual(90);
    // skim builds the derivation up too, each equation long enough to follow (it was one 3.5 s card: about a second an equation)
    const skimDerivation = skim.scenes.find((s): s is DerivationScene => s.kind === 'derivation' && s.step === 2)!;
    expect(skimDerivation.equations).toBe(3);
    for (const b of skimDerivation.beats.filter((x) => x.equation))
      expect(b.duration / skim.fps).toBeGreaterThanOrEqual(SKIM_EQUATION_SECONDS);
    // the terms the equation of motion shares with the Lagrangian move into place: the beat holds its motion on top
    expect(eqs[1]!.previous).not.toBeNull();
    // chapters follow the pacing: every frame of a chapter shows that step
    for (const s of read.scenes) if (s.kind === 'derivation') expect(chapterAt(read.chapters, s.from)?.step).toBe(s.step);
  });

  it('keeps stored evidence anchored to its step when the video is paced anew (never re-timed)', async () => {
    const [hoop] = await inspectRuns('bead-on-rotating-hoop_acme-coder-7b-ckpt-2000.json');
    // a note pinned late in the derivation's step of the read video; then the video is paced anew (here: skim)
    const before = trajectoryVideoProps(hoop!, { pacing: 'read' });
    const after = trajectoryVideoProps(hoop!, { pacing: 'skim' });
    const at = before.chapters.find((c) => c.step === 2)!;
    const note = Object.freeze({ frame: at.toFrame - 1, stepIndex: 2, note: 'sign of f′(θ₀)' });
    expect(chapterAt(after.chapters, note.frame)?.step).not.toBe(2); // the same frame shows another step now
    const seek = evidenceFrame(after.chapters, after.durationInFrames, note);
    expect(chapterAt(after.chapters, seek)?.step).toBe(2);
    expect(note.frame).toBe(at.toFrame - 1); // the stored note is untouched
    // a note still inside its step keeps its exact frame; one on the closing card stays within the video
    const inside = after.chapters.find((c) => c.step === 2)!.fromFrame + 20;
    expect(evidenceFrame(after.chapters, after.durationInFrames, { frame: inside, stepIndex: 2 })).toBe(inside);
    expect(evidenceFrame(after.chapters, after.durationInFrames, { frame: 10 ** 9, stepIndex: null })).toBe(after.durationInFrames - 1);
  });

  it('gives the damped-spring answer a result card with its plot, under both pacings', async () => {
    const [good, bad] = await inspectRuns('damped-spring-release_claude-sonnet-4-5.json');
    for (const pacing of ['read', 'skim'] as const) {
      const p = trajectoryVideoProps(good!, { pacing });
      const result = p.scenes.find((s): s is ResultScene => s.kind === 'result')!;
      expect(result).toMatchObject({ step: 2, source: 'answer-line' });
      expect(result.plot).not.toBeNull();
      expect(result.plot!.xTex).toBe('t');
      // released from rest at x_0 = 0.1 m
      expect(result.plot!.points[0]).toEqual([0, 0.1]);
      expect(chapterAt(p.chapters, result.from)?.step).toBe(2);
    }
    // the wrong sign starts the motion with a nonzero slope: the plot shows it
    const wrong = trajectoryVideoProps(bad!, { pacing: 'read' }).scenes.find((s): s is ResultScene => s.kind === 'result')!.plot!;
    const [p0, p1] = wrong.points as [[number, number], [number, number]];
    expect((p1[1] - p0[1]) / (p1[0] - p0[0])).toBeLessThan(-0.05);
  });
});
