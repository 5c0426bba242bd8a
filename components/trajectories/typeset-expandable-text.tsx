import { RichText } from '@/render/ui/rich-text';
import { COLLAPSED_CHARS, COLLAPSED_LINES, collapsedText } from './collapsed-text';
import { ExpandableText } from './expandable-text';

/**
 * Rich ExpandableText as a server component renders it: the server typesets the collapsed text
 * once and hands it to the client component (`typeset`), so hydration does not run Markdown and
 * KaTeX on it again (they were most of a long transcript page's hydration). With
 * `typesetWhenNear` nothing is typeset here: the browser typesets it when it comes near the view.
 */
export function TypesetExpandableText({
  text,
  maxLines = COLLAPSED_LINES,
  maxChars = COLLAPSED_CHARS,
  className,
  typesetWhenNear = false,
}: {
  text: string;
  maxLines?: number;
  maxChars?: number;
  className: string;
  typesetWhenNear?: boolean;
}) {
  return (
    <ExpandableText
      text={text}
      maxLines={maxLines}
      maxChars={maxChars}
      className={className}
      rich
      typesetWhenNear={typesetWhenNear}
      typeset={typesetWhenNear ? undefined : <RichText text={collapsedText(text, maxLines, maxChars).rich} />}
    />
  );
}
