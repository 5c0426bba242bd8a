import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../../../../lib/formats/build-trajectory';
import { MOVE_FRAMES } from '../../../../lib/video/equation-morph';
import { trajectoryVideoProps } from '../../../../lib/video/props';
import type { DerivationScene } from '../schema';
import { DerivationView } from './derivation-view';

/* Issue 43 §3: derivation equations drawn as MathJax's SVG glyphs, moving line to line; KaTeX for an
   equation MathJax cannot typeset (`\cancel` is KaTeX's, not among the MathJax packages loaded). */
const derivation = (second: string) =>
  buildTrajectory({
    format: 'inspect',
    task: { name: 'spring', instruction: 'Solve the damped spring.' },
    policy: { model: 'm' },
    steps: [
      { source: 'user', text: 'Solve the damped spring.' },
      {
        source: 'agent',
        text: `Newton's law for the mass:\n\n$$m\\ddot x + b\\dot x + kx = 0$$\n\nso that\n\n$$${second}$$\n\nwhich we solve next.`,
      },
    ],
  });
const sceneOf = (second: string) =>
  trajectoryVideoProps(derivation(second), { pacing: 'read' }).scenes.find((s): s is DerivationScene => s.kind === 'derivation')!;
const html = (scene: DerivationScene, frame: number) => renderToStaticMarkup(createElement(DerivationView, { scene, frame }));

describe('a derivation scene in the video', () => {
  it('draws its equations as SVG glyph paths from the props, the same on every render of a frame', () => {
    const scene = sceneOf('m\\ddot x = -b\\dot x - kx');
    expect(scene.glyphs!.length).toBeGreaterThan(5);
    const beat = scene.beats.find((b) => b.previous && b.equation)!;
    expect(beat.equation!.svg).toBeTruthy();
    const mid = beat.from + 10 + MOVE_FRAMES / 2;
    const out = html(scene, mid);
    expect(out).toContain('class="wd-eq-glyphs"');
    expect(out).toContain('class="wd-eq-prev-glyphs"');
    expect(out).not.toContain('class="katex"');
    expect(out).toMatch(/<path d="M[^"]+" transform="matrix\(/);
    expect(html(scene, mid)).toBe(out);
    // mid-motion differs from the rest
    expect(html(scene, beat.from + beat.duration - 1)).not.toBe(out);
  });

  it('falls back to KaTeX for an equation MathJax cannot typeset', () => {
    const scene = sceneOf('m\\ddot x = -\\cancel{b\\dot x} - kx');
    const beat = scene.beats.find((b) => b.previous && b.equation)!;
    expect(beat.equation!.svg).toBeNull();
    expect(beat.previous!.svg).toBeTruthy();
    const out = html(scene, beat.from + 10 + MOVE_FRAMES / 2);
    expect(out).toContain('class="katex"');
    expect(out).not.toContain('class="wd-eq-glyphs"');
  });
});
