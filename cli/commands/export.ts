import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { disconnectDb } from '../../lib/db/client';
import { exportDataset } from '../../lib/datasets/export-dataset';
import { datasetFormats, type DatasetFormat } from '../../lib/datasets/formats';
import { type CliCommand, CliError, type CliIo } from '../command';
import { openDatabase } from '../database';

const help = `witness export --format FORMAT --out FILE [options]

Writes a training (or evaluation) dataset from the reviews: consensus labels per item, turned
into rows in a trainer's format, as JSONL. FILE is written atomically (an interrupted export
leaves nothing under FILE) with a dataset card beside it (FILE.card.md). The same content gives
the same bytes. FILE's folder is created when missing.

Formats: ${datasetFormats.join(', ')}

Options:
  --format F          the trainer format (required)
  --out FILE          where to write (required)
  --campaign ID       one campaign (default: every campaign of the project)
  --project NAME      the project (slug); optional with --campaign or when there is one project
  --split S           train: only train-split tasks; eval: an evaluation set (eval tasks only).
                      Without it, an export that would include an eval task fails and lists them.
  --min-agreement A   leave out items whose reviewers agree less than A (0..1; default 0)
  --min-reviews N     leave out items with fewer than N reviews (default 1)
  --score-gap G       single-item pairs: least consensus-score gap (0..1; default 0.25)
  --json              print {"format","rows","path","sha256","excluded":{...}}

Exit codes: 0 ok, 1 refused (the eval guard) or failed, 2 usage.`;

function number(flag: string, value: string | undefined, min: number, max: number, integer = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
    throw new CliError(`--${flag} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}; got ${JSON.stringify(value)}`, 2);
  }
  return n;
}

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'write a dataset (DPO, KTO, reward, SFT, PRM, OpenRLHF, slime) from the reviews',
  help,
  async run(argv: string[], io: CliIo) {
    let values;
    try {
      ({ values } = parseArgs({
        args: argv,
        options: {
          format: { type: 'string', short: 'f' },
          out: { type: 'string', short: 'o' },
          campaign: { type: 'string' },
          project: { type: 'string' },
          split: { type: 'string' },
          'min-agreement': { type: 'string' },
          'min-reviews': { type: 'string' },
          'score-gap': { type: 'string' },
          json: { type: 'boolean', default: false },
        },
        strict: true,
        allowPositionals: false,
      }));
    } catch (error) {
      throw new CliError((error as Error).message, 2);
    }
    if (!values.format) throw new CliError(`--format is required: one of ${datasetFormats.join(', ')}`, 2);
    if (!(datasetFormats as readonly string[]).includes(values.format))
      throw new CliError(`--format must be one of ${datasetFormats.join(', ')}; got ${JSON.stringify(values.format)}`, 2);
    if (!values.out) throw new CliError('--out FILE is required', 2);
    if (values.split !== undefined && values.split !== 'train' && values.split !== 'eval')
      throw new CliError('--split must be train or eval', 2);
    const request = {
      format: values.format as DatasetFormat,
      project: values.project,
      campaignId: values.campaign,
      split: values.split as 'train' | 'eval' | undefined,
      minAgreement: number('min-agreement', values['min-agreement'], 0, 1),
      minReviews: number('min-reviews', values['min-reviews'], 0, 100, true),
      scoreGap: number('score-gap', values['score-gap'], 0, 1),
    };
    const out = path.resolve(io.cwd, values.out);
    await mkdir(path.dirname(out), { recursive: true });
    const database = await openDatabase();
    try {
      const result = await exportDataset(request, out, {
        onProgress: values.json ? undefined : (done, total) => io.stderr(`\r${done}/${total} items`),
      });
      if (values.json) {
        io.stdout(
          JSON.stringify({
            format: result.format,
            rows: result.rows,
            path: result.path,
            sha256: result.sha256,
            excluded: result.excluded,
          }) + '\n',
        );
      } else {
        const excluded =
          Object.entries(result.excluded)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || 'none';
        io.stderr('\n');
        io.stdout(
          `${result.purpose === 'evaluation' ? 'EVALUATION SET ' : ''}${result.rows} rows (${result.format}) from ${result.items} items -> ${result.path}\n` +
            `sha256 ${result.sha256}\ncard   ${result.cardPath}\nexcluded: ${excluded}\n`,
        );
      }
      return 0;
    } finally {
      await disconnectDb();
      await database.stop();
    }
  },
};
