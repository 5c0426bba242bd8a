import { describe, expect, it } from 'vitest';
import { headProbe } from './chat-testing';
import { detectFormat, detectionOrder, unrecognisedMessage } from './detect';

describe('detection order (the real registry)', () => {
  it('is pinned: specific formats first, the generic chat formats last', () => {
    expect(detectionOrder).toEqual([
      'terminal-bench',
      'harbor',
      'inspect',
      'asciinema',
      'atif',
      'claude-code',
      'codex',
      'openhands',
      'aider',
      'cline',
      'mini-swe-agent',
      'swe-agent',
      'tau2',
      'tau-bench',
      'anthropic',
      'openai',
    ]);
  });

  it('gives a file no importer reads one refusal naming the closest format and why', () => {
    const events = headProbe('x.json', '[{"kind": "step", "observation": "run", "output": "a.txt"}]');
    expect(detectFormat(events)).toBeNull();
    expect(unrecognisedMessage(events)).toBe(
      'format not recognised (closest: OpenHands, because it has OpenHands-style "action"/"observation" events); pass --format to force one',
    );
    const odd = headProbe('x.json', '{"alpha": 1, "beta": [2]}');
    expect(detectFormat(odd)).toBeNull();
    expect(unrecognisedMessage(odd)).toMatch(
      /^format not recognised \(closest: none, because its JSON keys \(alpha, beta\) match no importer's: expected Terminal-Bench, Harbor, .*OpenHands, aider, Cline, .*OpenAI chat\); pass --format to force one$/,
    );
    const ui = headProbe('ui_messages.json', '[{"ts":1764412345678,"type":"say","say":"task","text":"x"}]');
    expect(detectFormat(ui)).toBeNull();
    expect(unrecognisedMessage(ui)).toMatch(
      /^format not recognised \(closest: Cline, because it is a companion of a Cline task .*: import the task folder tasks\/<id>\/ instead\)/,
    );
    expect(unrecognisedMessage(headProbe('x.txt', 'hello'))).toMatch(/^format not recognised \(closest: none, because it is plain text/);
    expect(unrecognisedMessage({ kind: 'dir', path: 'd', entries: ['a.txt'] })).toMatch(
      /a Cline task folder or an OpenHands session folder/,
    );
  });
});
