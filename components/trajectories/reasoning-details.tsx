'use client';

import { useState } from 'react';
import { formatCount } from '../../lib/video/text';
import { inert } from '@/lib/rich-text/inert-text';
import { RichText } from '@/render/ui/rich-text';
import { MarkedText } from './marked-text';

/**
 * A step's reasoning, collapsed: typeset (Markdown + maths) when it is first opened; while
 * closed its plain text is in the page (find-in-page still reaches it), never typeset for nothing.
 */
export function ReasoningDetails({ text }: { text: string }) {
  const [opened, setOpened] = useState(false);
  return (
    <details
      className="group rounded-md border border-dashed border-zinc-300 bg-zinc-50/60"
      onToggle={(e) => {
        if (e.currentTarget.open) setOpened(true);
      }}
    >
      <summary className="cursor-pointer select-none px-3 py-1.5 text-xs font-medium text-zinc-600 hover:text-zinc-900">
        Reasoning <span className="font-normal text-zinc-400">({formatCount(text.length)} characters)</span>
      </summary>
      <div className="border-t border-dashed border-zinc-300 px-3 py-2 text-sm italic text-zinc-600">
        {opened ? (
          <RichText text={text} />
        ) : (
          <p className="whitespace-pre-wrap break-words">
            <MarkedText text={inert(text)} />
          </p>
        )}
      </div>
    </details>
  );
}
