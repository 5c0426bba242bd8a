import { estimatePpiMeanColumns, type Interval, type PpiMeanResult } from '../../lib/stats/ppi';
import { readEstimateFile } from '../../lib/stats/read-estimate-file';
import { CliError } from '../command';
import { fileCommand } from '../file-command';

const help = `witness estimate --input FILE [options]

Prediction-powered estimates of a rate: a predictor's score on every item (an LLM judge, the
verifier) corrected by the human labels on the reviewed items (PPI++, Angelopoulos, Duchi &
Zrnic 2023), with a 95% interval, beside the human-only estimate and its interval. Items chosen
for review with known probabilities (active allocation) are weighted by 1/probability (Zrnic &
Candès 2024), so the estimate stays unbiased. No database needed.

FILE is JSONL ({"item": …, "prediction": 0.83, "label": 1, "probability": 0.2, "group": …} per
line) or CSV with a header; columns:
  item         the item's id (unique within its group)
  prediction   the predictor's score in [0, 1]
  label        the human verdict, 0 or 1 (0.5 for a tie); empty when not reviewed
  probability  optional: the probability the item had of being chosen for review, in (0, 1]
               (1 when everything is reviewed). Without it the reviewed items are taken to be a
               simple random sample of the group's items.
  group        optional: one estimate per group (an environment, a policy, a checkpoint)

Options:
  --input FILE   the items file (required)
  --alpha A      1 - coverage of the intervals (default 0.05: 95% intervals)
  --json         print {"groups": [{"group","labeled","unlabeled","human": {"estimate","low","high"},
                 "ppi": {"estimate","low","high","lambda"},"effective_labels"}]}, groups by name
                 (human and ppi are null for a group with no label)

effective_labels: how many human labels on a random sample would give the prediction-powered
interval's precision. lambda: how much the predictor is trusted (0: not at all, the estimate is
the human-only one; 1: fully).

Exit codes: 0 ok, 1 the file cannot be read or is invalid, 2 usage.`;

function alphaOf(value: string | undefined): number {
  if (value === undefined) return 0.05;
  const alpha = Number(value);
  if (!/^\d*\.?\d+$/.test(value) || !(alpha > 0 && alpha < 1)) {
    throw new CliError(`--alpha must be a number between 0 and 1 (exclusive); got ${JSON.stringify(value)}`, 2);
  }
  return alpha;
}

interface GroupEstimate {
  group: string | null;
  result: PpiMeanResult;
  weighted: boolean;
}

const pct = (x: number) => x.toFixed(4);
const cell = (i: Interval | null) => (i ? `${pct(i.estimate)} [${pct(i.low)}, ${pct(i.high)}]` : '-');

function table(groups: GroupEstimate[], alpha: number): string {
  const level = `${+((1 - alpha) * 100).toFixed(4)}%`;
  const header = [
    'group',
    'labeled',
    'unlabeled',
    `human-only (${level} CI)`,
    `prediction-powered (${level} CI)`,
    'lambda',
    'effective labels',
  ];
  const rows = groups.map(({ group, result: r }) => [
    group ?? '(all)',
    String(r.labeled),
    String(r.unlabeled),
    cell(r.human),
    cell(r.ppi),
    r.ppi ? r.ppi.lambda.toFixed(2) : '-',
    r.ppi ? String(Math.round(r.effectiveLabels)) : '-',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((text, c) => (c === 0 || c === 3 || c === 4 ? text.padEnd(widths[c]!) : text.padStart(widths[c]!)))
      .join('  ')
      .trimEnd();
  const out = [line(header), ...rows.map(line), ''];
  out.push(
    'prediction-powered: PPI++ (power-tuned lambda), the prediction on every item plus the mean correction (label - lambda x prediction)',
    '  on the reviewed ones; effective labels = human labels on a random sample that would give the same precision.',
  );
  const weighted = groups.filter((g) => g.weighted).length;
  if (weighted > 0)
    out.push(
      `  ${weighted === groups.length ? 'Every group' : `${weighted} of ${groups.length} groups`}: labels weighted by 1/probability of review.`,
    );
  if (weighted < groups.length) {
    out.push(
      '  Without a probability column the reviewed items are taken to be a simple random sample of their group: if they were hand-picked, trust neither figure.',
    );
  }
  const unlabeled = groups.filter((g) => g.result.labeled === 0).length;
  if (unlabeled > 0) out.push(`  ${unlabeled} group(s) have no label: no estimate.`);
  return `${out.join('\n')}\n`;
}

export const estimateCommand = fileCommand({
  name: 'estimate',
  summary: 'prediction-powered (PPI++) estimates of rates: judge scores on every item corrected by the human labels',
  help,
  flags: { alpha: { type: 'string' } },
  options: (values) => ({ alpha: alphaOf(values.alpha) }),
  read: readEstimateFile,
  run(columns, options, io) {
    const groups: GroupEstimate[] = columns.map((c) => ({
      group: c.group,
      result: estimatePpiMeanColumns(c, { alpha: options.alpha }),
      weighted: c.probability !== null,
    }));
    if (options.json) {
      const doc = {
        groups: groups.map(({ group, result: r }) => ({
          group,
          labeled: r.labeled,
          unlabeled: r.unlabeled,
          human: r.human && { estimate: r.human.estimate, low: r.human.low, high: r.human.high },
          ppi: r.ppi && { estimate: r.ppi.estimate, low: r.ppi.low, high: r.ppi.high, lambda: r.ppi.lambda },
          effective_labels: r.effectiveLabels,
        })),
      };
      io.stdout(`${JSON.stringify(doc)}\n`);
    } else {
      io.stdout(table(groups, options.alpha));
    }
    // printed all the same (the document keeps its shape), but nothing estimated is not a success
    if (groups.every((g) => g.result.labeled === 0)) {
      io.stderr(`error: no item in ${options.input} has a label: nothing was estimated (give the human verdicts in "label")\n`);
      return 1;
    }
    return 0;
  },
});
