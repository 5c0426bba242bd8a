import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { makeStep } from '@/lib/formats/chat-messages';
import type { TrajectoryStep } from '@/lib/trajectories/queries/trajectory-queries';
import { PAGE_TEXT_MAX_CHARS, Transcript } from './transcript';

/* Issue 39, row 5: the trajectory page caps what it embeds of a step's text (a 50 MB step sent 50 MB of HTML). */

const fifty = 'x'.repeat(50 * 1024 * 1024);

function step(over: Partial<TrajectoryStep>): TrajectoryStep {
  return { index: 0, ...makeStep('agent'), ...over };
}

describe('Transcript on the trajectory page (issue 39, row 5)', () => {
  it('embeds at most PAGE_TEXT_MAX_CHARS of each of a step’s texts and says how much it left out', () => {
    const html = renderToStaticMarkup(
      createElement(Transcript, {
        steps: [
          step({
            text: fifty,
            reasoning: fifty,
            toolCalls: [{ id: 'c', name: 'bash', arguments: { command: fifty } }],
            observations: [{ toolCallId: 'c', content: fifty, isError: false }],
          }),
        ],
      }),
    );
    // four texts of 50 MB each: at most four caps and the markup around them
    expect(html.length).toBeLessThan(4 * PAGE_TEXT_MAX_CHARS + 50_000);
    expect(html).toContain('52,328,800 more characters not shown here: the whole step is in the Source tab');
  });

  it('embeds a text under the cap whole', () => {
    const text = 'y'.repeat(PAGE_TEXT_MAX_CHARS);
    const html = renderToStaticMarkup(createElement(Transcript, { steps: [step({ reasoning: text })] }));
    expect(html.length).toBeGreaterThan(PAGE_TEXT_MAX_CHARS); // the whole reasoning is in the page
    expect(html).not.toContain('more characters not shown');
  });
});

describe('Transcript tool calls as code (issue 43 §3)', () => {
  it('shows a python call’s source with line numbers and highlighting, not escaped JSON', () => {
    const source = 'import numpy as np\nomega = np.sqrt(9.81 / 0.5)\nprint(omega)';
    const html = renderToStaticMarkup(
      createElement(Transcript, { steps: [step({ toolCalls: [{ id: 'c', name: 'python', arguments: { code: source } }] })] }),
    );
    expect(html).toContain('data-testid="tool-call-code"');
    expect(html).toContain('data-language="python"');
    expect(html).not.toContain('\\n'); // no escaped line breaks
    expect(html).toMatch(/>3<\/span>/); // the third line's number
    expect(html).toMatch(/<span style="color:#ff7b72">import<\/span>/); // a highlighted keyword
  });
});
