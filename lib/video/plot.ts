import { ComputeEngine } from '@cortex-js/compute-engine';
import type { AnswerPlot } from './schema';

/**
 * Plots of a final answer. The LaTeX is parsed to MathJSON by the Compute Engine's standalone
 * parser (`@cortex-js/compute-engine/latex-syntax`: ~0.1 s to load, no engine instance); this
 * file evaluates the small numeric subset of MathJSON a closed-form physics answer uses
 * (arithmetic, powers and roots, trigonometric, hyperbolic, exponential and logarithmic
 * functions, absolute value, degrees, π and e) and samples it. Pure and deterministic.
 *
 * A formula is plotted when, once the values the task or the run gives are put in (`m = 0.5\,
 * \mathrm{kg}`, `\gamma = b/2m`, `\omega_d = \sqrt{k/m-\gamma^2}`), exactly one symbol is left and
 * the text gives its range (`0 \le t \le 10`, `t \in [0, 10]`). Anything else (a piecewise
 * answer, a function we do not evaluate, no range) gives no plot, never an error. Values are
 * read as written; an SI prefix on a simple unit (`\mathrm{ms}`, `\mu\mathrm{F}`) is applied.
 */

type Json = unknown;
class NotEvaluable extends Error {}

const SAMPLES = 240;

let computeEngine: ComputeEngine | undefined;
/** One engine for the process, made on the first parse (not at import: the video props import this file). */
function engine(): ComputeEngine {
  computeEngine ??= new ComputeEngine();
  return computeEngine;
}

/**
 * Parses LaTeX to MathJSON; null when the parser gives up or reports an error inside.
 * Compute Engine 0.27 (the newest that runs on Node 20) is steered to the shapes this file reads:
 * an unbraced subscript (`x_0 e^{t}`, `\omega_d t`) would take the rest of the formula as its
 * index, so subscripts are braced first and `["At", "x", 0]` becomes the symbol `x_0`; every
 * `\mathrm{...}` becomes a placeholder symbol, read back as `["__unit__", text]` (compound units
 * such as `N/m` as `["__unit__", ["Compound", text]]`); `x \in [a, b]` becomes an Interval.
 */
export function parseTex(tex: string): Json | null {
  const units: string[] = [];
  const prepared = tex
    .replace(/\\mathrm\{([^{}]*)\}/g, (_, unit: string) => `\\operatorname{witnessunit${units.push(unit) - 1}}`)
    .replace(/_([A-Za-z0-9])/g, '_{$1}');
  let json: Json;
  try {
    json = normalise(engine().parse(prepared, { canonical: false }).json, units);
  } catch {
    return null;
  }
  if (json === null || JSON.stringify(json).includes('"Error"')) return null;
  return json;
}

function normalise(j: Json, units: readonly string[]): Json {
  if (typeof j === 'string') {
    const unit = /^witnessunit(\d+)$/.exec(j);
    if (!unit) return j;
    const text = units[Number(unit[1])]!.replace(/\\Omega/g, 'Omega').replace(/\\mu|µ|μ/g, 'u');
    return ['__unit__', /^[A-Za-z]+$/.test(text) ? text : ['Compound', text]];
  }
  if (!Array.isArray(j)) return j;
  if (j[0] === 'At' && j.length === 3 && typeof j[1] === 'string' && (typeof j[2] === 'string' || typeof j[2] === 'number'))
    return `${j[1]}_${j[2]}`;
  const out = j.map((part) => normalise(part, units));
  if (out[0] === 'Element' && Array.isArray(out[2]) && out[2][0] === 'List' && out[2].length === 3)
    return ['Element', out[1], ['Interval', out[2][1], out[2][2]]];
  return out;
}

