import { IntentLink } from '@/components/ui/intent-link';
import type { EnvironmentReport } from '@/lib/insight/environment-report';
import { inert } from '@/lib/rich-text/inert-text';
import { DataTable } from '@/components/ui/table';
import { AgreementCell, RateCell, RateFigure, SeverityBadge } from './figures';

/** The ranked environment table: every rate with its 95% interval and n, and the reasons for each rank. */
export function EnvironmentTable({ report, project }: { report: EnvironmentReport; project: string }) {
  return (
    <DataTable
      groups
      columns={[
        '#',
        'Environment',
        { label: 'Tasks / runs', className: 'px-3 py-2 text-right' },
        'Verifier pass',
        'Reviewers pass',
        'Verifier vs humans',
        'Reviewers agree',
        'Reward hacking',
        'Answer leakage',
        'Teachable tasks',
      ]}
    >
      {report.map(({ rank, environment: e, reasons }) => (
        <tbody key={e.id} className="border-b border-zinc-200 align-top last:border-b-0" data-testid="environment-row">
          <tr>
            <td className="px-3 py-2 font-mono text-xs text-zinc-500">{rank}</td>
            <td className="px-3 py-2 font-medium text-zinc-900">
              <IntentLink
                className="hover:text-indigo-700 hover:underline"
                href={`/insight/policies?project=${encodeURIComponent(project)}&env=${encodeURIComponent(e.name)}`}
              >
                {inert(e.name)}
              </IntentLink>
            </td>
            <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-600">
              {e.tasks} / {e.trajectories}
            </td>
            <RateCell p={e.verifierPass} />
            <RateCell p={e.reviewerPass} />
            <AgreementCell a={e.verifierAgreement} symbol="κ" />
            <AgreementCell a={e.reviewerAgreement} symbol="α" />
            <RateCell p={e.rewardHacking} />
            <RateCell p={e.answerLeakage} />
            <td className="px-3 py-2 text-xs">
              <RateFigure p={e.teachability.teachable} />
              <div className="mt-0.5 text-[11px] text-zinc-400">
                {e.teachability.alwaysSolved} always · {e.teachability.neverSolved} never
              </div>
            </td>
          </tr>
          <tr>
            <td />
            <td colSpan={9} className="px-3 pb-3 pt-0 text-xs">
              <span className="mr-2 font-medium text-zinc-500">Why rank {rank}:</span>
              <ul className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
                {reasons.map((r) => (
                  <li key={r.text} className="flex items-start gap-1.5">
                    <SeverityBadge severity={r.severity} />
                    <span className="text-zinc-700">{r.text}</span>
                  </li>
                ))}
                {reasons.length === 0 ? <li className="text-zinc-400">no data yet</li> : null}
              </ul>
            </td>
          </tr>
        </tbody>
      ))}
    </DataTable>
  );
}
