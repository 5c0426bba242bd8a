import { AppError } from '../errors';
import { type Battle, type BattleWinner, battleWinners } from './battles';
import { forEachRecord, lineFailer, readPlainCsv, scanCsvRows, stringInterner } from './read-records';

/**
 * Reads pairwise battles from JSONL (`{"model_a": …, "model_b": …, "winner": …}` per line; other
 * keys ignored) or CSV with those columns, streaming line by line. `winner` is one of model_a,
 * model_b, tie, tie (bothbad). A CSV without quotes is scanned byte by byte (read-records.ts).
 */
export async function readBattlesFile(filePath: string, label: string = filePath): Promise<Battle[]> {
  const battles: Battle[] = [];
  const fail = lineFailer(label);
  const intern = stringInterner();
  const visit = ({ line, fields }: { line: number; fields: Record<string, unknown> }) => {
    const a = typeof fields.model_a === 'string' ? fields.model_a.trim() : '';
    const b = typeof fields.model_b === 'string' ? fields.model_b.trim() : '';
    const winner = typeof fields.winner === 'string' ? fields.winner.trim() : fields.winner;
    if (a === '') fail(line, 'expected "model_a" to be a non-empty string');
    if (b === '') fail(line, 'expected "model_b" to be a non-empty string');
    if (a === b) fail(line, `expected two different models, got ${JSON.stringify(a)} twice`);
    if (!battleWinners.includes(winner as BattleWinner)) {
      fail(line, `expected "winner" to be one of ${battleWinners.map((w) => JSON.stringify(w)).join(', ')}, got ${JSON.stringify(winner)}`);
    }
    battles.push({ model_a: intern(a), model_b: intern(b), winner: winner as BattleWinner });
  };
  const plain = await readPlainCsv(filePath, label);
  if (plain) {
    // byte-level rows (no string per line); the fields decoded as the general reader gives them
    const fields: Record<string, unknown> = {};
    scanCsvRows(plain, ['model_a', 'model_b', 'winner'], label, (line, start, end) => {
      fields.model_a = plain.toString('utf8', start[0]!, end[0]!);
      fields.model_b = plain.toString('utf8', start[1]!, end[1]!);
      fields.winner = plain.toString('utf8', start[2]!, end[2]!);
      visit({ line, fields });
    });
  } else await forEachRecord(filePath, ['model_a', 'model_b', 'winner'], visit, label);
  if (battles.length === 0) throw new AppError('BAD_INPUT', `${label}: no battles found`);
  return battles;
}