/** MathJSON symbol names as we key values: \gamma parses as Euler's constant, but in physics it is a variable. */
function symbolName(s: string): string {
  return s === 'EulerGamma' ? 'gamma' : s;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function numberOf(j: Json): number | null {
  if (typeof j === 'number') return j;
  if (isRecord(j) && typeof j.num === 'string') {
    const v = Number(j.num.replace(/\.\.\.$/, ''));
    return Number.isFinite(v) ? v : null;
  }
  return null;
}

const PREFIX: Record<string, number> = { k: 1e3, M: 1e6, G: 1e9, m: 1e-3, c: 1e-2, u: 1e-6, µ: 1e-6, μ: 1e-6, n: 1e-9, p: 1e-12 };
const BASE_UNITS = new Set(['m', 's', 'g', 'A', 'V', 'F', 'H', 'Hz', 'N', 'J', 'W', 'K', 'C', 'Omega', 'Pa', 'eV', 'rad', 'T']);

/** The SI factor of a unit written after a number; 1 for anything compound or unknown. */
function unitScale(u: Json): number {
  if (!Array.isArray(u) || u[0] !== '__unit__' || typeof u[1] !== 'string') return 1;
  const name = u[1];
  if (name === 'kg') return 1;
  if (name === 'g') return 1e-3;
  if (BASE_UNITS.has(name)) return 1;
  const p = PREFIX[name[0]!];
  return p !== undefined && BASE_UNITS.has(name.slice(1)) ? (name.slice(1) === 'g' ? p * 1e-3 : p) : 1;
}

function isUnitish(j: Json): boolean {
  return (
    (Array.isArray(j) && j[0] === '__unit__') ||
    j === 'mu' ||
    (typeof j === 'string' && j !== 'm' && j !== 's' && /^[kMGmcunp]?(Omega|Hz|[mgsAVFHNJWKC])$/.test(j))
  );
}

/** A number followed by units (`0.5\,\mathrm{kg}`, `100\,\mu\mathrm{F}`), as an SI value; null otherwise. */
function quantity(j: Json): number | null {
  const n = numberOf(j);
  if (n !== null) return n;
  if (Array.isArray(j) && j[0] === 'InvisibleOperator' && j.length >= 3) {
    const v = numberOf(j[1]);
    const rest = j.slice(2);
    if (v === null || !rest.every(isUnitish)) return null;
    let scale = 1;
    for (const r of rest) {
      if (r === 'mu') scale *= 1e-6;
      else if (typeof r === 'string') scale *= r === 'Omega' ? 1 : (PREFIX[r[0]!] ?? 1);
      else scale *= unitScale(r);
    }
    return v * scale;
  }
  if (Array.isArray(j) && j[0] === 'Negate') {
    const v = quantity(j[1]);
    return v === null ? null : -v;
  }
  return null;
}

const FUNCTIONS: Record<string, (x: number) => number> = {
  Sin: Math.sin,
  Cos: Math.cos,
  Tan: Math.tan,
  Sec: (x) => 1 / Math.cos(x),
  Csc: (x) => 1 / Math.sin(x),
  Cot: (x) => 1 / Math.tan(x),
  Arcsin: Math.asin,
  Arccos: Math.acos,
  Arctan: Math.atan,
  Sinh: Math.sinh,
  Cosh: Math.cosh,
  Tanh: Math.tanh,
  Exp: Math.exp,
  Ln: Math.log,
  Log: Math.log10,
  Lb: Math.log2,
  Abs: Math.abs,
  Sqrt: Math.sqrt,
};

/** Evaluates MathJSON with the given values; throws NotEvaluable for anything outside the subset. */
function evaluate(j: Json, env: ReadonlyMap<string, number>): number {
  const n = numberOf(j);
  if (n !== null) return n;
  if (typeof j === 'string') {
    const name = symbolName(j);
    const v = env.get(name);
    if (v !== undefined) return v;
    if (name === 'Pi') return Math.PI;
    if (name === 'ExponentialE' || name === 'e') return Math.E;
    throw new NotEvaluable(`unknown symbol ${name}`);
  }
  if (!Array.isArray(j) || typeof j[0] !== 'string') throw new NotEvaluable('not an expression');
  const [head, ...args] = j as [string, ...Json[]];
  const ev = (k: number) => evaluate(args[k], env);
  switch (head) {
    case 'Add':
      return args.reduce<number>((s, a) => s + evaluate(a, env), 0);
    case 'Subtract':
      return args.length === 1 ? -ev(0) : ev(0) - args.slice(1).reduce<number>((s, a) => s + evaluate(a, env), 0);
    case 'Negate':
      return -ev(0);
    case 'Multiply':
    case 'InvisibleOperator':
      if (head === 'InvisibleOperator' && typeof args[0] === 'string' && Array.isArray(args[1]) && args[1][0] === 'Delimiter') {
        // f(x) with an unknown f is a function call, not a product (V_0(…) with V_0 known is a product)
        if (!env.has(symbolName(args[0])) && !/^(Pi|ExponentialE|e)$/.test(args[0])) throw new NotEvaluable(`function ${args[0]}`);
      }
      return args.reduce<number>((p, a) => p * evaluate(a, env), 1);
    case 'Divide':
    case 'Rational':
      return ev(0) / ev(1);
    case 'Power':
      return Math.pow(args[0] === 'e' && !env.has('e') ? Math.E : ev(0), ev(1));
    case 'Root':
      return Math.pow(ev(0), 1 / ev(1));
    case 'Square':
      return ev(0) ** 2;
    case 'Delimiter':
      if (args.length !== 1) throw new NotEvaluable('a list');
      return ev(0);
    case 'Degrees':
      return (ev(0) * Math.PI) / 180;
    case 'Half':
      return ev(0) / 2;
    default: {
      const f = FUNCTIONS[head];
      if (f && args.length === 1) return f(ev(0));
      if (head === 'Log' && args.length === 2) return Math.log(ev(0)) / Math.log(ev(1));
      throw new NotEvaluable(`unsupported ${head}`);
    }
  }
}

/** Symbols an expression uses (MathJSON names, \gamma as gamma), constants left out. */
function symbolsIn(j: Json, out = new Set<string>()): Set<string> {
  if (typeof j === 'string') {
    if (!/^(Pi|ExponentialE|e|Nothing)$/.test(j)) out.add(symbolName(j));
  } else if (Array.isArray(j)) {
    const [head, ...args] = j as [unknown, ...Json[]];
    if (head === '__unit__') return out;
    // a head that is a symbol applied to a bracket (V_0(…)) uses that symbol
    if (typeof head !== 'string') symbolsIn(head, out);
    for (const a of args) symbolsIn(a, out);
  }
  return out;
}

/** `a = b = c` and `a \approx b` as one chain of members; null when not an equation. */
function equationChain(j: Json): Json[] | null {
  if (!Array.isArray(j) || (j[0] !== 'Equal' && j[0] !== 'Approx')) return null;
  const out: Json[] = [];
  for (const side of j.slice(1)) {
    const inner = equationChain(side);
    if (inner) out.push(...inner);
    else out.push(side);
  }
  return out;
}

/** The name of an equation's left side: `x`, `x(t)` (with its variable), `\omega_d`. */
function lhsName(j: Json): { name: string; variable: string | null } | null {
  if (typeof j === 'string' && !/^(Pi|ExponentialE)$/.test(j)) return { name: symbolName(j), variable: null };
  if (
    Array.isArray(j) &&
    j[0] === 'InvisibleOperator' &&
    j.length === 3 &&
    typeof j[1] === 'string' &&
    Array.isArray(j[2]) &&
    j[2][0] === 'Delimiter' &&
    typeof j[2][1] === 'string' &&
    j[2].length === 2
  )
    return { name: symbolName(j[1]), variable: symbolName(j[2][1]) };
  if (Array.isArray(j) && typeof j[0] === 'string' && j.length === 2 && typeof j[1] === 'string' && !(j[0] in FUNCTIONS))
    return { name: symbolName(j[0]), variable: symbolName(j[1]) };
  return null;
}

export interface KnownValues {
  values: Map<string, number>;
  /** the equations the values came from, as written */
  given: Map<string, string>;
  ranges: Map<string, { from: number; to: number; tex: string }>;
}

/**
 * Values and ranges written in maths: `sym = quantity` (task first, then the run; the first
 * wins), `sym = expr` whose expr evaluates with the values so far (derived values, resolved in
 * rounds), `a \le x \le b` / `a < x < b` / `x \in [a, b]`.
 */
export function knownValues(maths: readonly string[]): KnownValues {
  const values = new Map<string, number>();
  const given = new Map<string, string>();
  const ranges = new Map<string, { from: number; to: number; tex: string }>();
  const definitions: Array<{ name: string; sides: Json[]; tex: string }> = [];
  for (const tex of maths) {
    // one formula may hold several statements: "m = 0.5, \quad k = 20"
    for (const part of tex.split(/\\quad|\\qquad|;|,\s*(?=\\?[a-zA-Z]+(?:_\{?\w+\}?)?\s*=)/)) {
      const piece = part.trim().replace(/[.,]$/, '');
      if (piece === '') continue;
      const j = parseTex(piece);
      if (j === null) continue;
      if (Array.isArray(j) && (j[0] === 'LessEqual' || j[0] === 'Less') && j.length === 4) {
        const lo = quantity(j[1]);
        const hi = quantity(j[3]);
        if (typeof j[2] === 'string' && lo !== null && hi !== null && hi > lo && !ranges.has(symbolName(j[2])))
          ranges.set(symbolName(j[2]), { from: lo, to: hi, tex: piece });
        continue;
      }
      if (Array.isArray(j) && j[0] === 'Element' && typeof j[1] === 'string' && Array.isArray(j[2]) && j[2][0] === 'Interval') {
        let lo: number | null = null;
        let hi: number | null = null;
        try {
          lo = evaluate(j[2][1], new Map());
          hi = evaluate(j[2][2], new Map());
        } catch {
          /* not numeric */
        }
        if (lo !== null && hi !== null && hi > lo && !ranges.has(symbolName(j[1])))
          ranges.set(symbolName(j[1]), { from: lo, to: hi, tex: piece });
        continue;
      }
      const chain = equationChain(j);
      if (!chain || chain.length < 2) continue;
      const lhs = lhsName(chain[0]);
      if (!lhs || lhs.variable !== null) continue;
      const q = chain
        .slice(1)
        .map(quantity)
        .find((v) => v !== null);
      if (q !== undefined && q !== null) {
        if (!values.has(lhs.name)) {
          values.set(lhs.name, q);
          given.set(lhs.name, piece);
        }
      } else definitions.push({ name: lhs.name, sides: chain.slice(1), tex: piece });
    }
  }
  // derived values, in rounds, until nothing new evaluates
  for (let round = 0; round < 6; round++) {
    let added = false;
    for (const d of definitions) {
      if (values.has(d.name)) continue;
      for (const side of d.sides) {
        try {
          const v = evaluate(side, values);
          if (Number.isFinite(v)) {
            values.set(d.name, v);
            given.set(d.name, d.tex);
            added = true;
            break;
          }
        } catch {
          /* not yet */
        }
      }
    }
    if (!added) break;
  }
  return { values, given, ranges };
}

/** 1, 2, 2.5 or 5 times a power of ten near `span / count`. */
function niceStep(span: number, count: number): number {
  const raw = span / count;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

function ticks(lo: number, hi: number, count: number): { from: number; to: number; ticks: number[] } {
  const step = niceStep(hi - lo, count);
  const from = Math.floor(lo / step + 1e-9) * step;
  const to = Math.ceil(hi / step - 1e-9) * step;
  const out: number[] = [];
  for (let v = from; v <= to + step / 2; v += step) out.push(round(v, step));
  return { from: round(from, step), to: round(to, step), ticks: out };
}

const round = (v: number, step: number) => {
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 2);
  return Number(v.toFixed(Math.min(digits, 12)));
};
const sig = (v: number) => Number(v.toPrecision(5));

/**
 * The plot of an answer, or null. `answerMaths` are the answer's formulas (the first explicit
 * `y = f(x)` or `y(x) = f(x)` that evaluates is used); `contextMaths` are all the formulas of the
 * task and the run (values, derived values, ranges).
 */
export function answerPlot(answerMaths: readonly string[], contextMaths: readonly string[]): AnswerPlot | null {
  const known = knownValues(contextMaths);
  for (const tex of answerMaths) {
    for (const part of tex.split(/\\quad|\\qquad|;|\\text\{[^}]*\}/)) {
      const plot = plotOf(part.trim().replace(/[.,]$/, ''), known);
      if (plot) return plot;
    }
  }
  return null;
}

