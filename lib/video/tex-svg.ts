import { getBoundingBox } from '@remotion/paths';
import { liteAdaptor, type LiteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import type { LiteElement, LiteNode } from 'mathjax-full/js/adaptors/lite/Element.js';
import type { MathDocument } from 'mathjax-full/js/core/MathDocument.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import 'mathjax-full/js/input/tex/ams/AmsConfiguration.js';
import 'mathjax-full/js/input/tex/amscd/AmsCdConfiguration.js';
import 'mathjax-full/js/input/tex/boldsymbol/BoldsymbolConfiguration.js';
import 'mathjax-full/js/input/tex/braket/BraketConfiguration.js';
import 'mathjax-full/js/input/tex/cases/CasesConfiguration.js';
import 'mathjax-full/js/input/tex/centernot/CenternotConfiguration.js';
import 'mathjax-full/js/input/tex/color/ColorConfiguration.js';
import 'mathjax-full/js/input/tex/extpfeil/ExtpfeilConfiguration.js';
import 'mathjax-full/js/input/tex/gensymb/GensymbConfiguration.js';
import 'mathjax-full/js/input/tex/mathtools/MathtoolsConfiguration.js';
import 'mathjax-full/js/input/tex/mhchem/MhchemConfiguration.js';
import 'mathjax-full/js/input/tex/textcomp/TextcompConfiguration.js';
import 'mathjax-full/js/input/tex/textmacros/TextMacrosConfiguration.js';
import 'mathjax-full/js/input/tex/upgreek/UpgreekConfiguration.js';
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { SVG } from 'mathjax-full/js/output/svg.js';
import { leafOfColor } from './equation-morph';
import type { EquationGlyphs, GlyphPath } from './schema';

/**
 * A display equation as SVG glyphs, typeset where the props are built (server, worker), never in
 * the browser: MathJax's TeX input and SVG output over its lite DOM. The equation's `morphTex`
 * (lib/video/equation-morph.ts) marks each morph leaf with `\textcolor{#fdXXXX}{…}`; MathJax puts
 * that colour on the leaf's group as `fill`, so every glyph and rule below it is the leaf's. The
 * tree is walked composing MathJax's own transforms (translate, scale), so a subscript sits where
 * MathJax set it, never where a browser measured it; the composition only draws the paths.
 *
 * Deterministic: the same TeX gives the same layout (no state is kept between equations: no
 * `\newcommand`, no equation numbers), and the glyph table is filled in the order equations are
 * typeset. An equation MathJax cannot typeset (an `merror`: an undefined macro, a TeX error) or
 * whose SVG this walker does not draw (text in a browser font, boxes, strikes) gives null: the
 * composition falls back to KaTeX for it.
 */

/** MathJax's units: 1000 to the em. Coordinates are kept to a tenth of a unit. */
export const GLYPH_UNITS_PER_EM = 1000;

/**
 * The TeX packages: those KaTeX's notation needs, not `newcommand`/`configmacros` (a definition
 * would outlive its equation), `html` (KaTeX runs untrusted), `noerrors`/`noundefined` (an error
 * must be an `merror`, the fallback's cue), `require`/`autoload` (no loading at run time).
 */
const PACKAGES = [
  'base',
  'ams',
  'amscd',
  'boldsymbol',
  'braket',
  'cases',
  'centernot',
  'color',
  'extpfeil',
  'gensymb',
  'mathtools',
  'mhchem',
  'textcomp',
  'textmacros',
  'upgreek',
];

interface Jax {
  adaptor: LiteAdaptor;
  doc: MathDocument<LiteNode, LiteNode, unknown>;
}
let jax: Jax | null = null;

function mathJax(): Jax {
  if (jax) return jax;
  const adaptor = liteAdaptor();
  RegisterHTMLHandler(adaptor);
  const doc = mathjax.document('', {
    // a TeX error is thrown out of convert (MathJax's default makes it an merror node, refused below all the same)
    InputJax: new TeX({ packages: PACKAGES, tags: 'none', formatError: (_jax: unknown, err: Error) => throwTexError(err) }),
    OutputJax: new SVG({ fontCache: 'none' }),
  }) as unknown as MathDocument<LiteNode, LiteNode, unknown>;
  jax = { adaptor, doc };
  return jax;
}

function throwTexError(err: Error): never {
  throw new Error(err.message);
}

/** The glyph paths of one scene: each `d` once, in the order first seen. */
export class GlyphTable {
  readonly paths: GlyphPath[] = [];
  private readonly index = new Map<string, number>();

  add(d: string): number {
    const known = this.index.get(d);
    if (known !== undefined) return known;
    const b = getBoundingBox(d);
    const i = this.paths.push({ d, box: [b.x1, b.y1, b.x2, b.y2].map(round) as [number, number, number, number] }) - 1;
    this.index.set(d, i);
    return i;
  }
}

/** An affine map [a, b, c, d, e, f]: (x, y) -> (a x + c y + e, b x + d y + f). */
type Affine = [number, number, number, number, number, number];
const IDENTITY: Affine = [1, 0, 0, 1, 0, 0];
const compose = (m: Affine, n: Affine): Affine => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];
const round = (v: number) => Math.round(v * 10) / 10 + 0;
/** scales to a thousandth (MathJax's script scales are 0.707 and 0.5) */
const roundScale = (v: number) => Math.round(v * 1000) / 1000 + 0;

