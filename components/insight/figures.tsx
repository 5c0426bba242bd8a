import type { AgreementEstimate } from '@/lib/insight/agreement';
import type { MeanEstimate, Proportion } from '@/lib/insight/intervals';

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * A rate with its 95% interval and n; "—" with n when there is nothing to estimate. The figures
 * break between the value, the interval and n (never inside one), so a wide table (the training
 * ranking: ten columns of them) fits its card at 1440 px by stacking them instead of running off the right.
 */
export function RateFigure({ p, testId }: { p: Proportion; testId?: string }) {
  if (p.rate === null || !p.ci) {
    return (
      <span className="text-zinc-400" data-testid={testId}>
        — <span className="text-[11px]">n=0</span>
      </span>
    );
  }
  return (
    <span data-testid={testId} title={`${p.k} of ${p.n}; 95% Wilson interval ${pct(p.ci[0])}–${pct(p.ci[1])}`}>
      <span className="font-mono tabular-nums text-zinc-900">{pct(p.rate)}</span>{' '}
      <span className="whitespace-nowrap font-mono text-[11px] tabular-nums text-zinc-500">
        [{pct(p.ci[0])}–{pct(p.ci[1])}]
      </span>{' '}
      <span className="whitespace-nowrap text-[11px] text-zinc-400">n={p.n}</span>
    </span>
  );
}

export function AgreementFigure({ a, symbol }: { a: AgreementEstimate; symbol: string }) {
  if (a.value === null) {
    return (
      <span className="text-zinc-400" title="undefined: too few units, or no variation">
        — <span className="text-[11px]">n={a.n}</span>
      </span>
    );
  }
  return (
    <span title={a.ci ? `95% bootstrap interval ${a.ci[0].toFixed(2)} to ${a.ci[1].toFixed(2)} over ${a.n} units` : `${a.n} units`}>
      <span className="whitespace-nowrap">
        <span className="text-zinc-500">{symbol}</span> <span className="font-mono tabular-nums text-zinc-900">{a.value.toFixed(2)}</span>
      </span>{' '}
      {a.ci ? (
        <span className="whitespace-nowrap font-mono text-[11px] tabular-nums text-zinc-500">
          [{a.ci[0].toFixed(2)}, {a.ci[1].toFixed(2)}]
        </span>
      ) : null}{' '}
      <span className="whitespace-nowrap text-[11px] text-zinc-400">n={a.n}</span>
    </span>
  );
}

export function MeanFigure({ m }: { m: MeanEstimate }) {
  if (m.mean === null)
    return (
      <span className="text-zinc-400">
        — <span className="text-[11px]">n=0</span>
      </span>
    );
  return (
    <span title="mean normalised Likert score (score − 1) / (points − 1), 95% t interval">
      <span className="font-mono tabular-nums text-zinc-900">{m.mean.toFixed(2)}</span>{' '}
      {m.ci ? (
        <span className="whitespace-nowrap font-mono text-[11px] tabular-nums text-zinc-500">
          [{m.ci[0].toFixed(2)}, {m.ci[1].toFixed(2)}]
        </span>
      ) : (
        <span className="text-[11px] text-zinc-400">no CI</span>
      )}{' '}
      <span className="whitespace-nowrap text-[11px] text-zinc-400">n={m.n}</span>
    </span>
  );
}

/** The table cell of one figure: a rate, an agreement or a mean (as RateFigure, AgreementFigure, MeanFigure). */
const figureCell = 'px-3 py-2 text-xs';
export function RateCell(props: { p: Proportion }) {
  return (
    <td className={figureCell}>
      <RateFigure {...props} />
    </td>
  );
}
export function AgreementCell(props: { a: AgreementEstimate; symbol: string }) {
  return (
    <td className={figureCell}>
      <AgreementFigure {...props} />
    </td>
  );
}
export function MeanCell(props: { m: MeanEstimate }) {
  return (
    <td className={figureCell}>
      <MeanFigure {...props} />
    </td>
  );
}

export function SeverityBadge({ severity }: { severity: 'blocker' | 'warning' | 'info' | 'good' }) {
  const style = {
    blocker: 'bg-red-50 text-red-700 ring-red-200',
    warning: 'bg-amber-50 text-amber-800 ring-amber-200',
    info: 'bg-zinc-100 text-zinc-600 ring-zinc-200',
    good: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
  }[severity];
  return (
    <span className={`inline-flex rounded px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide ring-1 ring-inset ${style}`}>
      {severity}
    </span>
  );
}

export function Card({ title, children, actions }: { title: string; children: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function CsvLink({ href, label = 'Download CSV' }: { href: string; label?: string }) {
  return (
    <a
      href={href}
      download
      className="rounded-md border border-zinc-300 bg-white px-2.5 py-1 text-xs font-medium text-zinc-700 shadow-sm hover:bg-zinc-50"
      data-testid="csv-link"
    >
      {label}
    </a>
  );
}

/** The "How these figures are computed" notes at the foot of an insight page; the children are its items (`<li>`). */
export function MethodNotes({ children }: { children: React.ReactNode }) {
  return (
    <details className="rounded-xl border border-zinc-200 bg-white p-4 text-sm text-zinc-700 shadow-sm">
      <summary className="cursor-pointer font-semibold text-zinc-900">How these figures are computed</summary>
      <ul className="mt-3 list-disc space-y-1.5 pl-5">{children}</ul>
    </details>
  );
}
