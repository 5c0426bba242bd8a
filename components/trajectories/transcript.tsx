import type { TrajectoryStep } from '@/lib/trajectories/queries/trajectory-queries';
import { ExpandableText } from './expandable-text';
import { ReasoningDetails } from './reasoning-details';
import { TypesetExpandableText } from './typeset-expandable-text';
import { formatTime, stepNumber } from '../ui/format';
import { formatCount } from '../../lib/video/text';
import { inert, prettyJson } from '@/lib/rich-text/inert-text';
import { toolCallCode } from '@/lib/video/tool-call-code';
import { CodeListing } from '@/render/ui/code-listing';

/** Who acted: one colour each, used for the step's left rule and its label. */
const sourceStyle: Record<TrajectoryStep['source'], { label: string; rule: string; chip: string }> = {
  system: { label: 'System', rule: 'border-l-zinc-400', chip: 'bg-zinc-100 text-zinc-700 ring-zinc-300' },
  user: { label: 'User', rule: 'border-l-sky-500', chip: 'bg-sky-50 text-sky-800 ring-sky-200' },
  agent: { label: 'Agent', rule: 'border-l-indigo-500', chip: 'bg-indigo-50 text-indigo-800 ring-indigo-200' },
  tool: { label: 'Tool', rule: 'border-l-amber-500', chip: 'bg-amber-50 text-amber-800 ring-amber-200' },
  environment: { label: 'Environment', rule: 'border-l-emerald-500', chip: 'bg-emerald-50 text-emerald-800 ring-emerald-200' },
  hook: { label: 'Hook', rule: 'border-l-fuchsia-500', chip: 'bg-fuchsia-50 text-fuchsia-800 ring-fuchsia-200' },
  unknown: { label: 'Unknown', rule: 'border-l-rose-400', chip: 'bg-rose-50 text-rose-800 ring-rose-200' },
};

const monoBlock = 'max-h-none overflow-x-auto whitespace-pre-wrap break-words rounded-md px-3 py-2 font-mono text-xs leading-relaxed';

/**
 * Steps of a page typeset in the server render (TypesetExpandableText, so hydration does not
 * typeset them again); the later ones are typeset in the browser as they come near the
 * view (ExpandableText's typesetWhenNear): Markdown + KaTeX of 50 steps was most of a long run's
 * server render, cold, and of its hydration.
 */
const TYPESET_ON_SERVER = 10;

/**
 * The most characters of one text (a message, reasoning, a call's arguments, an output) the page
 * embeds: its expandable view carries the text whole, so a step of 50 MB of text sent 50 MB of
 * HTML and as much again in the hydration data (10 s). Past it the text is cut and says how
 * much is left out; the whole step is in the raw source (the Source tab).
 */
export const PAGE_TEXT_MAX_CHARS = 100_000;

/** A text as the page embeds it: whole up to PAGE_TEXT_MAX_CHARS, else its start and what was left out. */
export function pageText(text: string): string {
  if (text.length <= PAGE_TEXT_MAX_CHARS) return text;
  return `${text.slice(0, PAGE_TEXT_MAX_CHARS)}\n… (${formatCount(text.length - PAGE_TEXT_MAX_CHARS)} more characters not shown here: the whole step is in the Source tab)`;
}

