/**
 * Maths written in Unicode ("ω = √(g/R − Ω²) for Ω² < g/R", "L = ½mR²(θ̇² + Ω² sin²θ)") typeset
 * like maths written in LaTeX: its runs found in the prose and turned into TeX (`$…$`), for the one
 * renderer (render/ui/rich-text.tsx: KaTeX). Criteria are often written this way (a dataset's
 * targets, a lead typing in the studio); drawn as prose they mixed the text font's italics-less
 * letters with maths. Text that already marks its maths (`$`, `\(`) is left as written. Pure.
 */

const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'varepsilon',
  ϵ: 'epsilon',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ϑ: 'vartheta',
  ι: 'iota',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ρ: 'rho',
  σ: 'sigma',
  ς: 'varsigma',
  τ: 'tau',
  υ: 'upsilon',
  φ: 'varphi',
  ϕ: 'phi',
  χ: 'chi',
  ψ: 'psi',
  ω: 'omega',
  Γ: 'Gamma',
  Δ: 'Delta',
  Θ: 'Theta',
  Λ: 'Lambda',
  Ξ: 'Xi',
  Π: 'Pi',
  Σ: 'Sigma',
  Υ: 'Upsilon',
  Φ: 'Phi',
  Ψ: 'Psi',
  Ω: 'Omega',
};
const SUPER: Record<string, string> = {
  '⁰': '0',
  '¹': '1',
  '²': '2',
  '³': '3',
  '⁴': '4',
  '⁵': '5',
  '⁶': '6',
  '⁷': '7',
  '⁸': '8',
  '⁹': '9',
  '⁺': '+',
  '⁻': '-',
  '⁼': '=',
  '⁽': '(',
  '⁾': ')',
  ⁿ: 'n',
  ⁱ: 'i',
};
const SUB: Record<string, string> = {
  '₀': '0',
  '₁': '1',
  '₂': '2',
  '₃': '3',
  '₄': '4',
  '₅': '5',
  '₆': '6',
  '₇': '7',
  '₈': '8',
  '₉': '9',
  '₊': '+',
  '₋': '-',
  '₌': '=',
  '₍': '(',
  '₎': ')',
  ₐ: 'a',
  ₑ: 'e',
  ₒ: 'o',
  ₓ: 'x',
  ₙ: 'n',
  ᵢ: 'i',
  ⱼ: 'j',
  ₖ: 'k',
  ₘ: 'm',
  ₜ: 't',
  ₚ: 'p',
  ₛ: 's',
};
const SYMBOLS: Record<string, string> = {
  '−': '-',
  '·': '\\cdot ',
  '×': '\\times ',
  '÷': '\\div ',
  '≤': '\\le ',
  '≥': '\\ge ',
  '≠': '\\ne ',
  '≈': '\\approx ',
  '±': '\\pm ',
  '∓': '\\mp ',
  '→': '\\to ',
  '⇒': '\\Rightarrow ',
  '⟹': '\\Longrightarrow ',
  '⇔': '\\Leftrightarrow ',
  '∞': '\\infty ',
  '∂': '\\partial ',
  '∇': '\\nabla ',
  '∫': '\\int ',
  '∑': '\\sum ',
  '∏': '\\prod ',
  '≡': '\\equiv ',
  '∝': '\\propto ',
  '′': "'",
  '″': "''",
  '∼': '\\sim ',
  '≪': '\\ll ',
  '≫': '\\gg ',
  '∈': '\\in ',
  '⟨': '\\langle ',
  '⟩': '\\rangle ',
  '½': '\\tfrac12 ',
  '⅓': '\\tfrac13 ',
  '¼': '\\tfrac14 ',
  '¾': '\\tfrac34 ',
  ħ: '\\hbar ',
  ℏ: '\\hbar ',
  '°': '^\\circ ',
};
const ACCENTS: Record<string, string> = {
  '\u0307': 'dot',
  '\u0308': 'ddot',
  '\u0302': 'hat',
  '\u0304': 'bar',
  '\u20d7': 'vec',
  '\u0303': 'tilde',
};
const FUNCTIONS = new Set(
  'sin cos tan sec csc cot sinh cosh tanh coth arcsin arccos arctan ln log exp det lim max min sup inf arg deg dim ker'.split(' '),
);

/** Characters that make a word maths on their own. */
const STRONG = new RegExp(
  `[=<>${Object.keys(GREEK).join('')}${Object.keys(SUPER).join('')}${Object.keys(SUB).join('')}${Object.keys(SYMBOLS).join('')}√^_\\u0307\\u0308\\u0302\\u0304\\u20d7\\u0303]`,
  'u',
);
/**
 * A word that is maths next to maths: letters, digits, brackets and operators, with an operator or
 * a bracket in it (`g/R`, `(x+1)`), or a number, a letter or two, a function name, or letters with
 * a capital inside (`mgR`: English words have none).
 */
