import { z } from 'zod';
import { sceneSchema, terminalRunSchema, trajectoryVideoSchema, type Scene, type StepCard, type TrajectoryVideoProps } from './schema';

/**
 * A video's props split for the browser: a small head the Player starts from, and parts it loads
 * as the playhead needs them. Pure (no database, no React): the store keeps the split
 * (lib/video/queries/video-props.ts), the routes serve it, the Player merges it back
 * (merge-video-parts.ts, which needs no schema at run time).
 *
 * The bulk of a long run's props is its terminal replay (a 1,000-step run with a 10 MB cast:
 * 9 MB of screen snapshots and 8.6 MB of screen lines, of 18.9 MB) and its step cards. The head
 * is the whole props with every step, terminal, diff and derivation scene replaced by a stub (the
 * same frames, the card's step, source and actor, an empty screen, no hunks, no equations) and no
 * terminal lines: it draws the title card (frame 0, the poster), the chapters, the criteria, the
 * progress rail, the result and the closing card. Each part holds consecutive scenes of those
 * kinds whole, plus every terminal line their screens show. A part never starts at a terminal
 * scene, so a replay's step card arrives with it. (A derivation carries its equations' SVG glyphs:
 * a maths run's head would otherwise be most of its props.)
 */

/** raw JSON bytes a part aims at (one part is a few hundred ms of a slow link, a few ms of JSON.parse) */
export const PART_TARGET_BYTES = 256 * 1024;

export const videoPartRefSchema = z.object({
  part: z.number().int().positive(),
  /** first frame of its first scene (inclusive) */
  fromFrame: z.number().int().nonnegative(),
  /** end of its last scene (exclusive) */
  toFrame: z.number().int().positive(),
  bytes: z.number().int().nonnegative(),
});
export type VideoPartRef = z.infer<typeof videoPartRefSchema>;

export const videoHeadSchema = z.object({
  /** the props with stub scenes (see above); valid props the composition draws */
  props: trajectoryVideoSchema,
  /** what the parts were split from: a part is asked for with it, and a part of another split is refused */
  rev: z.string().min(1),
  parts: z.array(videoPartRefSchema),
  /** how many lines the terminal table has (the head carries none) */
  terminalLines: z.number().int().nonnegative(),
});
export type VideoHead = z.infer<typeof videoHeadSchema>;

export const videoPartSchema = z.object({
  part: z.number().int().positive(),
  rev: z.string().min(1),
  /** [index into props.scenes, the scene whole] */
  scenes: z.array(z.tuple([z.number().int().nonnegative(), sceneSchema])),
  /** [index into props.terminal.lines, the line's runs] */
  lines: z.array(z.tuple([z.number().int().nonnegative(), z.array(terminalRunSchema)])),
});
export type VideoPart = z.infer<typeof videoPartSchema>;

/** the scenes that come in parts: a step's content, its terminal replay, its diffs and its derivation (with its equations' glyphs) */
export const PART_SCENE_KINDS: ReadonlySet<Scene['kind']> = new Set(['step', 'terminal', 'diff', 'derivation']);

const heavy = (s: Scene): boolean => PART_SCENE_KINDS.has(s.kind);

/** a card's step, source and actor, nothing to read */
function stubCard(card: StepCard): StepCard {
  return {
    index: card.index,
    source: card.source,
    actor: card.actor,
    message: [],
    messageOmittedChars: 0,
    reasoning: null,
    toolCalls: [],
    observations: [],
    timestamp: card.timestamp,
    realSeconds: card.realSeconds,
  };
}

function stub(scene: Scene): Scene {
  if (scene.kind === 'step') return { ...scene, cards: scene.cards.map((c) => ({ ...c, card: stubCard(c.card) })) };
  if (scene.kind === 'derivation')
    return {
      ...scene,
      card: stubCard(scene.card),
      beats: [{ from: scene.from, duration: scene.duration, prose: [], equation: null, previous: null }],
      glyphs: [],
    };
  if (scene.kind === 'diff') return { ...scene, files: scene.files.slice(0, 1).map((f) => ({ ...f, hunks: [] })), omittedFiles: 0 };
  if (scene.kind === 'terminal') {
    const first = scene.snapshots[0]!;
    return { ...scene, snapshots: [{ frame: scene.from, cols: first.cols, rows: first.rows, lines: [], cursor: null, t: first.t }] };
  }
  return scene;
}

/** Splits props into a head and parts of about `targetBytes` each; `rev` names this split (the stored row's inputs). */
export function splitVideoProps(
  props: TrajectoryVideoProps,
  rev: string,
  targetBytes = PART_TARGET_BYTES,
): { head: VideoHead; parts: VideoPart[] } {
  const lines = props.terminal?.lines ?? [];
  const parts: VideoPart[] = [];
  const refs: VideoPartRef[] = [];
  let current: { scenes: Array<[number, Scene]>; lines: Map<number, VideoPart['lines'][number][1]>; bytes: number } | null = null;
  const close = () => {
    if (!current) return;
    const part = parts.length + 1;
    const first = current.scenes[0]![1];
    const last = current.scenes[current.scenes.length - 1]![1];
    parts.push({ part, rev, scenes: current.scenes, lines: [...current.lines] });
    refs.push({ part, fromFrame: first.from, toFrame: last.from + last.duration, bytes: current.bytes });
    current = null;
  };
  props.scenes.forEach((scene, index) => {
    if (!heavy(scene)) {
      // a light scene stays in the head; the part goes on past it unless it is full
      if (current && current.bytes >= targetBytes) close();
      return;
    }
    if (current && current.bytes >= targetBytes && scene.kind !== 'terminal') close();
    current ??= { scenes: [], lines: new Map(), bytes: 0 };
    current.scenes.push([index, scene]);
    current.bytes += JSON.stringify(scene).length;
    if (scene.kind === 'terminal')
      for (const snap of scene.snapshots)
        for (const li of snap.lines)
          if (!current.lines.has(li) && lines[li]) {
            current.lines.set(li, lines[li]);
            current.bytes += JSON.stringify(lines[li]).length + 8;
          }
  });
  close();
  const head: VideoHead = {
    props: { ...props, scenes: props.scenes.map(stub), terminal: props.terminal ? { styles: props.terminal.styles, lines: [] } : null },
    rev,
    parts: refs,
    terminalLines: lines.length,
  };
  return { head, parts };
}
