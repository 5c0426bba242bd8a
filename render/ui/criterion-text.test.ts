import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CriterionText } from './criterion-text';

/* Issue 43 §3: criteria written in Unicode maths are typeset like LaTeX ones, on the page as in the video. */
describe('CriterionText', () => {
  it('typesets a criterion written in Unicode maths, and a TeX one, the same way', () => {
    const unicode = renderToStaticMarkup(createElement(CriterionText, { text: 'Finds ω₀ = √(g/R) for the bottom equilibrium' }));
    const tex = renderToStaticMarkup(createElement(CriterionText, { text: 'Finds $\\omega_0 = \\sqrt{g/R}$ for the bottom equilibrium' }));
    for (const html of [unicode, tex]) {
      expect(html).toContain('class="katex"');
      expect(html).toContain('Finds');
    }
    expect(renderToStaticMarkup(createElement(CriterionText, { text: 'Tests pass' }))).not.toContain('katex');
  });
});
