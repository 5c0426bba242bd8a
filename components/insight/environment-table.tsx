import Link from 'next/link';
import type { EnvironmentReport } from '@/lib/insight/environment-report';
import { inert } from '@/components/ui/inert-text';
import { AgreementFigure, RateFigure, SeverityBadge } from './figures';

/** The ranked environment table: every rate with its 95% interval and n, and the reasons for each rank. */
export function EnvironmentTable({ report, project }: { report: EnvironmentReport; project: string }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-zinc-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 bg-zinc-50 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              #
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Environment
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Tasks / runs
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Verifier pass
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Reviewers pass
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Verifier vs humans
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Reviewers agree
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Reward hacking
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Answer leakage
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Teachable tasks
            </th>
          </tr>
        </thead>
        {report.map(({ rank, environment: e, reasons }) => (
          <tbody key={e.id} className="border-b border-zinc-200 align-top last:border-b-0" data-testid="environment-row">
            <tr>
              <td className="px-3 py-2 font-mono text-xs text-zinc-500">{rank}</td>
              <td className="px-3 py-2 font-medium text-zinc-900">
                <Link
                  className="hover:text-indigo-700 hover:underline"
                  href={`/insight/policies?project=${encodeURIComponent(project)}&env=${encodeURIComponent(e.name)}`}
                >
                  {inert(e.name)}
                </Link>
              </td>
              <td className="px-3 py-2 text-right font-mono text-xs tabular-nums text-zinc-600">
                {e.tasks} / {e.trajectories}
              </td>
              <td className="px-3 py-2 text-xs">
                <RateFigure p={e.verifierPass} />
              </td>
              <td className="px-3 py-2 text-xs">
                <RateFigure p={e.reviewerPass} />
              </td>
              <td className="px-3 py-2 text-xs">
                <AgreementFigure a={e.verifierAgreement} symbol="κ" />
              </td>
              <td className="px-3 py-2 text-xs">
                <AgreementFigure a={e.reviewerAgreement} symbol="α" />
              </td>
              <td className="px-3 py-2 text-xs">
                <RateFigure p={e.rewardHacking} />
              </td>
              <td className="px-3 py-2 text-xs">
                <RateFigure p={e.answerLeakage} />
              </td>
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
      </table>
    </div>
  );
}
