import React from 'react';
import { AbsoluteFill, useCurrentFrame } from 'remotion';
import { sceneAt } from '../../../lib/video/chapters';
import { ensureFonts } from './fonts';
import './video.css';
import type { Scene, TrajectoryVideoProps } from './schema';
import { Checklist, CriterionNote, ProgressRail, TopBar, withSidebar } from './scenes/chrome';
import { ClosingCard } from './scenes/closing-card';
import { DerivationView } from './scenes/derivation-view';
import { DiffView } from './scenes/diff-view';
import { ResultCard } from './scenes/result-card';
import { StepView } from './scenes/step-view';
import { TerminalView } from './scenes/terminal-view';
import { TitleCard } from './scenes/title-card';
import { layout, theme } from './theme';

ensureFonts();

/**
 * The proof-of-work video. Every pixel is a pure function of the props and the frame: the scene
 * showing is looked up by frame (scenes tile the timeline), nothing reads the clock, fetches or
 * draws random numbers, so frames render in any order and in parallel.
 */
export const TrajectoryVideo: React.FC<TrajectoryVideoProps> = (props) => {
  const frame = useCurrentFrame();
  const scene = sceneAt(props.scenes, frame);
  // the criteria are read whole beside the title and the closing card; elsewhere the scene has the width
  const sidebar = withSidebar(scene);
  const mainW = props.width - (sidebar ? layout.sidebar : 0) - layout.pad * 2;
  const mainH = props.height - layout.topBar - layout.rail - layout.pad * 2;
  return (
    <AbsoluteFill
      className="wd-video"
      style={{ background: theme.bg, fontFamily: theme.sans, color: theme.text, fontVariantLigatures: 'none' }}
    >
      <TopBar props={props} frame={frame} scene={scene} />
      <div
        style={{
          position: 'absolute',
          left: layout.pad,
          top: layout.topBar + layout.pad,
          width: mainW,
          height: mainH,
          overflow: 'hidden',
          // its own layout and paint scope: a change inside (a fade, the pen of a plot) does not
          // lay out or repaint the chrome around it, nor the other way round; not a compositor layer
          contain: 'strict',
          // no willChange/compositor layer here: with one, two renders of the same frames were not
          // byte-identical (render/server/render-video.test.ts), for a few ms of CPU a frame
        }}
      >
        <SceneView props={props} scene={scene} frame={frame} width={mainW} height={mainH} />
      </div>
      {sidebar ? <Checklist props={props} frame={frame} /> : <CriterionNote props={props} frame={frame} />}
      <ProgressRail props={props} frame={frame} />
    </AbsoluteFill>
  );
};

const SceneView: React.FC<{ props: TrajectoryVideoProps; scene: Scene; frame: number; width: number; height: number }> = ({
  props,
  scene,
  frame,
  width,
  height,
}) => {
  switch (scene.kind) {
    case 'title':
      return <TitleCard props={props} scene={scene} frame={frame} />;
    case 'step':
      return <StepView scene={scene} frame={frame} />;
    case 'terminal':
      return <TerminalView props={props} scene={scene} frame={frame} width={width} height={height} />;
    case 'diff':
      return <DiffView scene={scene} frame={frame} />;
    case 'derivation':
      return <DerivationView scene={scene} frame={frame} />;
    case 'result':
      return <ResultCard scene={scene} frame={frame} width={width} height={height} />;
    case 'closing':
      return <ClosingCard props={props} scene={scene} frame={frame} />;
  }
};
