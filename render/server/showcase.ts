import type { CastEvent, Trajectory } from '../../lib/formats/trajectory';

/**
 * A made-up trajectory that exercises every scene of the video: maths in messages, a failing
 * then passing test run (criteria ticking on evidence), a patch (diff scene), a long output
 * (summary marker), an idle gap in the terminal, a submission diff and judge scores.
 * Used by render/server/render-screens.ts to look at frames.
 */
export function showcaseTrajectory(): Trajectory {
  const patch = [
    'diff --git a/stats/mean.py b/stats/mean.py',
    '--- a/stats/mean.py',
    '+++ b/stats/mean.py',
    '@@ -1,9 +1,12 @@',
    ' from typing import Sequence',
    ' ',
    ' ',
    ' def weighted_mean(xs: Sequence[float], ws: Sequence[float]) -> float:',
    '-    """Return sum(x * w) / len(xs)."""',
    '-    return sum(x * w for x, w in zip(xs, ws)) / len(xs)',
    '+    """Return sum(x * w) / sum(w); raise on empty or zero total weight."""',
    '+    total = sum(ws)',
    '+    if not xs or total == 0:',
    "+        raise ValueError('weights must not sum to zero')",
    '+    return sum(x * w for x, w in zip(xs, ws)) / total',
    ' ',
    ' ',
    ' def mean(xs: Sequence[float]) -> float:',
  ].join('\n');
  const longLog = Array.from(
    { length: 12_345 + 12 },
    (_, i) => `2025-11-02T09:0${Math.floor(i / 6000)}:${String(i % 60).padStart(2, '0')} INFO sample ${i} loaded (${(i * 7) % 97} ms)`,
  ).join('\n');
  const events: CastEvent[] = [
    [0.2, 'o', '\x1b[1;34m~/stats\x1b[0m$ '],
    [1.0, 'o', 'python -m pytest -q tests/test_mean.py\r\n'],
    [2.1, 'o', '\x1b[32m.\x1b[0m\x1b[31mF\x1b[0m\x1b[32m.\x1b[0m                                                    [100%]\r\n'],
    [2.2, 'o', '=================================== FAILURES ===================================\r\n'],
    [2.3, 'o', '\x1b[31m\x1b[1m___________________________ test_weighted_mean ____________________________\x1b[0m\r\n'],
    [2.4, 'o', '    assert weighted_mean([1, 3], [1, 3]) == 2.5\r\n\x1b[31mE   assert 1.0 == 2.5\x1b[0m\r\n'],
    [
      2.5,
      'o',
      '\x1b[31mFAILED\x1b[0m tests/test_mean.py::test_weighted_mean - assert 1.0 == 2.5\r\n\x1b[31m1 failed\x1b[0m, \x1b[32m2 passed\x1b[0m in 0.04s\r\n\x1b[1;34m~/stats\x1b[0m$ ',
    ],
    [8.0, 'o', 'git apply fix.patch && python -m pytest -q tests/test_mean.py\r\n'],
    [49.0, 'o', '\x1b[32m...\x1b[0m                                                                      [100%]\r\n'],
    [49.1, 'o', '\x1b[32m3 passed\x1b[0m in 0.03s\r\n\x1b[1;34m~/stats\x1b[0m$ '],
  ];
  return {
    format: 'harbor',
    externalId: 'weighted-mean__7c1e',
    task: {
      name: 'fix-weighted-mean',
      instruction:
        'The function `weighted_mean` in stats/mean.py is wrong. It must return $\\bar{x}_w = \\frac{\\sum_i w_i x_i}{\\sum_i w_i}$ and raise a ValueError when $\\sum_i w_i = 0$. Make the tests in tests/test_mean.py pass without changing them.',
      acceptanceCriteria: [
        { key: 'weighted-mean-formula', text: 'weighted_mean divides by the total weight', origin: 'task', verdict: null },
        {
          key: 'tests/test_mean.py::test_weighted_mean',
          text: 'tests/test_mean.py::test_weighted_mean',
          origin: 'verifier',
          verdict: true,
        },
        { key: 'tests/test_mean.py::test_zero_weights', text: 'tests/test_mean.py::test_zero_weights', origin: 'verifier', verdict: true },
        { key: 'tests/test_mean.py::test_mean', text: 'tests/test_mean.py::test_mean', origin: 'verifier', verdict: true },
      ],
      environment: 'docker · python:3.12',
      split: 'eval',
      metadata: {},
    },
    policy: { model: 'anthropic/claude-sonnet-4-5', checkpoint: null, agent: 'terminus-2' },
    steps: [
      {
        index: 0,
        source: 'system',
        text: 'You are an agent working in a Linux terminal.',
        reasoning: null,
        toolCalls: [],
        observations: [],
        timestamp: '2025-11-02T09:00:00Z',
        castTime: null,
        usage: null,
      },
      {
        index: 1,
        source: 'user',
        text: 'Fix weighted_mean so that it computes $\\bar{x}_w = \\frac{\\sum_i w_i x_i}{\\sum_i w_i}$.',
        reasoning: null,
        toolCalls: [],
        observations: [],
        timestamp: '2025-11-02T09:00:01Z',
        castTime: null,
        usage: null,
      },
      {
        index: 2,
        source: 'agent',
        text: 'First I run the tests to see what fails.',
        reasoning:
          'The docstring says len(xs) but a weighted mean divides by the sum of the weights. Run the tests to confirm before editing.',
        toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'python -m pytest -q tests/test_mean.py' } }],
        observations: [
          {
            toolCallId: 'c1',
            content: '.F.\nFAILED tests/test_mean.py::test_weighted_mean - assert 1.0 == 2.5\n1 failed, 2 passed in 0.04s',
            isError: false,
          },
        ],
        timestamp: '2025-11-02T09:00:02Z',
        castTime: 0,
        usage: null,
      },
      {
        index: 3,
        source: 'agent',
        text: 'With weights $w = (1, 3)$ and $x = (1, 3)$ the weighted mean is\n$$\\bar{x}_w = \\frac{1\\cdot 1 + 3 \\cdot 3}{1 + 3} = \\frac{10}{4} = 2.5,$$\nbut the code divides by $n = 2$ instead of $\\sum_i w_i = 4$. I will patch it and guard against $\\sum_i w_i = 0$.',
        reasoning: null,
        toolCalls: [{ id: 'c2', name: 'apply_patch', arguments: { patch } }],
        observations: [
          { toolCallId: 'c2', content: 'Patch applied to stats/mean.py (1 file changed, 5 insertions, 2 deletions)', isError: false },
        ],
        timestamp: '2025-11-02T09:00:07Z',
        castTime: 7.5,
        usage: null,
      },
      {
        index: 4,
        source: 'agent',
        text: 'Tests pass. Checking the data loader output is unchanged.',
        reasoning: null,
        toolCalls: [{ id: 'c3', name: 'bash', arguments: { command: 'python -m stats.load data/samples.csv' } }],
        observations: [{ toolCallId: 'c3', content: longLog, isError: false }],
        timestamp: '2025-11-02T09:00:50Z',
        castTime: 49.5,
        usage: null,
      },
    ],
    verifier: {
      reward: 1,
      components: {
        'test:tests/test_mean.py::test_weighted_mean': 1,
        'test:tests/test_mean.py::test_zero_weights': 1,
        'test:tests/test_mean.py::test_mean': 1,
      },
    },
    judgeScores: [
      { judge: 'correctness', score: 1, label: 'pass', explanation: 'Divides by the total weight and raises on a zero total, as asked.' },
      { judge: 'style', score: 0.75, label: 'good', explanation: 'Clear docstring; the guard could name the empty-input case separately.' },
    ],
    usage: { promptTokens: 18_250, completionTokens: 1_420, costUsd: 0.0761 },
    terminal: { version: 2, width: 90, height: 24, title: 'fix-weighted-mean', events },
    submission: patch,
    exitStatus: 'completed',
    startedAt: '2025-11-02T09:00:00Z',
    endedAt: '2025-11-02T09:00:58Z',
    metadata: {},
  };
}
