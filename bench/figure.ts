/**
 * One benchmark figure. `npm run bench` prints every figure in one table; a figure that has a
 * comparator measured in the same run shows the ratio (value / comparator for rates, where
 * higher is better; comparator / value for times, where lower is better).
 */
export interface BenchFigure {
  /** the issue area: foundation, ingest, video, review, agreement, export, insight */
  group: string;
  name: string;
  value: number;
  unit: string;
  /** true when a bigger value is better (rates); false for times and memory */
  higherIsBetter: boolean;
  comparator?: { name: string; value: number };
  /** the goal as text, e.g. ">= 0.5x COPY" */
  goal?: string;
}

/** A bench module: bench/<area>.bench.ts exports `run` returning its figures. */
export type BenchModule = { run: () => Promise<BenchFigure[]> };
