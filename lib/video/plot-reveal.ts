import type { AnswerPlot } from './schema';

/**
 * Drawing a sampled plot (lib/video/plot.ts samples it) as it reveals itself, for the video's
 * result card. Apart from plot.ts so the composition (and the Player's bundle) does not load the
 * Compute Engine's LaTeX parser.
 */

/** Samples per drawn piece of the curve: a revealed piece keeps its path, so a frame repaints only the piece at the pen. */
const PIECE = 12;

/**
 * The curve drawn up to `reveal` (0..1 of the x range) as SVG paths: the line cut into pieces of PIECE
 * samples (and at every break), the last one ending where the pen is, on the segment it crosses.
 * Pieces already drawn are the same strings frame after frame, so React leaves them alone and
 * Chromium repaints only the piece being drawn (a clip path growing over the whole curve
 * repainted all of it every frame). Round caps and joins make the pieces one line.
 */
export function revealedPaths(
  plot: Pick<AnswerPlot, 'points' | 'xFrom' | 'xTo'>,
  reveal: number,
  x: (v: number) => number,
  y: (v: number) => number,
): string[] {
  if (reveal <= 0) return [];
  const edge = plot.xFrom + reveal * (plot.xTo - plot.xFrom);
  const pt = (px: number, py: number) => `${x(px).toFixed(1)},${y(py).toFixed(1)}`;
  const paths: string[] = [];
  let d = '';
  let n = 0;
  let last: [number, number] | null = null;
  for (const p of plot.points) {
    if (p === null) {
      if (n > 1) paths.push(d);
      d = '';
      n = 0;
      last = null;
      continue;
    }
    if (p[0] > edge) {
      // the pen is between the last sample and this one
      if (last && edge > last[0]) {
        const k = (edge - last[0]) / (p[0] - last[0]);
        d += `L${pt(edge, last[1] + k * (p[1] - last[1]))}`;
        n++;
      }
      break;
    }
    d += `${n === 0 ? 'M' : 'L'}${pt(p[0], p[1])}`;
    n++;
    last = p;
    if (n > PIECE) {
      paths.push(d);
      // the next piece starts where this one ends
      d = `M${pt(p[0], p[1])}`;
      n = 1;
    }
  }
  if (n > 1) paths.push(d);
  return paths;
}
