import { describe, expect, it } from 'vitest';
import { aiderImporter, editBlocks, editDiff } from './aider';
import { collect, errors, fixtureInput, fixtureProbe, memoryInput, probeOf, trajectories } from './chat-testing';
import { detectFormat } from './detect';
import { trajectorySchema } from './trajectory';

/*
 * Fixture written for these tests, reproducing what Aider-AI/aider aider/io.py appends to
 * .aider.chat.history.md: the `# aider chat started at %Y-%m-%d %H:%M:%S` header (InputOutput.__init__),
 * `#### ` user lines joined by two-space line breaks (user_input), the reply as markdown (ai_output)
 * with SEARCH/REPLACE blocks (aider/coders/editblock_prompts.py), and tool output as `> ` lines
 * (append_chat_history(blockquote=True)): announcements, token reports, applied edits, commits,
 * shell runs and edit-format errors.
 */
const HISTORY = 'aider/.aider.chat.history.md';

describe('aider chat histories', () => {
  it('are detected from content', async () => {
    expect(detectFormat(await fixtureProbe(HISTORY))).toBe('aider');
    const cut = memoryInput('notes.md', '#### fix it  \n\nfoo.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n');
    expect(detectFormat(await probeOf(cut))).toBe('aider');
    expect(detectFormat(await probeOf(memoryInput('readme.md', '# Title\n\n> a quote\n')))).toBeNull();
  });

  it('reads one trajectory per session with chat; edit blocks are diffs, their results linked', async () => {
    const items = await collect(aiderImporter, await fixtureInput(HISTORY));
    // three sessions: the middle one only opened and closed
    expect(items.map((i) => i.where)).toEqual(['line 2', 'line 87']);
    const [first, last] = trajectories(items);
    for (const t of [first!, last!]) expect(trajectorySchema.parse(t)).toEqual(t);
    const t = first!;
    expect(t.format).toBe('aider');
    expect(t.policy).toEqual({ model: 'anthropic/claude-sonnet-4-5', checkpoint: null, agent: 'aider' });
    expect(t.task.instruction).toBe("slugify drops digits: 'Top 10 tips' gives 'top-tips'.\nKeep digits and add a test.");
    expect(t.startedAt).toBe('2026-11-28T14:02:11');
    expect(t.steps.map((s) => s.source)).toEqual([
      'user',
      'agent',
      'tool',
      'tool',
      'environment',
      'user',
      'environment',
      'user',
      'agent',
      'tool',
      'environment',
    ]);
    const reply = t.steps[1]!;
    expect(reply.text).toMatch(/^I'll widen the character class and add a test\.\n\n```bash\npytest -q tests\/test_slug.py\n```$/);
    expect(reply.toolCalls.map((c) => [c.id, c.name, (c.arguments as { path: string }).path])).toEqual([
      ['edit-1', 'edit', 'app/slug.py'],
      ['edit-2', 'edit', 'tests/test_slug.py'],
    ]);
    expect(reply.toolCalls[0]!.arguments).toMatchObject({
      old_str: "    return re.sub(r'[^a-z]+', '-', s.lower()).strip('-')",
      new_str: "    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')",
      diff: "--- a/app/slug.py\n+++ b/app/slug.py\n@@ -1,1 +1,1 @@\n-    return re.sub(r'[^a-z]+', '-', s.lower()).strip('-')\n+    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')",
    });
    expect(reply.usage).toEqual({ promptTokens: 4200, completionTokens: 210, costUsd: 0.02 });
    expect(t.steps[2]!.observations).toEqual([{ toolCallId: 'edit-1', content: 'Applied edit to app/slug.py', isError: false }]);
    expect(t.steps[3]!.observations[0]!.toolCallId).toBe('edit-2');
    expect(t.steps[4]!.text).toMatch(/^Commit 3f9c2ab fix: keep digits in slugs\n/);
    expect(t.steps[4]!.text).toContain('1 passed in 0.03s');
    expect(t.steps[5]!.text).toBe('/run pytest -q');
    expect(t.steps[6]!.text).toMatch(/^\.\.\n2 passed in 0\.05s/);
    // a block that failed to match answers its edit as an error
    expect(t.steps[9]!.observations[0]).toMatchObject({ toolCallId: 'edit-3', isError: true });
    expect(t.usage).toEqual({ promptTokens: 9100, completionTokens: 290, costUsd: 0.03 });
    expect(t.metadata).toMatchObject({ editFormat: 'diff', commits: 1 });

    expect(last!.policy.model).toBe('gpt-4.1');
    expect(last!.steps.map((s) => s.source)).toEqual(['user', 'agent']);
    expect(last!.usage).toEqual({ promptTokens: 3100, completionTokens: 40, costUsd: 0.0065 });
  });

  it('parses edit blocks and a new file', () => {
    const { text, edits } = editBlocks('Intro\n\nsrc/new.py\n```python\n<<<<<<< SEARCH\n=======\nprint(1)\n>>>>>>> REPLACE\n```\nDone.');
    expect(text).toBe('Intro\n\nDone.');
    expect(edits).toEqual([{ path: 'src/new.py', search: '', replace: 'print(1)' }]);
    expect(editDiff(edits[0]!)).toBe('--- /dev/null\n+++ b/src/new.py\n@@ -0,0 +1,1 @@\n+print(1)');
  });

  it('never lets a reply cut off mid-block swallow the next prompt', async () => {
    const text = [
      '# aider chat started at 2026-01-01 10:00:00',
      '',
      '#### rename foo  ',
      '',
      'foo.py',
      '```python',
      '<<<<<<< SEARCH',
      'def foo():',
      '',
      '#### ^C again to exit  ',
      '',
      'Sure.',
      '',
      '> Tokens: 1.0k sent, 10 received.  ',
    ].join('\n');
    const [t] = trajectories(await collect(aiderImporter, memoryInput('.aider.chat.history.md', text)));
    expect(t!.steps.map((s) => s.source)).toEqual(['user', 'agent', 'user', 'agent']);
    expect(t!.steps[2]!.text).toBe('^C again to exit');
    expect(t!.steps[3]!.usage).toEqual({ promptTokens: 1000, completionTokens: 10, costUsd: null });
  });

  it('refuses a history with no chat in one clear error', async () => {
    const empty = memoryInput('.aider.chat.history.md', '\n# aider chat started at 2026-01-01 10:00:00\n\n> Aider v0.86.1  \n');
    expect(errors(await collect(aiderImporter, empty))).toEqual([
      { where: 'line 1', message: 'no chat in any of the 1 aider session (each only opened and closed)' },
    ]);
  });
});
