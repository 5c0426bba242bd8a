'use client';

import { CartesianGrid, ErrorBar, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One metric across ordered checkpoints, with 95% error bars and n in the tooltip; a sentence when nothing was measured. */
export function TrendChart({
  points,
  label,
  color,
  percent,
  testId,
}: {
  points: { checkpoint: string; value: number | null; low: number | null; high: number | null; n: number }[];
  label: string;
  color: string;
  percent: boolean;
  testId?: string;
}) {
  const data = points.map((p) => ({
    checkpoint: p.checkpoint,
    value: p.value,
    err: p.value !== null && p.low !== null && p.high !== null ? [p.value - p.low, p.high - p.value] : [0, 0],
    n: p.n,
    ci: p.low !== null && p.high !== null ? [p.low, p.high] : null,
  }));
  const fmt = (x: number) => (percent ? `${Math.round(x * 100)}%` : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));
  if (!points.some((p) => p.value !== null))
    return (
      <p
        className="flex h-56 w-full items-center justify-center rounded-lg bg-zinc-50 px-4 text-center text-sm text-zinc-500"
        data-testid={testId}
      >
        {label}: nothing measured at any checkpoint yet.
      </p>
    );
  return (
    <div className="h-56 w-full" data-testid={testId}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" />
          <XAxis
            dataKey="checkpoint"
            tick={{ fontSize: 11, fill: '#52525b' }}
            padding={{ left: 24, right: 24 }}
            interval="preserveStartEnd"
            minTickGap={8}
          />
          <YAxis domain={percent ? [0, 1] : ['auto', 'auto']} tickFormatter={fmt} tick={{ fontSize: 11, fill: '#71717a' }} width={52} />
          <Tooltip
            formatter={(value, name, item) => {
              const ci = item.payload.ci as [number, number] | null;
              return [
                value === null || value === undefined
                  ? `— (n=${item.payload.n})`
                  : `${fmt(Number(value))}${ci ? ` [${fmt(ci[0])}, ${fmt(ci[1])}]` : ''} n=${item.payload.n}`,
                name,
              ];
            }}
          />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Line
            type="monotone"
            dataKey="value"
            name={label}
            stroke={color}
            strokeWidth={2}
            dot={{ r: 4 }}
            isAnimationActive={false}
            connectNulls
          >
            <ErrorBar dataKey="err" width={6} strokeWidth={1.5} stroke={color} direction="y" isAnimationActive={false} />
          </Line>
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