function plotOf(tex: string, known: KnownValues): AnswerPlot | null {
  const j = parseTex(tex);
  const chain = j === null ? null : equationChain(j);
  if (!chain || chain.length < 2) return null;
  const lhs = lhsName(chain[0]);
  if (!lhs) return null;
  const rhs = chain[1];
  const values = new Map(known.values);
  values.delete(lhs.name);
  // a symbol with a range is a variable, whatever value it takes somewhere else
  for (const name of known.ranges.keys()) values.delete(name);
  const free = [...symbolsIn(rhs)].filter((s) => !values.has(s));
  if (lhs.variable !== null) values.delete(lhs.variable);
  const variable = lhs.variable ?? (free.length === 1 ? free[0]! : null);
  if (variable === null || free.some((s) => s !== variable)) return null;
  values.delete(variable);
  const range = known.ranges.get(variable);
  if (!range) return null;
  const points: Array<[number, number] | null> = [];
  let finite = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let k = 0; k <= SAMPLES; k++) {
    const x = range.from + ((range.to - range.from) * k) / SAMPLES;
    values.set(variable, x);
    let y: number;
    try {
      y = evaluate(rhs, values);
    } catch {
      return null;
    }
    if (!Number.isFinite(y)) {
      if (points.length > 0 && points[points.length - 1] !== null) points.push(null);
      continue;
    }
    finite++;
    lo = Math.min(lo, y);
    hi = Math.max(hi, y);
    points.push([sig(x), sig(y)]);
  }
  if (finite < 2) return null;
  if (points[points.length - 1] === null) points.pop();
  if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) {
    lo -= 1;
    hi += 1;
  }
  const pad = (hi - lo) * 0.05;
  const x = ticks(range.from, range.to, 5);
  const y = ticks(lo - pad, hi + pad, 4);
  const usedSymbols = symbolsIn(rhs);
  const givenTex = [...known.given.entries()].filter(([name]) => name !== variable && usedSymbols.has(name)).map(([, t]) => t);
  const nameTex = tex.split('=')[0]!.trim();
  return {
    formula: tex,
    yTex: nameTex,
    xTex: texSymbol(variable),
    xFrom: range.from,
    xTo: range.to,
    xTicks: x.ticks.filter((v) => v >= range.from - 1e-12 && v <= range.to + 1e-12),
    yFrom: y.from,
    yTo: y.to,
    yTicks: y.ticks,
    points,
    given: givenTex,
    rangeTex: range.tex,
  };
}

/** A MathJSON symbol name back to TeX for an axis label (`omega_d` -> `\omega_d`). */
function texSymbol(name: string): string {
  const [base, sub] = name.split('_') as [string, string | undefined];
  const greek =
    /^(alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Phi|Psi|Omega)$/.test(
      base,
    )
      ? `\\${base}`
      : base;
  return sub ? `${greek}_{${sub}}` : greek;
}
