import { SCENE_ROOM, SIDEBAR_PX, VIDEO_FRAME, VIDEO_TYPE } from '../../../lib/video/card-pages';

/** Colours, fonts and layout of the proof-of-work video (1280x720 base). */
export const theme = {
  bg: '#0d1014',
  panel: '#151920',
  panelRaised: '#1b2029',
  border: '#262d39',
  text: '#e8ebf1',
  muted: '#8d96a8',
  faint: '#5b6577',
  accent: '#6ea8ff',
  pass: '#3fb950',
  fail: '#f85149',
  warn: '#d29922',
  sans: "'Witness Inter', 'Inter', 'DejaVu Sans', sans-serif",
  mono: "'Witness Mono', 'JetBrains Mono', 'DejaVu Sans Mono', monospace",
} as const;

/** The terminal colours used when a cell has the default foreground / background. */
export const TERMINAL_DEFAULT_FG = '#d4d7dd';
export const TERMINAL_DEFAULT_BG = '#14161b';

export const actorColor: Record<string, string> = {
  agent: '#6ea8ff',
  user: '#3fb950',
  system: '#8d96a8',
  tool: '#d29922',
  environment: '#c297ff',
  hook: '#e879f9',
};

/**
 * The type scale (px of the 1280x720 composition; defined with the page planner in
 * lib/video/card-pages.ts, which lays cards out by the same sizes). `min` 22 is 12.3 px on screen
 * in the review page's 718 px player: no text in the video is smaller.
 */
export const type = VIDEO_TYPE;

/** A size from the scale's floor up: any text size a scene draws goes through this. */
export const size = (px: number): number => Math.max(VIDEO_TYPE.min, px);

/**
 * Layout: a top bar, the progress rail at the bottom, the scene between. The criteria sidebar
 * shows beside the title card and the closing card (where a reviewer reads them whole); between,
 * a criterion that changes shows as a note over the scene's corner, and the top bar counts them.
 */
export const layout = {
  topBar: VIDEO_FRAME.topBar,
  rail: VIDEO_FRAME.rail,
  /** the criteria sidebar, beside the title and closing cards */
  sidebar: SIDEBAR_PX,
  pad: VIDEO_FRAME.pad,
  /** the scene's room without the sidebar */
  scene: SCENE_ROOM,
} as const;
