import { describe, expect, it } from 'vitest';
import { fixtureInput, fixtureProbe, onlyNormalised } from './chat-testing';
import { claudeCodeImporter } from './claude-code';
import { detectFormat } from './detect';
import { trajectoryVideoProps } from '../video/props';
import { trajectoryVideoSchema } from '../video/schema';
import { blindTranscript, transcriptStepSchema } from '../video/transcript';

/*
 * Fixture written for these tests: a Claude Code session (~/.claude/projects/<cwd>/<session>.jsonl) in
 * which hooks steer the agent: a blocking Stop hook's reason written back as the meta user line
 * "Stop hook feedback:\n[<command>]: <reason>" (the message users quote in anthropics/claude-code
 * issues on Stop hooks, e.g. #11786, and that ikuwow/dotfiles#154 shows in the chat), a SessionStart
 * hook's additional context as an `attachment` line, and the `stop_hook_summary` system line.
 */
const HOOKS = 'coding-agents/claude-code-hooks.jsonl';

describe('Claude Code hook feedback', () => {
  it('is its own kind of step, before the turn it caused', async () => {
    expect(detectFormat(await fixtureProbe(HOOKS))).toBe('claude-code');
    const t = await onlyNormalised(claudeCodeImporter, await fixtureInput(HOOKS));
    expect(t.steps.map((s) => s.source)).toEqual(['hook', 'user', 'agent', 'tool', 'agent', 'hook', 'agent', 'tool', 'agent']);
    expect(t.steps[0]!.text).toBe('SessionStart hook (hook_additional_context): Project rule: every change needs a passing test run.');
    expect(t.steps[5]!.text).toBe(
      'Stop hook feedback:\n[~/.claude/hooks/require-tests.sh]: No test run since the last edit. Run `pytest -q` before stopping.',
    );
    expect(t.steps[6]!.text).toBe('The stop hook wants a test run; running the tests.');
    // hook text is never the instruction; a summary that reports nothing adds no step
    expect(t.task.instruction).toBe('Add a --dry-run flag to export.py.');
    expect(t.metadata).toMatchObject({ hookSteps: 2 });
  });

  it('reaches the reviewer: the transcript and the video cards keep hook steps, labelled "hook"', async () => {
    const t = await onlyNormalised(claudeCodeImporter, await fixtureInput(HOOKS));
    const transcript = blindTranscript(t);
    expect(transcript.map((s) => transcriptStepSchema.parse(s).source)).toContain('hook');
    expect(transcript[5]).toMatchObject({ source: 'hook', actor: 'hook' });
    const props = trajectoryVideoSchema.parse(trajectoryVideoProps(t));
    const cards = props.scenes.flatMap((scene) =>
      scene.kind === 'step' ? scene.cards.map((c) => c.card) : scene.kind === 'derivation' ? [scene.card] : [],
    );
    expect(cards.filter((c) => c.source === 'hook').map((c) => c.index)).toEqual([0, 5]);
  });
});
