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

/** Layout: a top bar, the criteria sidebar on the right, the progress rail at the bottom. */
export const layout = {
  topBar: 56,
  rail: 52,
  /** the criteria sidebar: 300 px of 1280 (it was 330 at 13.5 px text; now 18 px, never clamped) */
  sidebar: 300,
  pad: 28,
} as const;
