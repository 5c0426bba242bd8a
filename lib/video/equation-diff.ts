/**
 * A term-level diff of two display equations, for the derivation scenes: what stayed, what is
 * new in the next equation, what went from the previous one. An equation is cut into pieces at
 * its top level: relations (`=`, `\approx`, `\Longrightarrow`, …), binary `+`/`-`/`\pm`, and
 * spacing/punctuation between them, the terms being what lies in between (a `\frac{…}{…}`, a
 * `\left( … \right)` group or a `\begin{cases} … \end{cases}` stays whole). Pieces are matched by
 * their longest common subsequence on a normalised form (spacing and `\left`/`\right` ignored),
 * so `a+b=c` -> `a+d=c` marks only `b` gone and `d` new. Pure; linear in the equation's length
 * for cutting, quadratic in pieces (tens) for matching.
 */

export type PieceKind = 'term' | 'op' | 'rel' | 'space';
export interface EquationPiece {
  tex: string;
  kind: PieceKind;
}
export type PieceState = 'same' | 'changed';
export interface DiffedPiece extends EquationPiece {
  state: PieceState;
  /** a changed term matched to a changed term on the other side: its atoms, diffed in turn */
  parts?: DiffedPiece[];
}
export interface EquationDiff {
  /** the previous equation's pieces: `changed` = not in the next one */
  before: DiffedPiece[];
  /** the next equation's pieces: `changed` = new or different */
  after: DiffedPiece[];
}

const RELATION_COMMANDS = new Set([
  'approx',
  'equiv',
  'sim',
  'simeq',
  'cong',
  'propto',
  'le',
  'leq',
  'ge',
  'geq',
  'll',
  'gg',
  'ne',
  'neq',
  'to',
  'rightarrow',
  'Rightarrow',
  'Longrightarrow',
  'longrightarrow',
  'iff',
  'implies',
  'Leftrightarrow',
  'mapsto',
]);
const OPERATOR_COMMANDS = new Set(['pm', 'mp']);
const SPACE_COMMANDS = new Set(['quad', 'qquad']);

/** Cuts an equation into top-level pieces (see the module comment). */
export function equationPieces(tex: string): EquationPiece[] {
  const pieces: EquationPiece[] = [];
  let term = '';
  let depth = 0;
  const flushTerm = () => {
    if (term.trim() !== '') pieces.push({ tex: term.trim(), kind: 'term' });
    term = '';
  };
  const push = (t: string, kind: PieceKind) => {
    flushTerm();
    pieces.push({ tex: t, kind });
  };
  let i = 0;
  const n = tex.length;
  while (i < n) {
    const c = tex[i]!;
    if (c === '\\') {
      const m = /^\\([a-zA-Z]+|.)/.exec(tex.slice(i, i + 40));
      const word = m ? m[1]! : '';
      const whole = m ? m[0] : c;
      if (word === 'left' || word === 'begin') depth++;
      else if ((word === 'right' || word === 'end') && depth > 0) {
        depth--;
        term += whole;
        i += whole.length;
        // the delimiter or {env} that belongs to \right / \end
        const rest = /^\s*(\\[a-zA-Z]+|\\.|\{[^}]*\}|.)/.exec(tex.slice(i));
        if (rest) {
          term += rest[0];
          i += rest[0].length;
        }
        continue;
      }
      if (depth === 0) {
        if (RELATION_COMMANDS.has(word)) {
          push(whole, 'rel');
          i += whole.length;
          continue;
        }
        if (OPERATOR_COMMANDS.has(word) && term.trim() !== '') {
          push(whole, 'op');
          i += whole.length;
          continue;
        }
        if (SPACE_COMMANDS.has(word) || word === ',' || word === ';') {
          if (SPACE_COMMANDS.has(word)) push(whole, 'space');
          else term += whole;
          i += whole.length;
          continue;
        }
      }
      term += whole;
      i += whole.length;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    if (depth === 0 && c !== '{' && c !== '}') {
      if (c === '=' || c === '<' || c === '>') {
        push(c, 'rel');
        i++;
        continue;
      }
      // a binary + or - (a leading sign stays with its term)
      if ((c === '+' || c === '-') && term.trim() !== '' && !/[\^_]\s*$/.test(term)) {
        push(c, 'op');
        i++;
        continue;
      }
      if (c === ',' || c === ';') {
        push(c, 'space');
        i++;
        continue;
      }
    }
    term += c;
    i++;
  }
  flushTerm();
  // trailing punctuation of a sentence (`… \theta .`) is spacing
  const last = pieces[pieces.length - 1];
  if (last && last.kind === 'term' && /^[.,;]$/.test(last.tex)) last.kind = 'space';
  else if (last && last.kind === 'term' && /\s*[.,;]$/.test(last.tex) && last.tex.length > 1) {
    last.tex = last.tex.replace(/\s*[.,;]$/, '');
    pieces.push({ tex: '.', kind: 'space' });
  }
  return pieces;
}

