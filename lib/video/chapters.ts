import type { Chapter, CriterionMark, Scene, TerminalPiece, TerminalSnapshot, VideoCriterion } from './schema';

/**
 * Look-ups on video props, shared by the composition (which frame shows what) and the web UI
 * (seek from a step to its moment and back). Pure; binary searches on sorted arrays.
 */

/** Index of the last item whose key <= value, -1 when none. `items` sorted by key. */
export function lastAtOrBefore<T>(items: readonly T[], value: number, key: (t: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (key(items[mid]!) <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The scene showing at a frame (scenes tile the video: the last one for frames past the end). */
export function sceneAt(scenes: readonly Scene[], frame: number): Scene {
  const i = lastAtOrBefore(scenes, frame, (s) => s.from);
  return scenes[Math.max(0, i)]!;
}

/** The chapter (step) showing at a frame, null on the title and closing cards. */
export function chapterAt(chapters: readonly Chapter[], frame: number): Chapter | null {
  const i = lastAtOrBefore(chapters, frame, (c) => c.fromFrame);
  const c = i >= 0 ? chapters[i]! : null;
  return c && frame < c.toFrame ? c : null;
}

/** The first frame of a step's moment (for seeking), null when the step has no chapter. */
export function frameForStep(chapters: readonly Chapter[], step: number): number | null {
  return chapters.find((c) => c.step === step)?.fromFrame ?? null;
}

/**
 * Where a stored evidence note points in this video. A note keeps what the reviewer pinned, the
 * frame of the video they watched and the step showing then; it is never re-timed. When the
 * video was paced anew since (VIDEO_PROPS_VERSION, a campaign's pacing), its frame may fall in
 * another step: the note's step is its anchor, so it then points at that step's first frame. A
 * note without a step (the title or closing card) keeps its frame, within the video.
 */
export function evidenceFrame(
  chapters: readonly Chapter[],
  totalFrames: number,
  note: { frame: number; stepIndex: number | null },
): number {
  const last = Math.max(0, totalFrames - 1);
  if (note.stepIndex === null) return Math.min(note.frame, last);
  if (chapterAt(chapters, note.frame)?.step === note.stepIndex) return note.frame;
  return Math.min(frameForStep(chapters, note.stepIndex) ?? note.frame, last);
}

/** The criterion's state at a frame: the last mark at or before it, else pending. */
export function criterionStateAt(criterion: VideoCriterion, frame: number): CriterionMark | null {
  const i = lastAtOrBefore(criterion.marks, frame, (m) => m.frame);
  return i >= 0 ? criterion.marks[i]! : null;
}

/** The terminal screen showing at a frame of a terminal scene. */
export function snapshotAt(snapshots: readonly TerminalSnapshot[], frame: number): TerminalSnapshot {
  const i = lastAtOrBefore(snapshots, frame, (s) => s.frame);
  return snapshots[Math.max(0, i)]!;
}

/** The terminal piece at a frame and the recording time it stands for. */
export function pieceAt(pieces: readonly TerminalPiece[], frame: number): { piece: TerminalPiece; castTime: number } {
  const i = lastAtOrBefore(pieces, frame, (p) => p.from);
  const piece = pieces[Math.max(0, i)]!;
  return { piece, castTime: castTimeInPiece(piece, frame) };
}

/** Recording seconds shown at `frame` inside a piece: idle pieces hold their start, played ones run linearly. */
export function castTimeInPiece(piece: TerminalPiece, frame: number): number {
  if (piece.idle || piece.castTo <= piece.castFrom) return piece.castFrom;
  const k = Math.min(Math.max(frame - piece.from, 0), piece.duration) / piece.duration;
  return piece.castFrom + k * (piece.castTo - piece.castFrom);
}
