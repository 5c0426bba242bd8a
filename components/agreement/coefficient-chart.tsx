'use client';

import { Bar, BarChart, CartesianGrid, Cell, ErrorBar, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ReliabilityBand } from '@/lib/stats/compute-agreement';
import { bandStyle } from './format';

export interface CoefficientBar {
  label: string;
  value: number | null;
  ci: [number, number] | null;
  band: ReliabilityBand;
}

/**
 * Alpha per question as horizontal bars with the bootstrap interval as whiskers, and the 0.667 /
 * 0.800 guide lines of Krippendorff's guidance. Undefined coefficients show as empty rows.
 */
export function CoefficientChart({ bars }: { bars: CoefficientBar[] }) {
  const data = bars.map((b) => ({
    label: b.label.length > 42 ? `${b.label.slice(0, 40)}…` : b.label,
    value: b.value ?? 0,
    shown: b.value,
    band: b.band,
    error: b.value !== null && b.ci ? [Math.max(0, b.value - b.ci[0]), Math.max(0, b.ci[1] - b.value)] : [0, 0],
    ci: b.ci,
  }));
  const min = Math.max(-1, Math.floor(Math.min(0, ...bars.map((b) => b.ci?.[0] ?? b.value ?? 0)) * 5) / 5);
  const ticks = Array.from({ length: Math.round((1 - min) * 5) + 1 }, (_, i) => Number((min + i * 0.2).toFixed(1)));
  return (
    <div className="h-full w-full" style={{ height: Math.max(160, 44 * bars.length + 60) }} data-testid="coefficient-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 20, right: 24, bottom: 8, left: 8 }}>
          <CartesianGrid horizontal={false} stroke="#e4e4e7" />
          <XAxis type="number" domain={[min, 1]} ticks={ticks} tick={{ fontSize: 12, fill: '#52525b' }} />
          <YAxis type="category" dataKey="label" width={220} tick={{ fontSize: 12, fill: '#27272a' }} />
          <Tooltip
            formatter={(_v, _n, p) => {
              const row = p.payload as (typeof data)[number];
              return [
                row.shown === null
                  ? 'undefined'
                  : `${row.shown.toFixed(3)} ${row.ci ? `(95% CI ${row.ci[0].toFixed(2)} – ${row.ci[1].toFixed(2)})` : ''}`,
                'alpha',
              ];
            }}
          />
          <ReferenceLine
            x={0.667}
            stroke="#d97706"
            strokeDasharray="4 3"
            label={{ value: '0.667', position: 'top', fontSize: 11, fill: '#b45309' }}
          />
          <ReferenceLine
            x={0.8}
            stroke="#059669"
            strokeDasharray="4 3"
            label={{ value: '0.800', position: 'top', fontSize: 11, fill: '#047857' }}
          />
          <Bar dataKey="value" barSize={18} isAnimationActive={false}>
            {data.map((d) => (
              <Cell key={d.label} fill={d.shown === null ? 'transparent' : bandStyle[d.band].fill} fillOpacity={0.85} />
            ))}
            <ErrorBar dataKey="error" width={6} strokeWidth={1.5} stroke="#18181b" direction="x" isAnimationActive={false} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
