import React from 'react';
import type { TitleScene, TrajectoryVideoProps } from '../schema';
import { theme, type } from '../theme';
import { LINE, shareAt, titlePages } from '../../../../lib/video/card-pages';
import { formatSeconds, Pill, RichTextView } from './common';

/**
 * The title card. It does not fade in: frame 0 is the poster (what the Player shows before play
 * and what an MP4 shows before it plays), so it is the whole card from the first frame.
 */
export const TitleCard: React.FC<{ props: TrajectoryVideoProps; scene: TitleScene; frame: number }> = ({ props, scene, frame }) => {
  const h = props.header;
  // the instruction in pages that fit under the name, each its share of the card's time (lib/video/card-pages.ts)
  let pages = pagesOf.get(props.header);
  if (!pages) {
    pages = titlePages(h.task, h.instruction);
    pagesOf.set(props.header, pages);
  }
  const k = shareAt(
    pages.map(() => 1),
    frame,
    scene.from,
    scene.duration,
  ).index;
  const facts: Array<[string, string]> = [
    ['Environment', h.environment ?? '—'],
    ['Policy', h.policy ?? '—'],
    ['Agent', h.agent ?? '—'],
    ['Steps', String(h.stepCount)],
    ['Run time', h.realDurationSeconds !== null ? formatSeconds(h.realDurationSeconds) : '—'],
    ['Source', h.format],
  ];
  return (
    <div
      style={{
        display: 'flex',
        flexDirection: 'column',
        gap: 18,
        height: '100%',
        justifyContent: 'center',
      }}
    >
      <div style={{ fontSize: type.min, letterSpacing: 2, textTransform: 'uppercase', color: theme.accent, fontWeight: 700 }}>
        Task
        {h.externalId ? (
          <span style={{ fontFamily: theme.mono, letterSpacing: 0, textTransform: 'none', color: theme.faint, fontWeight: 400 }}>
            {' '}
            · {h.externalId}
          </span>
        ) : null}
      </div>
      <div style={{ fontSize: type.title, fontWeight: 700, lineHeight: 1.1, color: theme.text, overflowWrap: 'anywhere' }}>{h.task}</div>
      {pages.length > 0 ? (
        <div data-title-page={`${k + 1}/${pages.length}`} style={{ borderLeft: `3px solid ${theme.accent}`, padding: '6px 0 6px 16px' }}>
          <RichTextView text={pages[k]!} style={{ fontSize: type.body, lineHeight: LINE.prose, color: theme.text }} />
          {pages.length > 1 || h.instructionOmittedChars > 0 ? (
            <div style={{ fontSize: type.min, color: theme.faint, marginTop: 6 }}>
              {pages.length > 1 ? `page ${k + 1} of ${pages.length}` : ''}
              {h.instructionOmittedChars > 0 && k === pages.length - 1
                ? `${pages.length > 1 ? ' · ' : ''}the rest of the instruction is in the task panel`
                : ''}
            </div>
          ) : null}
        </div>
      ) : null}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 10 }}>
        {facts.map(([label, value]) => (
          <Pill key={label} label={label} value={value} />
        ))}
      </div>
    </div>
  );
};

/** The instruction's pages, once per header (the same object on every frame). */
const pagesOf = new WeakMap<TrajectoryVideoProps['header'], ReturnType<typeof titlePages>>();
