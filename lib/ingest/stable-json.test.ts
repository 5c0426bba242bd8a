import { describe, expect, it } from 'vitest';
import { buildTrajectory } from '../formats/build-trajectory';
import { trajectorySchema } from '../formats/trajectory';
import { stableStringify, stableTrajectoryText } from './stable-json';

// the definition the stored content hashes were made with: JSON.stringify of a copy with sorted keys
function reference(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object' && !(v instanceof Date)) {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort())
        if ((v as Record<string, unknown>)[key] !== undefined) out[key] = sort((v as Record<string, unknown>)[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sort(value));
}

const base = trajectorySchema.parse(
  buildTrajectory({
    format: 'atif',
    task: { name: 'fix the build', metadata: { z: 1, a: { y: [1, { d: 2, c: 3 }] } } },
    policy: { model: 'm', agent: 'terminus-2' },
    steps: [
      { source: 'user', text: 'Fix it.\n"quoted" \u2713' },
      {
        source: 'agent',
        text: '',
        reasoning: 'look first',
        toolCalls: [{ id: 'c1', name: 'bash', arguments: { timeout_sec: 30, command: 'ls -la', '10': 'x', '2': 'y' } }],
        observations: [{ toolCallId: 'c1', content: 'a\tb\\c \u0000 \ud800', isError: false }],
        timestamp: '2025-11-02T09:00:00.000Z',
        usage: { promptTokens: 10, completionTokens: null, costUsd: 0.25 },
      },
    ],
    extra: { metadata: { schemaVersion: 'ATIF-v1.4', extra: { b: true, a: null } }, verifier: { reward: 1, components: { z: 1, a: 0 } } },
  }),
);

describe('stableTrajectoryText', () => {
  it('writes the same text as the sorted-key JSON the content hashes were made with, and each step its JSON columns', () => {
    const { text, steps } = stableTrajectoryText(base);
    expect(text).toBe(reference(base));
    expect(text).toBe(stableStringify(base));
    expect(steps).toHaveLength(2);
    base.steps.forEach((s, i) => {
      expect(steps![i]).toEqual({ toolCalls: reference(s.toolCalls), observations: reference(s.observations), usage: reference(s.usage) });
    });
  });

  it('writes objects off the normalised shape (extra, missing or undefined keys, odd values) exactly as the reference does', () => {
    const step = base.steps[1]!;
    const odd: unknown[] = [
      { ...base, extra: 1 },
      { ...base, endedAt: undefined },
      { ...base, steps: 'not a list' },
      { ...base, steps: [...base.steps, null, undefined, 5, { ...step, more: 1 }, { ...step, text: { b: 1, a: 2 } }] },
      { ...base, steps: [{ ...step, toolCalls: [{ id: 'a', name: 'n', arguments: undefined }, null, { ...step.toolCalls[0], x: 1 }] }] },
      { ...base, steps: [{ ...step, observations: [{ content: 'c', isError: false }], usage: { promptTokens: 1 } }] },
      { ...base, metadata: { b: { d: 1, c: 2 }, a: new Date(0), f: () => 1, '7': 'seven', '4294967295': 'not an index' } },
      [base, { b: 1, a: 2 }],
      'text',
      null,
    ];
    for (const value of odd) expect(stableTrajectoryText(value).text).toBe(reference(value));
    // a step not of the shape gets no pieces (its columns are written from the values)
    const mixed = stableTrajectoryText({ ...base, steps: [step, { ...step, more: 1 }] });
    expect(mixed.steps![0]).not.toBeNull();
    expect(mixed.steps![1]).toBeNull();
    expect(stableTrajectoryText({ ...base, extra: 1 }).steps).toBeNull();
  });
});

describe('stableStringify', () => {
  it('writes exactly the definition, for JSON values and for odd ones (index keys, __proto__, dates, toJSON, undefined, functions)', () => {
    const values: unknown[] = [
      { b: 1, a: [3, { d: undefined, c: () => 1, e: Symbol('s') }, undefined, null], '': 'empty', é: 'accent', Z: 'upper' },
      { '10': 'ten', '9': 'nine', '01': 'not an index', '4294967294': 'last index', '4294967295': 'not an index', '-1': 'no', x: 1 },
      { '3': undefined, '2': () => 1, '1': 'only' },
      { '5': 'only indices', '0': 'zero' },
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
      JSON.parse('{"__proto__": 5, "b": [1, {"__proto__": null}]}'),
      { when: new Date(0), nested: [{ at: new Date(1) }] },
      { custom: { toJSON: () => 'custom' }, b: 2 },
      { notMethod: { toJSON: 1 } },
      Object.assign(Object.create(null) as object, { b: 1, a: 2 }),
      [1, -0, 1e21, NaN, Infinity, 'x\u0000\ud800"\\', true, false, [], {}],
      Object.assign([1, 2], { extra: 'ignored by JSON' }),
      [1, , 3],
      JSON.parse(JSON.stringify(base)),
    ];
    for (const value of values) expect(stableStringify(value)).toBe(reference(value));
    expect(() => stableStringify({ big: 1n })).toThrow(TypeError);
  });

  it('writes random nested JSON the same as the definition', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const keys = ['a', 'b', 'Z', 'é', '0', '7', '10', '007', 'key with space', '"q"', '\u2713'];
    const make = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return [null, true, 1.5, -3, 'text\n"\u001b', ''][Math.floor(random() * 6)];
      if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
      const out: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 6); i > 0; i--) out[keys[Math.floor(random() * keys.length)]!] = make(depth + 1);
      return out;
    };
    for (let i = 0; i < 500; i++) {
      const value = make(0);
      expect(stableStringify(value)).toBe(reference(value));
    }
  });
});
