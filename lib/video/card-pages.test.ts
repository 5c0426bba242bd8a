import { describe, expect, it } from 'vitest';
import { everyChapterRun } from '../../e2e/fixtures/every-chapter';
import { buildTrajectory } from '../formats/build-trajectory';
import {
  callRows,
  CLOSING_SECONDS,
  closingHolds,
  closingPages,
  excerptRows,
  pageAt,
  pagedCardSeconds,
  shareAt,
  stepCardPages,
  titlePages,
  VIDEO_TYPE,
} from './card-pages';
import { READING, STILL_MAX_SECONDS } from './pacing';
import { trajectoryVideoProps } from './props';
import type { StepCard, StepScene } from './schema';
import { mathSegments, richTextSource } from './text';

/* Issue 43 §2/§3: the video's text is >= 12 px in the review page's 718 px player, and what an
   expert must read (the reasoning, a program, its output, the instruction) is paged, never cut. */

const props = trajectoryVideoProps(everyChapterRun('hoop', 'm'), { pacing: 'read' });
const reasoningScene = props.scenes.find(
  (s): s is StepScene => s.kind === 'step' && s.cards.length === 1 && s.cards[0]!.card.reasoning !== null,
)!;
const card = reasoningScene.cards[0]!.card;

describe('the type scale', () => {
  it('puts every text at 12 px or more in the review page 718 px player', () => {
    for (const size of Object.values(VIDEO_TYPE)) expect(size * (718 / 1280)).toBeGreaterThanOrEqual(12);
  });
});

