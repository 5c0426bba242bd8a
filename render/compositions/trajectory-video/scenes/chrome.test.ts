import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { chatRun } from '../../../../lib/formats/build-trajectory';
import type { Step } from '../../../../lib/formats/trajectory';
import { mergeVideoParts } from '../../../../lib/video/merge-video-parts';
import { splitVideoProps } from '../../../../lib/video/video-pieces';
import { trajectoryVideoProps } from '../../../../lib/video/props';
import { actorColor, layout } from '../theme';
import { Checklist, criteriaPages, CRITERION_FONT_PX, ProgressRail, withSidebar } from './chrome';

const props = trajectoryVideoProps(
  chatRun('harbor', { name: 'rail', instruction: 'Fix the build.' }, 'm', [
    { source: 'user', text: 'Fix the build.' },
    ...Array.from({ length: 12 }, (_, i): Partial<Step> & Pick<Step, 'source' | 'text'> => ({
      source: i % 3 === 2 ? 'tool' : 'agent',
      text: `Step ${i + 1}: ${'a long message '.repeat(20)}`,
    })),
  ]),
);
const rail = (p: typeof props, frame: number) => renderToStaticMarkup(createElement(ProgressRail, { props: p, frame }));
/** the bars' colours in order (each bar spans the rail's height: top 0, bottom 0) */
const barColors = (html: string) => [...html.matchAll(/top:0;bottom:0;background:(#[0-9a-f]{6})/g)].map((m) => m[1]);

describe('ProgressRail', () => {
  it("colours each chapter's bar by its step's actor", () => {
    const colors = barColors(rail(props, 0));
    expect(colors).toHaveLength(props.chapters.length);
    expect(colors[0]).toBe(actorColor.user);
    expect(colors[1]).toBe(actorColor.agent);
    expect(colors[3]).toBe(actorColor.tool);
  });

  it("draws the same rail from a video's head (stub step cards) as from its whole props, so a part arriving does not change it", () => {
    const { head, parts } = splitVideoProps(props, 'rev', 2 * 1024);
    expect(parts.length).toBeGreaterThan(1);
    for (const frame of [0, Math.floor(props.durationInFrames / 2), props.durationInFrames - 1]) {
      expect(rail(head.props, frame)).toBe(rail(props, frame));
      expect(rail(mergeVideoParts(head, parts.slice(0, 1)), frame)).toBe(rail(props, frame));
    }
  });
});

describe('Checklist', () => {
  // the rotating-hoop task's criteria as its dataset writes them (prisma/seed/demo/physics-derivations/bead-on-rotating-hoop_*.json)
  const hoop = [
    'Writes the Lagrangian L = ½mR²(θ̇² + Ω² sin²θ) + mgR cos θ',
    'Finds the equilibria θ = 0 and cos θ₀ = g/(RΩ²), the latter existing only for Ω² > g/R',
    'Linearises about the stable equilibrium in each regime',
    'ω = √(g/R − Ω²) for Ω² < g/R, and ω = Ω sin θ₀ = √(Ω² − g²/(R²Ω²)) for Ω² > g/R',
  ];
  const withCriteria = (texts: string[]) =>
    trajectoryVideoProps(chatRun('inspect', { name: 'hoop', instruction: 'Derive it.' }, 'm', [{ source: 'agent', text: 'Done.' }]), {
      criteria: texts.map((text, i) => ({ key: `c${i}`, text, origin: 'task' as const, verdict: null })),
    });
  const checklist = (p: typeof props) => renderToStaticMarkup(createElement(Checklist, { props: p, frame: 0 }));

  it('typesets criteria written in Unicode maths like LaTeX ones, whole and at a size a review player shows at 12 px or more', () => {
    const html = checklist(withCriteria(hoop));
    for (let i = 0; i < hoop.length; i++) expect(html).toContain(`data-criterion="c${i}"`);
    // the maths is KaTeX (ω, Ω, θ₀ in the maths font), the prose stays prose
    expect((html.match(/class="katex"/g) ?? []).length).toBeGreaterThanOrEqual(7);
    expect(html).toContain('Linearises about the stable equilibrium in each regime');
    // never clamped or cut with "…"
    expect(html).not.toMatch(/line-clamp|…/);
    // 22 px in a 1280 px frame: 12 px in the review page's 718 px player (beside its transcript at 1440x900)
    expect(CRITERION_FONT_PX * (718 / 1280)).toBeGreaterThanOrEqual(12);
    expect(html).toContain(`font-size:${CRITERION_FONT_PX}px`);
    // the sidebar stands beside the title and the closing card only: every other scene has the frame's width
    expect(withSidebar({ kind: 'title', from: 0, duration: 1 })).toBe(true);
    expect(props.scenes.filter((s) => withSidebar(s)).map((s) => s.kind)).toEqual(['title', 'closing']);
    expect(layout.scene.width).toBe(1280 - 2 * layout.pad);
  });

  it('pages criteria that do not fit, each page whole, every criterion on one', () => {
    const many = Array.from({ length: 12 }, (_, i) => `${hoop[i % 4]!} (${i + 1})`);
    const pages = criteriaPages(many, 540);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flat()).toEqual(many.map((_, i) => i));
    expect(criteriaPages(hoop, 540)).toEqual([[0, 1, 2, 3]]);
    // criteria in LaTeX are measured by what they draw, not by their TeX source (the damped-spring task's, same seed folder)
    const spring = [
      'Writes $m\\ddot x + b\\dot x + kx = 0$ and the characteristic equation',
      'Shows the damping is light: $b^2 < 4mk$',
      'Applies both initial conditions: $A = x_0$, $B = \\gamma x_0/\\omega_d$',
      '$x(t) = x_0 e^{-\\gamma t}(\\cos\\omega_d t + \\frac{\\gamma}{\\omega_d}\\sin\\omega_d t)$ with $\\gamma = b/2m$, $\\omega_d = \\sqrt{k/m-\\gamma^2}$',
    ];
    expect(criteriaPages(spring, 540)).toHaveLength(1);
  });
});