/** An SVG transform list of translate / scale / matrix (what MathJax writes), null for any other. */
export function parseTransform(text: string | null): Affine | null {
  if (!text) return IDENTITY;
  let m = IDENTITY;
  const re = /\s*(translate|scale|matrix)\(([^)]*)\)\s*/gy;
  let at = 0;
  for (let hit = re.exec(text); hit; hit = re.exec(text)) {
    at = re.lastIndex;
    const v = hit[2]!
      .split(/[\s,]+/)
      .filter((s) => s !== '')
      .map(Number);
    if (v.some((x) => !Number.isFinite(x))) return null;
    let n: Affine;
    if (hit[1] === 'translate' && v.length >= 1 && v.length <= 2) n = [1, 0, 0, 1, v[0]!, v[1] ?? 0];
    else if (hit[1] === 'scale' && v.length >= 1 && v.length <= 2) n = [v[0]!, 0, 0, v[1] ?? v[0]!, 0, 0];
    else if (hit[1] === 'matrix' && v.length === 6) n = v as Affine;
    else return null;
    m = compose(m, n);
  }
  return at === text.length ? m : null;
}

const num = (el: LiteElement, name: string) => {
  const v = el.attributes[name];
  return v === undefined || v === '' ? 0 : Number(v);
};

/** Why an equation has no glyph layout (the fallback's reason, for tests and logs). */
export type GlyphFailure = { reason: string };

/** The equation's glyph layout, or why there is none. */
export function typesetGlyphsOrWhy(tex: string, table: GlyphTable): EquationGlyphs | GlyphFailure {
  const { adaptor, doc } = mathJax();
  let container: LiteElement;
  try {
    container = doc.convert(tex, { display: true }) as LiteElement;
  } catch (e) {
    return { reason: e instanceof Error ? `TeX: ${e.message}` : 'TeX error' };
  }
  const svg = adaptor.firstChild(container) as LiteElement | null;
  if (!svg || adaptor.kind(svg) !== 'svg') return { reason: 'no svg' };
  const box: number[] = String(svg.attributes.viewBox ?? '')
    .split(/\s+/)
    .map(Number);
  if (box.length !== 4 || box.some((v) => !Number.isFinite(v))) return { reason: 'no viewBox' };
  // paths go into the table only once the whole equation is drawn: a refused one leaves nothing behind
  const glyphs: Array<[number, string, number, number, number, number]> = [];
  const rules: EquationGlyphs['rules'] = [];
  let failure: string | null = null;
  const walk = (el: LiteElement, m: Affine, leaf: number) => {
    if (failure) return;
    const kind = adaptor.kind(el);
    const t = parseTransform(el.attributes.transform ?? null);
    if (!t) return void (failure = `transform ${el.attributes.transform}`);
    const here = compose(m, t);
    if (here[1] !== 0 || here[2] !== 0) return void (failure = 'rotated');
    const fill = el.attributes.fill;
    const marked = typeof fill === 'string' ? leafOfColor(fill) : null;
    const inLeaf = marked ?? leaf;
    if (el.attributes['data-mml-node'] === 'merror') return void (failure = 'merror');
    if (kind === 'g') {
      for (const c of adaptor.childNodes(el))
        if (adaptor.kind(c) !== '#text' && adaptor.kind(c) !== '#comment') walk(c as LiteElement, here, inLeaf);
    } else if (kind === 'path') {
      const d = el.attributes.d;
      if (typeof d !== 'string' || d === '') return;
      glyphs.push([inLeaf, d, round(here[4]), round(here[5]), roundScale(here[0]), roundScale(here[3])]);
    } else if (kind === 'rect') {
      const [x, y, w, h] = [num(el, 'x'), num(el, 'y'), num(el, 'width'), num(el, 'height')];
      // a filled rule, through the map (its corners: a scale may flip them)
      const rule = (rx: number, ry: number, rw: number, rh: number) => {
        const xs = [here[0] * rx + here[4], here[0] * (rx + rw) + here[4]];
        const ys = [here[3] * ry + here[5], here[3] * (ry + rh) + here[5]];
        const [x1, x2] = [Math.min(...xs), Math.max(...xs)];
        const [y1, y2] = [Math.min(...ys), Math.max(...ys)];
        rules.push([inLeaf, round(x1), round(y1), round(x2 - x1), round(y2 - y1)]);
      };
      if (fill !== 'none') return rule(x, y, w, h);
      // a frame (\boxed): its stroke, centred on the edges, as four rules
      const sw = num(el, 'stroke-width');
      if (!(sw > 0)) return void (failure = 'unstroked frame');
      rule(x - sw / 2, y - sw / 2, w + sw, sw);
      rule(x - sw / 2, y + h - sw / 2, w + sw, sw);
      rule(x - sw / 2, y + sw / 2, sw, h - sw);
      rule(x + w - sw / 2, y + sw / 2, sw, h - sw);
    } else failure = `<${kind}>`;
  };
  // the outer group flips MathJax's y-up font units: its scale(1,-1) is composed like any other
  for (const c of adaptor.childNodes(svg)) if (adaptor.kind(c) !== '#text') walk(c as LiteElement, IDENTITY, -1);
  if (failure) return { reason: failure };
  return {
    box: box.map(round) as [number, number, number, number],
    glyphs: glyphs.map(([leaf, d, ...at]) => [leaf, table.add(d), ...at]),
    rules,
  };
}

/** The equation's glyph layout, null when MathJax cannot typeset it or draws something the composition does not (then KaTeX draws it). */
export function typesetGlyphs(tex: string, table: GlyphTable): EquationGlyphs | null {
  const out = typesetGlyphsOrWhy(tex, table);
  return 'reason' in out ? null : out;
}
