import { markUnicodeMaths } from '../../lib/rich-text/unicode-maths';
import { RichText } from './rich-text';

/**
 * A task criterion's text as the video's criteria rail shows it: Markdown and TeX typeset, and
 * maths written in Unicode ("ω = √(g/R − Ω²)") typeset like TeX (lib/rich-text/unicode-maths.ts),
 * so the page and the video read a criterion the same way (issue 43 §3).
 */
export function CriterionText({ text, className }: { text: string; className?: string }) {
  return <RichText text={markUnicodeMaths(text)} inline className={className} />;
}
