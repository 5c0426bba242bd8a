import { describe, expect, it } from 'vitest';
import { toolCallCode } from './tool-call-code';

/* Issue 43 §3: a `python` tool call reads as code, not escaped JSON. Shapes: Inspect's
   `python` tool ({"code": …}, inspect_ai/tool/_tools/_execute.py), OpenHands' `execute_ipython_cell`
   ({"code": …}), Terminus/SWE-agent bash calls ({"command": …}, sometimes with a timeout). */
describe('toolCallCode', () => {
  const program = 'import numpy as np\n\ndef omega(g, R):\n    return np.sqrt(g / R)\n\nprint(omega(9.81, 0.5))';

  it('finds a python program in the arguments and keeps the others beside it', () => {
    expect(toolCallCode('python', { code: program })).toEqual({ code: program, language: 'python', key: 'code', rest: {} });
    expect(toolCallCode('execute_ipython_cell', { code: program, timeout: 30 })).toEqual({
      code: program,
      language: 'python',
      key: 'code',
      rest: { timeout: 30 },
    });
  });

  it('reads arguments kept as their JSON text, and a bare string given to a code tool', () => {
    expect(toolCallCode('python', JSON.stringify({ code: program }))?.code).toBe(program);
    expect(toolCallCode('python', program)).toEqual({ code: program, language: 'python', key: null, rest: {} });
  });

  it('a shell command is bash', () => {
    expect(toolCallCode('bash', { command: 'ls -la /app' })?.language).toBe('bash');
    expect(toolCallCode('terminal', { keystrokes: 'cd /app\n' })?.language).toBe('bash');
  });

  it('a call with arguments that are not a program stays a call with arguments', () => {
    expect(toolCallCode('str_replace', { path: 'a.py', old_str: 'x', new_str: 'y' })).toBeNull();
    expect(toolCallCode('search', 'what is the moment of inertia of a hoop')).toBeNull();
    expect(toolCallCode('python', { code: program, a: 1, b: 2, c: 3 })).toBeNull();
    expect(toolCallCode('python', 42)).toBeNull();
  });
});
