import { FIGURE_LABELS, type GroupEstimate } from '@/lib/insight/estimates';
import { inert } from '@/lib/rich-text/inert-text';
import { DataTable } from '@/components/ui/table';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pm = (i: { low: number; high: number }) => `±${((i.high - i.low) * 50).toFixed(1)} pts`;

/** Two intervals on one 0..100% axis: the human-only (grey) above the prediction-powered (indigo). */
function IntervalBars({ e }: { e: GroupEstimate }) {
  const bar = (i: { estimate: number; low: number; high: number }, color: string, testId: string) => (
    <div className="relative h-2.5" data-testid={testId} data-width={(i.high - i.low).toFixed(4)}>
      <div className="absolute inset-y-1 left-0 right-0 rounded bg-zinc-100" />
      <div
        className={`absolute inset-y-0 rounded ${color}`}
        style={{ left: `${i.low * 100}%`, width: `${Math.max(0.5, (i.high - i.low) * 100)}%` }}
      />
      <div className="absolute inset-y-[-2px] w-0.5 bg-zinc-900" style={{ left: `${i.estimate * 100}%` }} />
    </div>
  );
  return (
    <div className="w-40 space-y-1" aria-hidden>
      {e.human ? bar(e.human, 'bg-zinc-400', 'human-bar') : null}
      {e.ppi ? bar(e.ppi, 'bg-indigo-500', 'ppi-bar') : null}
    </div>
  );
}

/**
 * Human-only and prediction-powered figures side by side: estimate, 95% interval, the reviews it
 * rests on and what the combination is worth in human reviews, the predictor, and (not a random
 * sample) why only the human-only figure is shown.
 */
export function EstimateTable({
  figures,
  groupHeader,
  downloadHref,
}: {
  figures: GroupEstimate[];
  groupHeader: string;
  downloadHref: (figure: string) => string;
}) {
  return (
    <DataTable
      testId="estimate-table"
      columns={[
        groupHeader,
        'Figure',
        'Human reviews only',
        'Prediction-powered',
        'Intervals',
        { label: 'Worth', className: 'px-3 py-2 text-right' },
        'Predictor',
        <span className="sr-only">Input rows</span>,
      ]}
    >
      {figures.map((e) => (
        <tr key={`${e.groupId}/${e.figure}`} data-testid="estimate-row" data-group={e.group} data-figure={e.figure}>
          <td className="px-3 py-2 font-medium text-zinc-900">{inert(e.group)}</td>
          <td className="px-3 py-2 text-zinc-700">{FIGURE_LABELS[e.figure]}</td>
          <td className="whitespace-nowrap px-3 py-2" data-testid="human-figure">
            {e.human ? (
              <>
                <span className="font-mono tabular-nums text-zinc-900">{pct(e.human.estimate)}</span>{' '}
                <span className="font-mono text-[11px] tabular-nums text-zinc-500">
                  [{pct(e.human.low)}–{pct(e.human.high)}]
                </span>{' '}
                <span className="text-[11px] text-zinc-400">n={e.labeled}</span>
              </>
            ) : (
              '—'
            )}
          </td>
          <td className="whitespace-nowrap px-3 py-2" data-testid="ppi-figure">
            {e.ppi ? (
              <>
                <span className="font-mono tabular-nums text-indigo-900">{pct(e.ppi.estimate)}</span>{' '}
                <span className="font-mono text-[11px] tabular-nums text-indigo-700">
                  [{pct(e.ppi.low)}–{pct(e.ppi.high)}]
                </span>{' '}
                <span className="text-[11px] text-zinc-400">N={e.population}</span>
              </>
            ) : (
              <span className="text-xs text-amber-800" data-testid="not-random">
                {e.randomSample ? 'no judge or verifier scores' : 'not a random sample: human-only'}
              </span>
            )}
          </td>
          <td className="px-3 py-2">
            <IntervalBars e={e} />
            {e.human && e.ppi ? (
              <div className="mt-0.5 text-[10px] text-zinc-500">
                {pm(e.human)} → {pm(e.ppi)}
              </div>
            ) : null}
          </td>
          <td className="px-3 py-2 text-right text-xs text-zinc-700" data-testid="effective-labels">
            {e.effectiveLabels !== null ? (
              <span title="how many randomly chosen human reviews alone would give the prediction-powered interval">
                ≈{Math.round(e.effectiveLabels)} reviews
                <span className="block text-[10px] text-zinc-400">
                  from {e.labeled}
                  {/* at lambda = 0 the predictor adds nothing: more than n is the draw's own efficiency (reviews spent where the labels vary) */}
                  {e.ppi?.lambda === 0 && Math.round(e.effectiveLabels) > e.labeled
                    ? ', by the sampling design (the predictor adds nothing)'
                    : ''}
                </span>
              </span>
            ) : (
              '—'
            )}
          </td>
          <td className="max-w-56 px-3 py-2 text-xs text-zinc-600" data-testid="predictor">
            {inert(e.predictor.description)}
            {e.ppi ? <span className="block text-[10px] text-zinc-400">λ = {e.ppi.lambda.toFixed(2)}</span> : null}
          </td>
          <td className="px-3 py-2 text-xs">
            <a className="text-indigo-700 hover:underline" href={downloadHref(e.figure)} data-testid="estimate-download">
              rows
            </a>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The "how computed" part shared by the pages that show prediction-powered figures. */
export function EstimateMethod() {
  return (
    <>
      <li>
        <b>Prediction-powered</b> (PPI++: Angelopoulos, Duchi &amp; Zrnic 2023): the predictor’s score on every trajectory of the campaigns’
        sampling frame (N: every item of a single-item campaign with reviews, reviewed or not), corrected by the human labels on the
        reviewed ones, each weighted by 1 / the probability it had of being reviewed (recorded per campaign item: 1 when a campaign reviews
        everything, the draw’s for a random or <i>review where it tells the most</i> sample, times the share of the selected items reviewed
        so far). λ is tuned to minimise the variance; a predictor that tells nothing gets λ = 0, which is the human-only estimate. 95%
        intervals; the human-only one is the Wilson interval of the labels (at the design’s effective size when weighted).
      </li>
      <li>
        <b>Predictor</b> (fixed in advance, never picked by which interval is narrowest): the cross-fitted combination of the verifier and
        every LLM judge (logistic, cross-fitted: the reviewed trajectories are split into 5 folds and each is predicted by the fit on the
        other 4) when there are two or more sources and labels enough to fit it, else the source that scored most trajectories. A trajectory
        a source did not score gets that source’s mean. <b>Worth</b>: how many randomly chosen human reviews alone would give the
        prediction-powered interval.
      </li>
      <li>
        <b>Not a random sample</b>: where a trajectory of the figure is an item of a campaign of hand-picked trajectories, its chance of
        being reviewed is unknown, so only the human-only figure is shown. The <i>rows</i> link downloads a figure’s input (
        <code>item, prediction, label, probability, group</code>); <code>witness estimate --input FILE</code> gives the same numbers.
      </li>
    </>
  );
}
