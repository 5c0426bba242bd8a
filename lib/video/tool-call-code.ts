/**
 * The program a tool call runs, when it runs one: a `python` call's source, a `bash` call's
 * command. Tool calls arrive as JSON arguments (`{"code": "import numpy as np\n…"}`); shown as
 * escaped JSON the program cannot be read, so the transcript and the video show it as code
 * (highlighted, with line numbers) and only the other arguments as arguments. Pure.
 */
export type CodeLanguage = 'python' | 'bash';

export interface ToolCallCode {
  /** the program's text, line breaks kept */
  code: string;
  /** the language to highlight it as (null: unknown, shown plain) */
  language: CodeLanguage | null;
  /** the argument it came from (null: the arguments were the program itself) */
  key: string | null;
  /** the other arguments (e.g. a timeout), shown beside the code */
  rest: Record<string, unknown>;
}

/** the arguments that carry a program or a command, in the order they are looked for */
const CODE_KEYS = ['code', 'source', 'script', 'program', 'command', 'cmd', 'keystrokes'] as const;
/** a call with more arguments than this is a call with arguments, not a program */
const MAX_OTHER_ARGS = 2;

const PYTHON_TOOL = /python|ipython|jupyter|notebook|code_interpreter|execute_code|run_code/i;
const SHELL_TOOL = /bash|shell|terminal|exec|cmd|command|run|sh$/i;

function languageOf(toolName: string, key: string | null): CodeLanguage | null {
  if (PYTHON_TOOL.test(toolName)) return 'python';
  if (key === 'command' || key === 'cmd' || key === 'keystrokes' || SHELL_TOOL.test(toolName)) return 'bash';
  return null;
}

export function toolCallCode(toolName: string, args: unknown): ToolCallCode | null {
  if (typeof args === 'string') {
    if (!PYTHON_TOOL.test(toolName) && !SHELL_TOOL.test(toolName)) return null;
    const parsed = parseObject(args);
    if (parsed === null) return { code: args, language: languageOf(toolName, null), key: null, rest: {} };
    return toolCallCode(toolName, parsed);
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return null;
  const record = args as Record<string, unknown>;
  for (const key of CODE_KEYS) {
    const value = record[key];
    if (typeof value !== 'string') continue;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (k !== key) rest[k] = v;
    if (Object.keys(rest).length > MAX_OTHER_ARGS) return null;
    return { code: value, language: languageOf(toolName, key), key, rest };
  }
  return null;
}

/** A JSON object written as text (some formats keep arguments as their JSON string); null when it is not one. */
function parseObject(text: string): Record<string, unknown> | null {
  const t = text.trimStart();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
