import { inert } from '@/lib/rich-text/inert-text';

function lineClass(line: string): string {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index '))
    return 'text-zinc-500 font-semibold';
  if (line.startsWith('@@')) return 'text-indigo-700 bg-indigo-50';
  if (line.startsWith('+')) return 'bg-emerald-50 text-emerald-900';
  if (line.startsWith('-')) return 'bg-rose-50 text-rose-900';
  return 'text-zinc-700';
}

/** The final patch or answer; unified diffs get +/- colouring, anything else is plain text. */
export function SubmissionDiff({ submission }: { submission: string }) {
  const text = inert(submission);
  const isDiff = /^(diff --git|--- |\+\+\+ |@@ )/m.test(text);
  if (!isDiff)
    return (
      <pre className="whitespace-pre-wrap break-words rounded-lg border border-zinc-200 bg-white p-4 font-mono text-xs text-zinc-800">
        {text}
      </pre>
    );
  const lines = text.split('\n');
  const shown = lines.slice(0, 5000);
  return (
    <div className="overflow-x-auto rounded-lg border border-zinc-200 bg-white py-2">
      <pre className="font-mono text-xs leading-5">
        {shown.map((line, i) => (
          <div key={i} className={`px-4 ${lineClass(line)}`}>
            {line === '' ? ' ' : line}
          </div>
        ))}
      </pre>
      {lines.length > shown.length ? (
        <p className="px-4 pt-2 text-xs text-zinc-500">… {lines.length - shown.length} more lines (see the raw source).</p>
      ) : null}
    </div>
  );
}
