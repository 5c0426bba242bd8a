import { cancelRender, continueRender, delayRender } from 'remotion';
import '../../fonts/fonts.css';
import 'katex/dist/katex.min.css';

/**
 * Fonts are local files declared with @font-face (render/fonts/fonts.css, KaTeX's own CSS) and
 * bundled by webpack (renderer) or Next (Player). Frames wait until the faces we draw with are
 * loaded, so the first frame rendered in any tab is already in the right font.
 */
const FACES = [
  "400 16px 'Witness Inter'",
  "600 16px 'Witness Inter'",
  "700 16px 'Witness Inter'",
  "400 16px 'Witness Mono'",
  "700 16px 'Witness Mono'",
  '400 16px KaTeX_Main',
  'italic 400 16px KaTeX_Math',
  '400 16px KaTeX_Size1',
  '400 16px KaTeX_Size2',
  '400 16px KaTeX_AMS',
];

let started = false;

export function ensureFonts(): void {
  if (started || typeof document === 'undefined' || !('fonts' in document)) return;
  started = true;
  const handle = delayRender('Loading local fonts');
  Promise.all(FACES.map((f) => document.fonts.load(f)))
    .then(() => continueRender(handle))
    .catch((err: unknown) => cancelRender(err instanceof Error ? err : new Error(String(err))));
}
