import { AppError } from '../errors';

/**
 * Pairwise battles (LMArena's format) and their aggregation into per-pair outcome cells, the
 * sufficient statistic of the Bradley-Terry fit: 100,000 battles among 20 models become 570
 * cells (190 pairs x {a wins, b wins, tie}).
 */
export type BattleWinner = 'model_a' | 'model_b' | 'tie' | 'tie (bothbad)';
export const battleWinners: readonly BattleWinner[] = ['model_a', 'model_b', 'tie', 'tie (bothbad)'];

export interface Battle {
  model_a: string;
  model_b: string;
  winner: BattleWinner;
}

export interface AggregatedBattles {
  /** model names, sorted */
  models: string[];
  /** cells: pair p = (i, j) with i < j, outcome o: 0 = i wins, 1 = j wins, 2 = tie; cell = 3p + o */
  nCells: number;
  pairI: Int32Array;
  pairJ: Int32Array;
  /** the cell of every battle, in input order */
  cellOf: Int32Array;
  /** battles per cell */
  cellCounts: Float64Array;
  /** battles per model */
  battlesPerModel: Float64Array;
}

export function aggregateBattles(battles: readonly Battle[]): AggregatedBattles {
  const names = new Set<string>();
  battles.forEach((b, index) => {
    if (typeof b.model_a !== 'string' || typeof b.model_b !== 'string' || b.model_a === '' || b.model_b === '') {
      throw new AppError('BAD_INPUT', `Battle ${index + 1}: model_a and model_b must be non-empty strings`);
    }
    if (b.model_a === b.model_b) {
      throw new AppError('BAD_INPUT', `Battle ${index + 1}: a model cannot battle itself (${b.model_a})`);
    }
    if (!battleWinners.includes(b.winner)) {
      throw new AppError(
        'BAD_INPUT',
        `Battle ${index + 1}: winner must be one of ${battleWinners.map((w) => JSON.stringify(w)).join(', ')}; got ${JSON.stringify(b.winner)}`,
      );
    }
    names.add(b.model_a);
    names.add(b.model_b);
  });
  const models = [...names].sort();
  const M = models.length;
  const index = new Map(models.map((m, i) => [m, i]));
  const nPairs = (M * (M - 1)) / 2;
  const pairI = new Int32Array(nPairs);
  const pairJ = new Int32Array(nPairs);
  const pairIndex = new Int32Array(M * M);
  let p = 0;
  for (let i = 0; i < M; i++) {
    for (let j = i + 1; j < M; j++, p++) {
      pairI[p] = i;
      pairJ[p] = j;
      pairIndex[i * M + j] = pairIndex[j * M + i] = p;
    }
  }
  const cellOf = new Int32Array(battles.length);
  const cellCounts = new Float64Array(3 * nPairs);
  const battlesPerModel = new Float64Array(M);
  battles.forEach((b, k) => {
    const a = index.get(b.model_a)!;
    const c = index.get(b.model_b)!;
    let outcome: number;
    if (b.winner === 'model_a') outcome = a < c ? 0 : 1;
    else if (b.winner === 'model_b') outcome = c < a ? 0 : 1;
    else outcome = 2;
    const cell = 3 * pairIndex[a * M + c]! + outcome;
    cellOf[k] = cell;
    cellCounts[cell]!++;
    battlesPerModel[a]!++;
    battlesPerModel[c]!++;
  });
  return { models, nCells: 3 * nPairs, pairI, pairJ, cellOf, cellCounts, battlesPerModel };
}

/**
 * The M x M win matrix W (row-major) from cell counts: W_ij = wins of i over j plus half of
 * their ties ("tie" and "tie (bothbad)" alike count half a win each way).
 */
export function winMatrix(agg: AggregatedBattles, cellCounts: ArrayLike<number>): Float64Array {
  const M = agg.models.length;
  const W = new Float64Array(M * M);
  for (let p = 0; p < agg.pairI.length; p++) {
    const i = agg.pairI[p]!;
    const j = agg.pairJ[p]!;
    const tie = cellCounts[3 * p + 2]! / 2;
    W[i * M + j] = cellCounts[3 * p]! + tie;
    W[j * M + i] = cellCounts[3 * p + 1]! + tie;
  }
  return W;
}