/** The form pieces are compared in: no spacing, no \left / \right, \dfrac / \tfrac as \frac. */
export function normalisePiece(tex: string): string {
  return tex
    .replace(/\\(left|right|big|Big|bigg|Bigg)(?![a-zA-Z])/g, '')
    .replace(/\\[dt]frac(?![a-zA-Z])/g, '\\frac')
    .replace(/\\[,;:!]|\\quad|\\qquad|~/g, '')
    .replace(/\s+/g, '');
}

/** Longest-common-subsequence match of two key lists: which items of each side are kept. */
function lcsKeep(ka: string[], kb: string[]): [boolean[], boolean[]] {
  const cols = kb.length + 1;
  const t = new Uint16Array((ka.length + 1) * cols);
  for (let i = ka.length - 1; i >= 0; i--)
    for (let j = kb.length - 1; j >= 0; j--)
      t[i * cols + j] = ka[i] === kb[j] ? t[(i + 1) * cols + j + 1]! + 1 : Math.max(t[(i + 1) * cols + j]!, t[i * cols + j + 1]!);
  const keptA = new Array<boolean>(ka.length).fill(false);
  const keptB = new Array<boolean>(kb.length).fill(false);
  for (let i = 0, j = 0; i < ka.length && j < kb.length;) {
    if (ka[i] === kb[j]) {
      keptA[i] = true;
      keptB[j] = true;
      i++;
      j++;
    } else if (t[(i + 1) * cols + j]! >= t[i * cols + j + 1]!) i++;
    else j++;
  }
  return [keptA, keptB];
}

/**
 * The atoms of one term, for the second level of the diff: a command with its braced arguments
 * and scripts (`\frac{a}{b}`, `\sqrt{x}`, `e^{-t}`), a letter or number with its scripts, an
 * operator, and `\left…`/`\right…` delimiters on their own (kind `space`: never wrapped, so the
 * pair stays intact), which lets a change inside a bracket show as just that change.
 */
export function termAtoms(tex: string): EquationPiece[] {
  const atoms: EquationPiece[] = [];
  let i = 0;
  const n = tex.length;
  const braced = () => {
    // one {…} group (or a single token) starting at i
    while (i < n && /\s/.test(tex[i]!)) i++;
    if (tex[i] === '{') {
      let d = 0;
      const start = i;
      for (; i < n; i++) {
        if (tex[i] === '\\') i++;
        else if (tex[i] === '{') d++;
        else if (tex[i] === '}' && --d === 0) {
          i++;
          break;
        }
      }
      return tex.slice(start, i);
    }
    const m = /^(\\[a-zA-Z]+|\\.|.)/.exec(tex.slice(i));
    if (!m) return '';
    i += m[0].length;
    return m[0];
  };
  const scripts = () => {
    let out = '';
    for (;;) {
      const save = i;
      while (i < n && /\s/.test(tex[i]!)) i++;
      if (tex[i] === '^' || tex[i] === '_' || tex[i] === "'") {
        const c = tex[i]!;
        i++;
        out += c === "'" ? c : c + braced();
      } else {
        i = save;
        return out;
      }
    }
  };
  const ARGS: Record<string, number> = {
    frac: 2,
    dfrac: 2,
    tfrac: 2,
    binom: 2,
    sqrt: 1,
    dot: 1,
    ddot: 1,
    hat: 1,
    bar: 1,
    vec: 1,
    tilde: 1,
    overline: 1,
    mathrm: 1,
    mathbf: 1,
    mathcal: 1,
    text: 1,
    operatorname: 1,
    boxed: 1,
  };
  while (i < n) {
    const c = tex[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === '\\') {
      const m = /^\\([a-zA-Z]+|.)/.exec(tex.slice(i))!;
      const word = m[1]!;
      i += m[0].length;
      if (word === 'left' || word === 'right') {
        const d = /^\s*(\\[a-zA-Z]+|\\.|.)/.exec(tex.slice(i));
        if (d) i += d[0].length;
        atoms.push({ tex: tex.slice(start, i), kind: 'space' });
        continue;
      }
      if (word === 'begin') {
        // a whole environment is one atom
        const env = braced();
        const close = tex.indexOf(`\\end${env}`, i);
        i = close === -1 ? n : close + 4 + env.length;
        atoms.push({ tex: tex.slice(start, i), kind: 'term' });
        continue;
      }
      if (word === ',' || word === ';' || word === '!' || word === 'quad' || word === 'qquad') {
        atoms.push({ tex: tex.slice(start, i), kind: 'space' });
        continue;
      }
      if (word === 'pm' || word === 'mp' || word === 'cdot' || word === 'times') {
        atoms.push({ tex: tex.slice(start, i), kind: 'op' });
        continue;
      }
      if (word === 'sqrt' && tex[i] === '[') {
        const close = tex.indexOf(']', i);
        i = close === -1 ? n : close + 1;
      }
      for (let k = 0; k < (ARGS[word] ?? 0); k++) braced();
      scripts();
      atoms.push({ tex: tex.slice(start, i), kind: 'term' });
      continue;
    }
    if (c === '{') {
      braced();
      scripts();
      atoms.push({ tex: tex.slice(start, i), kind: 'term' });
      continue;
    }
    if (/[0-9.]/.test(c)) {
      while (i < n && /[0-9.]/.test(tex[i]!)) i++;
    } else i++;
    if (/[+\-=<>/]/.test(c)) {
      atoms.push({ tex: c, kind: 'op' });
      continue;
    }
    scripts();
    atoms.push({ tex: tex.slice(start, i), kind: /[()[\]|]/.test(c) ? 'space' : 'term' });
  }
  return atoms;
}