describe('a step card over pages', () => {
  const pages = stepCardPages(card);

  it('keeps the reasoning whole under read pacing (no "…") and shows all of it, part after part, in order', () => {
    expect(card.reasoning).toContain('pitchfork bifurcation');
    expect(card.reasoning).not.toMatch(/…$/);
    const parts = pages.flatMap((p) => p.blocks).flatMap((b) => (b.kind === 'reasoning' ? [b.text] : []));
    expect(parts.join(' ').replace(/\s+/g, ' ')).toBe(card.reasoning!.replace(/\s+/g, ' '));
    // a reasoning three times as long runs on over pages, in order
    const long = `${card.reasoning!} ${card.reasoning!} ${card.reasoning!}`;
    const more = stepCardPages({ ...card, reasoning: long }).flatMap((p) => p.blocks.flatMap((b) => (b.kind === 'reasoning' ? [b] : [])));
    expect(more.length).toBeGreaterThan(parts.length);
    expect(more.map((b) => `${b.part + 1}/${b.parts}`)).toEqual(more.map((_, i) => `${i + 1}/${more.length}`));
    expect(
      more
        .map((b) => b.text)
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(long.replace(/\s+/g, ' '));
  });

  it('lists every line of the program and of its output exactly once', () => {
    const seen = (kind: 'call' | 'observation') =>
      pages
        .flatMap((p) => p.blocks)
        .flatMap((b) => (b.kind === kind ? Array.from({ length: b.rows[1] - b.rows[0] }, (_, i) => b.rows[0] + i) : []));
    expect(seen('call')).toEqual(callRows(card.toolCalls[0]!).map((_, i) => i));
    expect(seen('observation')).toEqual(excerptRows(card.observations[0]!.body).map((_, i) => i));
  });

  it('holds the card for each page its reading time (a still at most 12 s), and shows the pages in turn', () => {
    const seconds = reasoningScene.duration / props.fps;
    expect(seconds).toBeCloseTo(pagedCardSeconds(pages), 1);
    // every page is held for its reading, a still at most STILL_MAX_SECONDS (as every page of prose in the video)
    expect(seconds).toBeGreaterThanOrEqual(pages.reduce((n, p) => n + Math.min(STILL_MAX_SECONDS, p.seconds), 0));
    expect(seconds).toBeGreaterThan(pages.filter((p) => p.blocks.some((b) => b.kind === 'reasoning')).length * 3);
    const { from, duration } = reasoningScene.cards[0]!;
    const shown = Array.from({ length: duration }, (_, f) => pageAt(pages, from + f, from, duration));
    expect(new Set(shown).size).toBe(pages.length);
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  });

  it('pages a long message by sentences (maths whole), all of it in order', () => {
    const message = mathSegments(
      Array.from(
        { length: 30 },
        (_, i) => `Step ${i + 1} gives $\\ddot\\theta_${i} = -\\left(\\frac{g}{R} - \\Omega^2\\right)\\theta_${i}$ near the bottom.`,
      ).join(' '),
    );
    const long: StepCard = { ...card, reasoning: null, toolCalls: [], observations: [], message };
    const pages = stepCardPages(long);
    expect(pages.length).toBeGreaterThan(1);
    const parts = pages.flatMap((p) => p.blocks).flatMap((b) => (b.kind === 'message' ? [richTextSource(b.text)] : []));
    expect(parts.join('')).toBe(richTextSource(message));
    expect(pagedCardSeconds(pages)).toBeGreaterThanOrEqual(pages.reduce((n, p) => n + Math.min(STILL_MAX_SECONDS, p.seconds), 0));
  });

  it('gives a card with little on it one page', () => {
    const small: StepCard = { ...card, reasoning: null, toolCalls: [], observations: [], message: mathSegments('Done.') };
    expect(stepCardPages(small)).toHaveLength(1);
    expect(pagedCardSeconds(stepCardPages(small))).toBe(READING.cardMinSeconds);
  });
});

describe('a derivation step under read pacing', () => {
  it('reads its whole reasoning on a card of its own before the derivation', () => {
    const run = buildTrajectory({
      format: 'openai',
      task: { name: 'hoop', instruction: 'Derive it.' },
      steps: [
        {
          source: 'agent',
          reasoning: `${'The bead moves on the hoop and feels gravity and the rotation. '.repeat(12)}Then $\\omega^2 = g/R - \\Omega^2$.`,
          text: 'So\n$$\\ddot\\theta = -\\omega^2\\theta$$\nand\n$$\\omega = \\sqrt{g/R - \\Omega^2} .$$',
        },
      ],
    });
    const p = trajectoryVideoProps(run, { pacing: 'read' });
    const kinds = p.scenes.map((s) => s.kind);
    const d = kinds.indexOf('derivation');
    expect(kinds[d - 1]).toBe('step');
    const before = p.scenes[d - 1] as StepScene;
    expect(before.cards[0]!.card.reasoning).toMatch(/Then \$\\omega\^2 = g\/R - \\Omega\^2\$\.$/);
    const derivation = p.scenes[d]!;
    expect(derivation.kind === 'derivation' && derivation.card.reasoning).toBeNull();
    expect(derivation.from).toBe(before.from + before.duration);
    expect(derivation.kind === 'derivation' && derivation.beats[0]!.from).toBe(derivation.from);
  });
});

describe('the title card', () => {
  it('pages a long instruction whole, and holds each page', () => {
    const instruction = mathSegments(
      Array.from({ length: 14 }, (_, i) => `Part ${i + 1}: find the equilibria of the bead when $\\Omega^2 = ${i + 1} g/R$.`).join(' '),
    );
    const pages = titlePages('hoop', instruction);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.map(richTextSource).join('')).toBe(richTextSource(instruction));
    const run = buildTrajectory({ format: 'openai', task: { name: 'hoop', instruction: richTextSource(instruction) }, steps: [] });
    const title = trajectoryVideoProps(run, { pacing: 'read' }).scenes[0]!;
    expect(title.duration / 30).toBeGreaterThan(STILL_MAX_SECONDS);
  });
});

