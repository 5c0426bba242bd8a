import { describe, expect, it } from 'vitest';
import { chatRun } from '../../lib/formats/build-trajectory';
import { sceneAt } from '../../lib/video/chapters';
import { trajectoryVideoProps } from '../../lib/video/props';
import { heldFrameAt } from './held-frame';

const props = trajectoryVideoProps(
  chatRun('harbor', { name: 'held', instruction: 'Derive $x(t)$.' }, 'm', [
    { source: 'user', text: 'Derive $x(t)$.' },
    { source: 'agent', text: 'Newton: $$m\\ddot x = -kx$$ so $$x(t) = A\\cos(\\omega t)$$' },
  ]),
);

describe('heldFrameAt', () => {
  it("holds every frame of a scene at that scene's last frame", () => {
    expect(props.scenes.length).toBeGreaterThan(2);
    for (const scene of props.scenes) {
      const last = scene.from + scene.duration - 1;
      for (const frame of [scene.from, scene.from + Math.floor(scene.duration / 2), last]) {
        expect(heldFrameAt(props.scenes, frame)).toBe(last);
        expect(sceneAt(props.scenes, last)).toBe(scene);
      }
    }
  });
});
