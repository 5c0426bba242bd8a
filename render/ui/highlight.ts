import { Prism } from './prism-global';
import 'prismjs/components/prism-clike';
import 'prismjs/components/prism-markup';
import 'prismjs/components/prism-css';
import 'prismjs/components/prism-javascript';
import 'prismjs/components/prism-typescript';
import 'prismjs/components/prism-jsx';
import 'prismjs/components/prism-tsx';
import 'prismjs/components/prism-python';
import 'prismjs/components/prism-bash';
import 'prismjs/components/prism-json';
import 'prismjs/components/prism-yaml';
import 'prismjs/components/prism-toml';
import 'prismjs/components/prism-rust';
import 'prismjs/components/prism-go';
import 'prismjs/components/prism-c';
import 'prismjs/components/prism-cpp';
import 'prismjs/components/prism-java';
import 'prismjs/components/prism-kotlin';
import 'prismjs/components/prism-csharp';
import 'prismjs/components/prism-swift';
import 'prismjs/components/prism-ruby';
import 'prismjs/components/prism-markdown';
import 'prismjs/components/prism-sql';
import 'prismjs/components/prism-docker';
import 'prismjs/components/prism-makefile';
import 'prismjs/components/prism-latex';

/** A line of code as [text, token type] pieces ('' = plain). Pure; unknown languages stay plain. */
export type CodeToken = [string, string];

function flatten(stream: Array<string | Prism.Token>, type: string, out: CodeToken[]): void {
  for (const t of stream) {
    if (typeof t === 'string') out.push([t, type]);
    else {
      const content = t.content;
      if (typeof content === 'string') out.push([content, t.type]);
      else flatten(Array.isArray(content) ? content : [content], t.type, out);
    }
  }
}

export function highlightLine(text: string, language: string | null): CodeToken[] {
  const grammar = language ? Prism.languages[language] : undefined;
  if (!grammar || text.length > 400) return [[text, '']];
  const out: CodeToken[] = [];
  flatten(Prism.tokenize(text, grammar), '', out);
  return out;
}

/** Past this size a code block is shown plain (tokenising a huge log is not worth it). */
const MAX_BLOCK_CHARS = 20_000;

/** A whole code block (line breaks kept) as [text, token type] pieces; unknown languages stay plain. */
export function highlightTokens(text: string, language: string | null): CodeToken[] {
  const grammar = language ? Prism.languages[language.toLowerCase()] : undefined;
  if (!grammar || text.length > MAX_BLOCK_CHARS) return [[text, '']];
  const out: CodeToken[] = [];
  flatten(Prism.tokenize(text, grammar), '', out);
  return out;
}

/** token type -> colour (a GitHub-dark-like palette) */
export const tokenColor: Record<string, string> = {
  keyword: '#ff7b72',
  builtin: '#ffa657',
  'class-name': '#ffa657',
  function: '#d2a8ff',
  string: '#a5d6ff',
  'template-string': '#a5d6ff',
  char: '#a5d6ff',
  number: '#79c0ff',
  boolean: '#79c0ff',
  constant: '#79c0ff',
  comment: '#8b949e',
  operator: '#ff7b72',
  punctuation: '#c9d1d9',
  property: '#79c0ff',
  tag: '#7ee787',
  'attr-name': '#79c0ff',
  'attr-value': '#a5d6ff',
  variable: '#ffa657',
  decorator: '#d2a8ff',
  regex: '#7ee787',
  selector: '#7ee787',
  key: '#7ee787',
  important: '#ff7b72',
};
