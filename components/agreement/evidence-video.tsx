'use client';

import { useRef } from 'react';
import type { TrajectoryVideoProps } from '@/lib/video/schema';
import { type PlayerHandle, TrajectoryPlayer } from '@/components/video/trajectory-player';
import { stepNumber } from '../ui/format';
import { RichText } from '@/render/ui/rich-text';

export interface EvidenceEntry {
  reviewer: string;
  frame: number;
  stepIndex: number | null;
  note: string;
  wrongStep?: boolean;
}

/** The item's video beside every reviewer's evidence notes; clicking a note seeks the video to its moment. */
export function EvidenceVideo({
  title,
  video,
  evidence,
}: {
  title: string;
  video: TrajectoryVideoProps | null;
  evidence: EvidenceEntry[];
}) {
  const player = useRef<PlayerHandle>(null);
  return (
    <section aria-label={title} className="rounded-xl border border-zinc-200 bg-white shadow-sm">
      <h2 className="border-b border-zinc-100 px-4 py-2 text-xs font-semibold uppercase tracking-wide text-zinc-500">{title}</h2>
      <div className="space-y-3 p-3">
        {video ? (
          <TrajectoryPlayer ref={player} video={video} compact />
        ) : (
          <p className="text-sm text-zinc-500">No video could be made for this trajectory.</p>
        )}
        <div>
          <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-500">Evidence notes ({evidence.length})</h3>
          {evidence.length === 0 ? (
            <p className="text-sm text-zinc-500">No reviewer pinned a note to the video.</p>
          ) : (
            <ul className="divide-y divide-zinc-100 text-sm" data-testid="evidence-notes">
              {evidence.map((e, i) => (
                <li key={i}>
                  <button
                    type="button"
                    disabled={!video}
                    onClick={() => player.current?.seekToFrame(e.frame)}
                    className="flex w-full items-start gap-3 px-1 py-1.5 text-left hover:bg-indigo-50/60 disabled:cursor-default"
                    aria-label={`Seek to frame ${e.frame}: ${e.note}`}
                  >
                    <span className="shrink-0 font-mono text-xs text-indigo-700">
                      ▶ {e.stepIndex === null ? `f${e.frame}` : `step ${stepNumber(e.stepIndex)}`}
                    </span>
                    <RichText text={e.note} inline className="min-w-0 flex-1 break-words text-zinc-800" />
                    <span className="shrink-0 text-xs text-zinc-500">
                      {e.reviewer}
                      {e.wrongStep ? <span className="ml-1 rounded bg-rose-50 px-1 text-rose-700">wrong step</span> : null}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