function isWeak(word: string): boolean {
  const w = word.replace(/[,;.:]$/, '');
  if (!/^[\w()[\]{}+\-*/.^!|']+$/.test(w)) return false;
  if (/[()[\]{}+\-*/^|]/.test(w) || /^\d+(\.\d+)?$/.test(w)) return true;
  return w.length <= 2 || FUNCTIONS.has(w) || /[a-z][A-Z]/.test(w);
}
/** English words that are single letters: never pulled into maths at a run's edge. */
const PROSE_LETTERS = new Set(['a', 'A', 'I']);

/** One run of Unicode maths as TeX. */
export function unicodeMathToTex(run: string): string {
  let out = '';
  const chars = Array.from(run.normalize('NFC'));
  // accents stay combining after NFC for letters without a precomposed form (θ̇): they apply to the character before
  const at = (i: number) => chars[i] ?? '';
  let i = 0;
  const atom = (): string => {
    const c = at(i);
    if (c === '√') {
      i++;
      if (at(i) === '(') {
        let depth = 0;
        const start = i;
        for (; i < chars.length; i++) {
          if (chars[i] === '(') depth++;
          else if (chars[i] === ')' && --depth === 0) break;
        }
        const inner = chars.slice(start + 1, i).join('');
        i++;
        return `\\sqrt{${unicodeMathToTex(inner)}}`;
      }
      return `\\sqrt{${atom()}}`;
    }
    i++;
    if (GREEK[c]) return `\\${GREEK[c]} `;
    if (SYMBOLS[c]) return SYMBOLS[c];
    if (/[#$%&~{}\\]/.test(c)) return `\\${c === '\\' ? 'backslash ' : c}`;
    return c;
  };
  while (i < chars.length) {
    const c = at(i);
    if (SUPER[c] || SUB[c]) {
      const table = SUPER[c] ? SUPER : SUB;
      let s = '';
      while (i < chars.length && table[at(i)]) s += table[chars[i++]!];
      out += `${table === SUPER ? '^' : '_'}{${s}}`;
      continue;
    }
    const word = /^[A-Za-z]+/.exec(chars.slice(i).join(''))?.[0];
    if (word && FUNCTIONS.has(word) && !/[A-Za-z]/.test(at(i - 1))) {
      out += `\\${word} `;
      i += word.length;
      continue;
    }
    let a = atom();
    while (ACCENTS[at(i)]) a = `\\${ACCENTS[chars[i++]!]}{${a.trim()}}`;
    out += a;
  }
  return out.replace(/\s+/g, ' ').replace(/\s+$/, '');
}

const hasMarkedMaths = (text: string) => /\$|\\\(|\\\[/.test(text);

/**
 * Text with its Unicode maths marked as `$…$` TeX for the one renderer: runs of words that are
 * maths (a Greek letter, a super- or subscript, a relation or operator, a root) together with the
 * letters, numbers and function names around them. Text that already marks maths is returned as is.
 */
export function markUnicodeMaths(text: string): string {
  if (hasMarkedMaths(text) || !STRONG.test(text)) return text;
  // code spans are code: only the text between them is looked at
  if (text.includes('`'))
    return text
      .split(/(`+[^`]*`+)/)
      .map((part, i) => (i % 2 === 1 ? part : markRuns(part)))
      .join('');
  return markRuns(text);
}

function markRuns(text: string): string {
  // words with the spaces after them; a run of maths words becomes one formula
  const words = text.match(/\S+\s*/g) ?? [];
  const kind = words.map((w) => {
    const bare = w.trim();
    if (STRONG.test(bare) && !/^[A-Za-z]{4,}[,.;:]?$/.test(bare)) return 'strong';
    if (isWeak(bare)) return 'weak';
    return 'prose';
  });
  let out = /^\s*/.exec(text)![0];
  for (let k = 0; k < words.length;) {
    if (kind[k] === 'prose') {
      out += words[k++];
      continue;
    }
    let end = k;
    while (end < words.length && kind[end] !== 'prose') end++;
    // weak words at the run's edges join only next to a strong one; an English "a" never does
    let from = k;
    while (from < end && kind[from] === 'weak' && PROSE_LETTERS.has(words[from]!.trim())) from++;
    let to = end;
    while (to > from && kind[to - 1] === 'weak' && PROSE_LETTERS.has(words[to - 1]!.trim())) to--;
    if (!kind.slice(from, to).includes('strong')) {
      out += words.slice(k, end).join('');
      k = end;
      continue;
    }
    out += words.slice(k, from).join('');
    const run = words.slice(from, to).join('');
    const trailing = /\s*$/.exec(run)![0];
    // a sentence's comma or full stop after the formula stays prose
    const body = run.trimEnd();
    const punct = /[,;.:]$/.test(body) ? body.slice(-1) : '';
    out += `$${unicodeMathToTex(punct ? body.slice(0, -1) : body)}$${punct}${trailing}`;
    out += words.slice(to, end).join('');
    k = end;
  }
  return out;
}
