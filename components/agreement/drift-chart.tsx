'use client';

import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

const palette = ['#4f46e5', '#0891b2', '#c026d3', '#ea580c', '#16a34a', '#64748b', '#dc2626', '#ca8a04'];

/** Alpha per chronological batch of items, one line per question, with the guide lines. */
export function DriftChart({
  batches,
  questions,
}: {
  batches: { label: string; alpha: Record<string, number | null> }[];
  questions: { key: string; label: string }[];
}) {
  const data = batches.map((b) => ({ label: b.label, ...b.alpha }));
  const values = batches.flatMap((b) => Object.values(b.alpha)).filter((v): v is number => typeof v === 'number');
  const min = Math.max(-1, Math.floor(Math.min(0, ...values) * 5) / 5);
  const ticks = Array.from({ length: Math.round((1 - min) * 5) + 1 }, (_, i) => Number((min + i * 0.2).toFixed(1)));
  const shown = questions
    .filter((q) => batches.some((b) => b.alpha[q.key] !== null && b.alpha[q.key] !== undefined))
    .slice(0, palette.length);
  return (
    <div style={{ height: 280 }} data-testid="drift-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 12, right: 24, bottom: 8, left: 0 }}>
          <CartesianGrid stroke="#e4e4e7" />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#52525b' }} />
          <YAxis domain={[min, 1]} ticks={ticks} tick={{ fontSize: 12, fill: '#52525b' }} />
          <Tooltip formatter={(v) => (typeof v === 'number' ? v.toFixed(3) : '—')} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <ReferenceLine y={0.667} stroke="#d97706" strokeDasharray="4 3" />
          <ReferenceLine y={0.8} stroke="#059669" strokeDasharray="4 3" />
          {shown.map((q, i) => (
            <Line
              key={q.key}
              type="monotone"
              dataKey={q.key}
              name={q.label.length > 30 ? `${q.label.slice(0, 28)}…` : q.label}
              stroke={palette[i]}
              strokeWidth={2}
              dot={{ r: 3 }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
