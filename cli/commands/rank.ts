import { bradleyTerryRatings, type BradleyTerryResult } from '../../lib/stats/bradley-terry';
import { readBattlesFile } from '../../lib/stats/read-battles-file';
import { bootstrapFlags, bootstrapOptions, fileCommand } from '../file-command';

const help = `witness rank --input FILE [options]

Bradley-Terry ratings of models from pairwise battles, on the Elo scale as LMArena computes them
(P(a beats b) = 1/(1+10^((R_b-R_a)/400)), ties count half a win each way, mean rating 1000),
with bootstrap confidence intervals over battles.

FILE is JSONL ({"model_a": …, "model_b": …, "winner": "model_a"|"model_b"|"tie"|"tie (bothbad)"}
per line) or CSV with columns model_a,model_b,winner.

Options:
  --input FILE        the battles file (required)
  --bootstrap N       bootstrap rounds (default 1000; 0 = no intervals)
  --seed S            seed of the bootstrap (default 1)
  --json              print {"ratings": [{"model","rating","ci","battles"}]}, best first

Exit codes: 0 ok, 1 the file cannot be read or is invalid, 2 usage.`;

function table(result: BradleyTerryResult, rounds: number, seed: number): string {
  const rows = result.ratings.map((r, i) => [
    String(i + 1),
    r.model,
    r.rating.toFixed(1),
    r.ci ? `[${r.ci[0].toFixed(1)}, ${r.ci[1].toFixed(1)}]` : '-',
    String(r.battles),
  ]);
  const header = ['rank', 'model', 'rating', '95% CI', 'battles'];
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => (c === 1 || c === 3 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  const out = [line(header), ...rows.map(line)];
  out.push('');
  out.push(
    `${result.nBattles} battles among ${result.ratings.length} models; Elo-scale Bradley-Terry, mean rating 1000` +
      (rounds > 0 ? `; CI from ${rounds} bootstrap rounds (seed ${seed})` : ''),
  );
  if (result.priorUsed) {
    out.push(
      'note: some model never won or never lost (or groups were never compared), so the maximum-likelihood ratings do not exist;',
      '      each model got one virtual half-won game against a 1000-rated reference to keep ratings finite.',
    );
  }
  return `${out.join('\n')}\n`;
}

export const rankCommand = fileCommand({
  name: 'rank',
  summary: 'Bradley-Terry (LMArena-style Elo) ratings from pairwise battles, with bootstrap CI',
  help,
  flags: bootstrapFlags,
  options: bootstrapOptions,
  read: readBattlesFile,
  run(battles, options, io) {
    const result = bradleyTerryRatings(battles, { bootstrap: options.bootstrap, seed: options.seed });
    if (options.json) {
      const ratings = result.ratings.map((r) => ({ model: r.model, rating: r.rating, ci: r.ci, battles: r.battles }));
      io.stdout(`${JSON.stringify({ ratings })}\n`);
    } else {
      io.stdout(table(result, options.bootstrap, options.seed));
    }
    return 0;
  },
});
