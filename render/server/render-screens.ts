/**
 * Renders stills of the showcase trajectory to test-results/screens/video-*.png, one per kind of
 * scene, for looking at the video frame by frame:
 *   node --import tsx render/server/render-screens.ts
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { trajectoryVideoProps } from '../../lib/video/props';
import type { Scene } from '../../lib/video/schema';
import { renderTrajectoryStills } from './render-video';
import { showcaseTrajectory } from './showcase';

const out = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'screens');
mkdirSync(out, { recursive: true });
const props = trajectoryVideoProps(showcaseTrajectory());
const find = (pred: (s: Scene) => boolean) => {
  const s = props.scenes.find(pred);
  if (!s) throw new Error('scene not found');
  return s;
};
const step = (i: number) => find((s) => s.kind === 'step' && s.cards.some((c) => c.card.index === i));
const terminal = find((s) => s.kind === 'terminal');
const idleScene = find((s) => s.kind === 'terminal' && s.pieces.some((p) => p.idle));
const idle = idleScene.kind === 'terminal' ? idleScene.pieces.find((p) => p.idle)! : null;
const diff = find((s) => s.kind === 'diff');
const closing = find((s) => s.kind === 'closing');
const shots = [
  { name: 'title', frame: 60 },
  { name: 'steps-grouped', frame: step(1).from + step(1).duration - 5 },
  { name: 'step', frame: step(2).from + step(2).duration - 5 },
  { name: 'terminal', frame: terminal.from + terminal.duration - 2 },
  { name: 'idle', frame: idle!.from + Math.floor(idle!.duration / 2) },
  { name: 'maths', frame: step(3).from + step(3).duration - 5 },
  { name: 'diff', frame: diff.from + diff.duration - 5 },
  { name: 'summary', frame: step(4).from + step(4).duration - 5 },
  { name: 'closing', frame: closing.from + closing.duration - 5 },
];
const t0 = performance.now();
await renderTrajectoryStills(
  props,
  shots.map((s) => ({ frame: s.frame, outPath: path.join(out, `video-${s.name}.png`) })),
);
console.log(
  `${shots.length} stills in ${((performance.now() - t0) / 1000).toFixed(1)} s (video ${(props.durationInFrames / props.fps).toFixed(1)} s) -> ${out}`,
);