describe('the closing card', () => {
  // an Inspect eval scored by several model-graded scorers, each with its explanation
  // (inspect_ai/scorer/_model.py model_graded_qa: Score(value, answer, explanation=the grader's reply))
  const explanation = (i: number) =>
    `Grader ${i + 1}: the submission derives the effective potential correctly and finds both equilibria; ` +
    'it checks the limit of a slow hoop and the stability of the bottom point by the sign of the second derivative. '.repeat(4);
  const judges = Array.from({ length: 5 }, (_, i) => ({
    judge: `model_graded_qa/${i + 1}`,
    score: i % 2,
    label: i % 2 ? 'C' : 'I',
    explanation: explanation(i),
  }));
  const components = Object.fromEntries(
    Array.from({ length: 9 }, (_, i) => [`test:tests/test_hoop.py::test_case_${i + 1}`, i % 3 ? 1 : 0]),
  );
  const answer = Array.from(
    { length: 6 },
    (_, i) => `Case ${i + 1}: the equilibrium sits at $\\cos\\theta = g/(\\Omega^2 R)$ when $\\Omega^2 R > g$.`,
  ).join('\n\n');
  /** a one-step Inspect run with this verifier, these judges and this submission */
  const scored = (extra: Parameters<typeof buildTrajectory>[0]['extra']) =>
    buildTrajectory({
      format: 'inspect',
      task: { name: 'hoop', instruction: 'Find the equilibria.' },
      steps: [{ source: 'agent', text: 'Done.' }],
      extra,
    });
  const run = scored({ verifier: { reward: 0.67, components }, judgeScores: judges, submission: answer });

  it('shows every component, every judge whole and the whole answer, over pages, in order, nothing "+ N more"', () => {
    const p = trajectoryVideoProps(run, { pacing: 'read' });
    const pages = closingPages(p.outcome);
    expect(pages.length).toBeGreaterThan(2);
    // pages tile the components and the judges
    expect(pages[0]!.components[0]).toBe(0);
    expect(pages[0]!.judges[0]).toBe(0);
    pages.slice(1).forEach((page, k) => {
      expect(page.components[0]).toBe(pages[k]!.components[1]);
      expect(page.judges[0]).toBe(pages[k]!.judges[1]);
    });
    expect(pages.at(-1)!.components[1]).toBe(9);
    expect(pages.at(-1)!.judges[1]).toBe(5);
    // the explanations are carried whole (they were cut at 220 characters)
    expect(p.outcome.judges.map((j) => j.explanation)).toEqual(judges.map((j) => j.explanation));
    // the answer in pages of its own when long, all of it
    expect(pages.flatMap((page) => (page.answer ? [richTextSource(page.answer)] : [])).join('')).toBe(richTextSource(p.outcome.answer!));
    // these long explanations go across the card, one to a row, a page holding what fits
    for (const page of pages) {
      expect(page.judgeRows.flat()).toEqual(Array.from({ length: page.judges[1] - page.judges[0] }, (_, k) => page.judges[0] + k));
      for (const row of page.judgeRows) expect(row).toHaveLength(1);
    }
  });

  it('sets two judges with short explanations side by side', () => {
    const short = scored({
      judgeScores: [
        { judge: 'match', score: 1, label: 'C', explanation: 'ANSWER line contains both regimes.' },
        { judge: 'model_graded_qa', score: 1, label: 'C', explanation: 'GRADE: C. Correct Lagrangian and equilibria.' },
        { judge: 'model_graded_fact', score: 0, label: 'I', explanation: 'Misses the bifurcation at $\\Omega^2 = g/R$.' },
      ],
    });
    const pages = closingPages(trajectoryVideoProps(short, { pacing: 'read' }).outcome);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.judgeRows).toEqual([[0, 1], [2]]);
  });

  it('holds each page for its reading under read pacing (at most 12 s a page), and shows them in turn', () => {
    const p = trajectoryVideoProps(run, { pacing: 'read' });
    const scene = p.scenes.find((s) => s.kind === 'closing')!;
    const pages = closingPages(p.outcome);
    const holds = closingHolds(pages, true, true);
    expect(holds[0]).toBeGreaterThanOrEqual(CLOSING_SECONDS + 1);
    for (const h of holds) expect(h).toBeLessThanOrEqual(STILL_MAX_SECONDS);
    for (const h of holds.slice(1)) expect(h).toBeGreaterThanOrEqual(READING.cardMinSeconds);
    expect(scene.duration).toBe(Math.round(holds.reduce((a, b) => a + b, 0) * p.fps));
    const seen = Array.from({ length: scene.duration }, (_, i) => shareAt(holds, scene.from + i, scene.from, scene.duration).index);
    expect([...new Set(seen)]).toEqual(pages.map((_, k) => k));
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // each page starts where the one before ends
    const starts = pages.map((_, k) => scene.from + seen.indexOf(k));
    pages.forEach((_, k) => expect(shareAt(holds, starts[k]!, scene.from, scene.duration).from).toBe(starts[k]));
    // skim: the first page its few seconds, each further page 2.5 s
    const skim = closingHolds(pages, false, true);
    expect(skim).toEqual([CLOSING_SECONDS + 1, ...pages.slice(1).map(() => 2.5)]);
  });

  it('keeps a small outcome on one page, held as before', () => {
    const small = scored({
      verifier: { reward: 1, components: { accuracy: 1 } },
      judgeScores: [{ judge: 'j', score: 1, label: 'C', explanation: 'Correct.' }],
    });
    const p = trajectoryVideoProps(small, { pacing: 'skim' });
    expect(closingPages(p.outcome)).toHaveLength(1);
    expect(p.scenes.find((s) => s.kind === 'closing')!.duration).toBe(Math.round((CLOSING_SECONDS + 1) * p.fps));
  });
});
