import React from 'react';
import type { TitleScene, TrajectoryVideoProps } from '../schema';
import { theme } from '../theme';
import { formatSeconds, Pill, RichTextView } from './common';

/**
 * The title card. It does not fade in: frame 0 is the poster (what the Player shows before play
 * and what an MP4 shows before it plays), so it is the whole card from the first frame.
 */
export const TitleCard: React.FC<{ props: TrajectoryVideoProps; scene: TitleScene; frame: number }> = ({ props }) => {
  const h = props.header;
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
        gap: 22,
        height: '100%',
        justifyContent: 'center',
      }}
    >
      <div style={{ fontSize: 13, letterSpacing: 2, textTransform: 'uppercase', color: theme.accent, fontWeight: 700 }}>Task</div>
      <div style={{ fontSize: 40, fontWeight: 700, lineHeight: 1.1, color: theme.text, overflowWrap: 'anywhere' }}>{h.task}</div>
      {h.externalId ? <div style={{ fontFamily: theme.mono, fontSize: 13, color: theme.faint, marginTop: -12 }}>{h.externalId}</div> : null}
      {h.instruction.length > 0 ? (
        <div
          style={{
            borderLeft: `3px solid ${theme.accent}`,
            padding: '6px 0 6px 16px',
            maxHeight: props.pacing === 'read' ? 300 : 210,
            overflow: 'hidden',
          }}
        >
          <RichTextView
            text={h.instruction}
            style={{ fontSize: props.pacing === 'read' && h.instruction.length > 12 ? 17 : 19, lineHeight: 1.5, color: theme.text }}
          />
          {h.instructionOmittedChars > 0 ? (
            <div style={{ fontSize: 12, color: theme.faint, marginTop: 6 }}>… instruction continues</div>
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