function Step({ step, typesetWhenNear }: { step: TrajectoryStep; typesetWhenNear: boolean }) {
  const style = sourceStyle[step.source];
  const tokens = step.usage ? (step.usage.promptTokens ?? 0) + (step.usage.completionTokens ?? 0) : 0;
  return (
    <li
      id={`step-${step.index}`}
      data-testid="step"
      // content-visibility: a step out of view is neither laid out nor painted until it comes near (a
      // long run's 50 steps were most of the page's layout and paint, while its video starts)
      className={`scroll-mt-20 rounded-lg border border-zinc-200 border-l-4 bg-white shadow-sm [contain-intrinsic-size:auto_14rem] [content-visibility:auto] ${style.rule}`}
    >
      <div className="flex flex-wrap items-center gap-2 border-b border-zinc-100 px-4 py-1.5 text-xs">
        <a
          href={`#step-${step.index}`}
          className="font-mono text-zinc-400 hover:text-indigo-700"
          aria-label={`Step ${stepNumber(step.index)}`}
        >
          #{stepNumber(step.index)}
        </a>
        <span className={`rounded px-1.5 py-0.5 font-semibold ring-1 ring-inset ${style.chip}`}>{style.label}</span>
        <button
          type="button"
          data-seek-step={step.index}
          className="rounded px-1.5 py-0.5 text-indigo-700 hover:bg-indigo-50"
          aria-label={`Play step ${stepNumber(step.index)} in the video`}
        >
          ▶ video
        </button>
        {step.toolCalls.length > 0 ? (
          <span className="text-zinc-500">{step.toolCalls.length === 1 ? '1 tool call' : `${step.toolCalls.length} tool calls`}</span>
        ) : null}
        <span className="ml-auto flex items-center gap-3 font-mono text-zinc-400">
          {tokens > 0 ? <span title="prompt + completion tokens">{formatCount(tokens)} tok</span> : null}
          {step.castTime !== null ? <span title="seconds into the terminal recording">{step.castTime.toFixed(1)}s</span> : null}
          {step.timestamp ? (
            <time dateTime={step.timestamp} title={step.timestamp}>
              {formatTime(step.timestamp)}
            </time>
          ) : null}
        </span>
      </div>
      <div className="space-y-3 px-4 py-3">
        {step.text !== '' ? (
          <TypesetExpandableText
            text={pageText(step.text)}
            maxLines={40}
            maxChars={6000}
            className="text-sm text-zinc-800"
            typesetWhenNear={typesetWhenNear}
          />
        ) : null}
        {step.reasoning ? <ReasoningDetails text={pageText(step.reasoning)} /> : null}
        {step.toolCalls.map((call, i) => (
          <div key={i} className="rounded-md border border-indigo-100 bg-indigo-50/40" data-testid="tool-call">
            <div className="flex items-center gap-2 px-3 py-1 text-xs">
              <span className="font-mono font-semibold text-indigo-800">{inert(call.name)}</span>
              {call.id ? <span className="font-mono text-[11px] text-zinc-400">{inert(call.id)}</span> : null}
            </div>
            {toolCallCode(call.name, call.arguments) ? (
              <CallCode name={call.name} args={call.arguments} />
            ) : call.arguments !== undefined && call.arguments !== null && prettyJson(call.arguments) !== '{}' ? (
              <ExpandableText
                text={inert(pageText(prettyJson(call.arguments)))}
                className={`${monoBlock} rounded-t-none border-t border-indigo-100 bg-white text-zinc-800`}
              />
            ) : null}
          </div>
        ))}
        {step.observations.map((obs, i) => (
          <div key={i} data-testid="observation">
            <div className="mb-1 flex items-center gap-2 text-[11px] font-medium uppercase tracking-wide text-zinc-500">
              {obs.isError ? <span className="text-rose-700">Error output</span> : <span>Output</span>}
              {obs.toolCallId ? (
                <span className="font-mono normal-case tracking-normal text-zinc-400">→ {inert(obs.toolCallId)}</span>
              ) : null}
            </div>
            <ExpandableText
              text={obs.content === '' ? '(no output)' : inert(pageText(obs.content))}
              className={`${monoBlock} ${obs.isError ? 'bg-rose-950 text-rose-50 ring-1 ring-rose-500' : 'bg-zinc-900 text-zinc-100'}`}
            />
          </div>
        ))}
        {step.text === '' && !step.reasoning && step.toolCalls.length === 0 && step.observations.length === 0 ? (
          <p className="text-xs italic text-zinc-400">Empty step.</p>
        ) : null}
      </div>
    </li>
  );
}

/** Every step in order. Text is untrusted: text nodes only, control characters made visible. */
export function Transcript({ steps }: { steps: TrajectoryStep[] }) {
  if (steps.length === 0)
    return (
      <p className="rounded-lg border border-dashed border-zinc-300 bg-white p-6 text-sm text-zinc-500">This trajectory has no steps.</p>
    );
  return (
    <ol className="space-y-3" aria-label="Transcript">
      {steps.map((s, i) => (
        <Step key={s.index} step={s} typesetWhenNear={i >= TYPESET_ON_SERVER} />
      ))}
    </ol>
  );
}

/** A tool call that runs a program (lib/video/tool-call-code.ts): its source highlighted with line numbers, the other arguments under it. */
function CallCode({ name, args }: { name: string; args: unknown }) {
  const code = toolCallCode(name, args);
  if (!code) return null;
  return (
    <div data-testid="tool-call-code">
      <CodeListing code={inert(pageText(code.code))} language={code.language} className="px-3 py-2 font-mono text-xs leading-relaxed" />
      {Object.keys(code.rest).length > 0 ? (
        <pre className={`${monoBlock} rounded-t-none border-t border-indigo-100 bg-white text-zinc-800`}>
          {inert(prettyJson(code.rest))}
        </pre>
      ) : null}
    </div>
  );
}