const keyOf = (p: EquationPiece) => `${p.kind}:${normalisePiece(p.tex)}`;

/** Term-level diff of two display equations (see the module comment). */
export function diffEquations(before: string, after: string): EquationDiff {
  const a = equationPieces(before);
  const b = equationPieces(after);
  const [keptA, keptB] = lcsKeep(a.map(keyOf), b.map(keyOf));
  // spacing never counts as a change
  const mark = (pieces: EquationPiece[], kept: boolean[]): DiffedPiece[] =>
    pieces.map((p, k) => ({ ...p, state: kept[k] || p.kind === 'space' ? 'same' : 'changed' }));
  const outA = mark(a, keptA);
  const outB = mark(b, keptB);
  // between two kept pieces, the changed terms of each side pair up in order: diff their atoms
  let i = 0;
  let j = 0;
  while (i <= a.length && j <= b.length) {
    const gapA: number[] = [];
    const gapB: number[] = [];
    while (i < a.length && !keptA[i]) gapA.push(i++);
    while (j < b.length && !keptB[j]) gapB.push(j++);
    const termsA = gapA.filter((k) => a[k]!.kind === 'term');
    const termsB = gapB.filter((k) => b[k]!.kind === 'term');
    for (let k = 0; k < Math.min(termsA.length, termsB.length); k++) {
      const pa = outA[termsA[k]!]!;
      const pb = outB[termsB[k]!]!;
      const xa = termAtoms(pa.tex);
      const xb = termAtoms(pb.tex);
      if (xa.length < 2 && xb.length < 2) continue;
      const [ka, kb] = lcsKeep(xa.map(keyOf), xb.map(keyOf));
      // only worth it when the two terms share something beyond brackets
      if (!ka.some((kept, q) => kept && xa[q]!.kind === 'term')) continue;
      pa.parts = mark(xa, ka);
      pb.parts = mark(xb, kb);
    }
    i++;
    j++;
  }
  return { before: outA, after: outB };
}

/** Whole-equation pieces, all unchanged (the first equation of a derivation). */
export function unchangedPieces(tex: string): DiffedPiece[] {
  return equationPieces(tex).map((p) => ({ ...p, state: 'same' }));
}

/**
 * The TeX of diffed pieces with the changed ones wrapped in `\textcolor{marker}{…}` (KaTeX keeps
 * binary and relation spacing inside \textcolor). The composition restyles the marker colour per
 * frame, so one typeset string serves every frame of the highlight.
 */
export function markedTex(pieces: readonly DiffedPiece[], marker: string): string {
  return pieces
    .map((p) =>
      p.parts ? markedTex(p.parts, marker) : p.state === 'changed' && p.kind !== 'space' ? `\\textcolor{${marker}}{${p.tex}}` : p.tex,
    )
    .join(' ');
}

/**
 * How much of two equations is shared: the kept terms (atoms, where a term was diffed further) over
 * the terms of the longer side. Below about a third the next equation is a new statement, not a
 * transformation of the last one (the derivation scene then shows no diff).
 */
export function sharedShare(d: EquationDiff): number {
  const leaves = (pieces: readonly DiffedPiece[]): DiffedPiece[] =>
    pieces.flatMap((p) => (p.parts ? leaves(p.parts) : p.kind === 'term' ? [p] : []));
  const a = leaves(d.before);
  const b = leaves(d.after);
  const kept = b.filter((p) => p.state === 'same').length;
  return Math.max(a.length, b.length) === 0 ? 1 : kept / Math.max(a.length, b.length);
}

/** Below this share (sharedShare) two consecutive equations are not diffed. */
export const RELATED_SHARE = 0.34;

/** Whether any piece (or part) changed. */
export function hasChanges(pieces: readonly DiffedPiece[]): boolean {
  return pieces.some((p) => p.state === 'changed' && p.kind !== 'space');
}
