'use client';

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Line colours of the series, oldest checkpoint first (the last, the newest, in indigo). */
const palette = ['#a1a1aa', '#f59e0b', '#10b981', '#0ea5e9', '#6366f1'];

export interface MetricSeries {
  checkpoint: string;
  points: { step: number; value: number }[];
}

const fmt = (x: number) =>
  x === 0 ? '0' : Math.abs(x) >= 1000 || Math.abs(x) < 0.001 ? x.toExponential(1) : Number(x.toPrecision(3)).toString();

/**
 * One training metric over steps: a line per checkpoint (each series already downsampled on the
 * server, at most 200 points), steps on a numeric axis so series of different lengths line up.
 */
export function MetricChart({ name, series, height = 200 }: { name: string; series: MetricSeries[]; height?: number }) {
  const colours = series.length === 1 ? ['#6366f1'] : palette.slice(-series.length);
  return (
    <figure className="rounded-lg border border-zinc-200 bg-white p-3" data-testid="metric-chart" data-metric={name}>
      <figcaption className="mb-1 flex items-baseline justify-between gap-2 text-xs">
        <span className="font-mono font-semibold text-zinc-800">{name}</span>
        <span className="text-zinc-500">
          {series.map((s) => `${s.points.length} pts`).join(' · ')}
          {series.length === 1 && series[0]!.points.length ? ` · last ${fmt(series[0]!.points.at(-1)!.value)}` : ''}
        </span>
      </figcaption>
      <div style={{ height }} className="w-full">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
            <XAxis
              dataKey="step"
              type="number"
              domain={['dataMin', 'dataMax']}
              tick={{ fontSize: 11, fill: '#71717a' }}
              allowDuplicatedCategory={false}
            />
            <YAxis domain={['auto', 'auto']} tickFormatter={fmt} tick={{ fontSize: 11, fill: '#71717a' }} width={52} />
            <Tooltip formatter={(value) => fmt(Number(value))} labelFormatter={(step) => `step ${String(step)}`} />
            {series.length > 1 ? <Legend wrapperStyle={{ fontSize: 11 }} /> : null}
            {series.map((s, i) => (
              <Line
                key={s.checkpoint}
                data={s.points}
                dataKey="value"
                name={s.checkpoint}
                stroke={colours[i] ?? '#6366f1'}
                strokeWidth={i === series.length - 1 ? 2 : 1.5}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
