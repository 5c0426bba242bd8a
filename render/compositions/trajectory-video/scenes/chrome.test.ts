import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { chatRun } from '../../../../lib/formats/build-trajectory';
import type { Step } from '../../../../lib/formats/trajectory';
import { mergeVideoParts } from '../../../../lib/video/merge-video-parts';
import { splitVideoProps } from '../../../../lib/video/video-pieces';
import { trajectoryVideoProps } from '../../../../lib/video/props';
import { actorColor } from '../theme';
import { ProgressRail } from './chrome';

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
