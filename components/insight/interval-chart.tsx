'use client';

import { Bar, BarChart, CartesianGrid, ErrorBar, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * Grouped bars with 95% error bars. Each row: a label and, per series, {value, low, high, n}.
 * A missing value draws no bar (and the tooltip says n=0).
 */
export interface IntervalSeries {
  key: string;
  label: string;
  color: string;
}

export interface IntervalPoint {
  value: number | null;
  low: number | null;
  high: number | null;
  n: number;
}

/** a bar's label under the axis, at most this long (the tooltip has it whole) */
const MAX_TICK_CHARS = 22;

export function IntervalChart({
  rows,
  series,
  percent = true,
  domain,
  height = 260,
  testId,
}: {
  rows: { label: string; values: Record<string, IntervalPoint> }[];
  series: IntervalSeries[];
  percent?: boolean;
  domain?: [number, number];
  height?: number;
  testId?: string;
}) {
  const data = rows.map((r) => {
    const o: Record<string, unknown> = { label: r.label };
    for (const s of series) {
      const v = r.values[s.key];
      o[s.key] = v?.value ?? null;
      o[`${s.key}_err`] = v && v.value !== null && v.low !== null && v.high !== null ? [v.value - v.low, v.high - v.value] : [0, 0];
      o[`${s.key}_n`] = v?.n ?? 0;
      o[`${s.key}_ci`] = v && v.low !== null && v.high !== null ? [v.low, v.high] : null;
    }
    return o;
  });
  const fmt = (x: number) => (percent ? `${Math.round(x * 100)}%` : Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(2));
  // every label is drawn (interval 0): long or many ones slant and are cut to fit under their bar, whole in the tooltip
  const slant = rows.length > 3 || rows.some((r) => r.label.length > 14);
  // cut in the middle: the start (the model) and the end (its checkpoint, its agent) tell policies apart
  const tick = (label: string) =>
    label.length > MAX_TICK_CHARS ? `${label.slice(0, 8)}…${label.slice(label.length - (MAX_TICK_CHARS - 9))}` : label;
  return (
    <div style={{ height: height + (slant ? 48 : 0) }} data-testid={testId} className="w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: slant ? 48 : 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e4e4e7" vertical={false} />
          <XAxis
            dataKey="label"
            tick={{ fontSize: 11, fill: '#52525b' }}
            tickFormatter={tick}
            interval={0}
            {...(slant ? { angle: -30, textAnchor: 'end', height: 84 } : {})}
          />
          <YAxis
            domain={domain ?? (percent ? [0, 1] : ['auto', 'auto'])}
            tickFormatter={fmt}
            tick={{ fontSize: 11, fill: '#71717a' }}
            width={48}
          />
          <Tooltip
            formatter={(value, name, item) => {
              const key = String(item.dataKey);
              const ci = item.payload[`${key}_ci`] as [number, number] | null;
              const n = item.payload[`${key}_n`] as number;
              return [
                value === null || value === undefined
                  ? `— (n=${n})`
                  : `${fmt(Number(value))}${ci ? ` [${fmt(ci[0])}, ${fmt(ci[1])}]` : ''} n=${n}`,
                name,
              ];
            }}
          />
          {/* above the bars: slanted labels below would run into it */}
          <Legend verticalAlign="top" wrapperStyle={{ fontSize: 12, paddingBottom: 8 }} />
          {series.map((s) => (
            <Bar key={s.key} dataKey={s.key} name={s.label} fill={s.color} isAnimationActive={false}>
              <ErrorBar dataKey={`${s.key}_err`} width={6} strokeWidth={1.5} stroke="#18181b" isAnimationActive={false} />
            </Bar>
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
