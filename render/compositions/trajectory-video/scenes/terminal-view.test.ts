import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { everyChapterRun } from '../../../../e2e/fixtures/every-chapter';
import { trajectoryVideoProps } from '../../../../lib/video/props';
import type { TerminalScene } from '../schema';
import { layout, type } from '../theme';
import { TerminalView, wrapRuns } from './terminal-view';

/* Issue 43 §2: the terminal replay is drawn at the type scale's code size, never shrunk to fit a
   wide screen: long lines wrap, and a tall screen shows the rows at the cursor. */

describe('the terminal replay', () => {
  it('wraps a line at the columns that fit, keeping its styles, dropping trailing blanks', () => {
    expect(
      wrapRuns(
        [
          ['abcdef', 0],
          ['ghij', 1],
          ['    ', 0],
        ],
        4,
      ),
    ).toEqual([
      [['abcd', 0]],
      [
        ['ef', 0],
        ['gh', 1],
      ],
      [['ij', 1]],
    ]);
    expect(wrapRuns([], 10)).toEqual([[]]);
  });

  it('draws a 120-column recording at the code size, its long lines whole over rows', () => {
    const props = trajectoryVideoProps(everyChapterRun('hoop', 'm'), { pacing: 'read' });
    const scene = props.scenes.find((s): s is TerminalScene => s.kind === 'terminal')!;
    const html = renderToStaticMarkup(
      createElement(TerminalView, {
        props,
        scene,
        frame: scene.from + scene.duration - 1,
        width: layout.scene.width,
        height: layout.scene.height,
      }),
    );
    expect(html).toContain(`font-size:${type.code}px`);
    // the last line of output, longer than the columns that fit, is drawn whole (over two rows)
    expect(html).toContain('rad/s  regime=above');
    expect(html.replace(/<[^>]+>/g, '')).toContain('the critical rate');
    expect(html).toMatch(/rows \d+–\d+ of \d+/);
  });
});
