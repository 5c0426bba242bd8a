import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { atifDocumentSchema } from './atif';
import { detectFormat } from './detect';
import { compileFastCheck } from './fast-check';
import { getImporter } from './registry';
import { dirSource, fileSource, probeDir, probeFile } from './source';
import { trajectorySchema, type Trajectory } from './trajectory';

/**
 * The property the fast path rests on: accepted => zod accepts it too and returns an equal value
 * (equal as data: zod's copy lists object keys in the schema's order, see item.ts).
 */
function agreesWithZod(schema: z.ZodType, value: unknown): boolean {
  const check = compileFastCheck(schema)!;
  if (!check(value)) return true; // a refusal only sends the value to zod
  const parsed = schema.safeParse(value);
  return parsed.success && isDeepStrictEqual(parsed.data, value);
}
function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  try {
    expect(a).toStrictEqual(b);
    return true;
  } catch {
    return false;
  }
}

async function fixtureTrajectories(): Promise<Trajectory[]> {
  const root = path.join(import.meta.dirname, 'fixtures');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      return e.isDirectory() ? [full, ...walk(full)] : [full];
    });
  const out: Trajectory[] = [];
  for (const p of walk(root)) {
    const input = statSync(p).isDirectory()
      ? ({ kind: 'dir', dir: dirSource(p) } as const)
      : ({ kind: 'file', file: fileSource(p, statSync(p).size) } as const);
    const format = detectFormat(input.kind === 'dir' ? await probeDir(input.dir) : await probeFile(input.file));
    if (!format) continue;
    try {
      for await (const item of getImporter(format).parse(input)) if (item.ok) out.push(item.trajectory);
    } catch {
      // a fixture that is meant to fail
    }
  }
  return out;
}

describe('compileFastCheck', () => {
  it('compiles the import schemas (ATIF documents, the normalised trajectory)', () => {
    expect(compileFastCheck(atifDocumentSchema)).not.toBeNull();
    expect(compileFastCheck(trajectorySchema)).not.toBeNull();
  });

  it('accepts what every importer builds from the fixtures, each value exactly what zod returns', async () => {
    const trajectories = await fixtureTrajectories();
    expect(trajectories.length).toBeGreaterThan(30);
    const check = compileFastCheck(trajectorySchema)!;
    for (const t of trajectories) {
      expect(check(t)).toBe(true);
      expect(agreesWithZod(trajectorySchema, t)).toBe(true);
    }
    // ATIF documents of the fixtures: accepted, and zod returns the same value
    const atif = compileFastCheck(atifDocumentSchema)!;
    for (const name of readdirSync(path.join(import.meta.dirname, 'fixtures')).filter((n) => n.endsWith('.json'))) {
      const doc = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8')) as unknown;
      expect(agreesWithZod(atifDocumentSchema, doc)).toBe(true);
      if (atifDocumentSchema.safeParse(doc).success) expect(atif(doc)).toBe(true);
    }
  });

  it('refuses (sends to zod) whatever zod would refuse or change', async () => {
    const [t] = await fixtureTrajectories();
    const step = t!.steps[0]!;
    const bad: unknown[] = [
      { ...t, extra: 1 }, // zod strips an unknown key: not the same value
      { ...t, task: { ...t!.task, name: '' } },
      { ...t, format: 'unknown-format' },
      { ...t, externalId: undefined },
      { ...t, usage: { promptTokens: Number.NaN, completionTokens: null, costUsd: null } },
      { ...t, usage: { promptTokens: Infinity, completionTokens: null, costUsd: null } },
      { ...t, usage: { promptTokens: -1, completionTokens: null, costUsd: null } },
      { ...t, steps: [{ ...step, index: 1.5 }] },
      { ...t, steps: [{ ...step, index: -1 }] },
      { ...t, steps: [{ ...step, castTime: -0.1 }] },
      { ...t, steps: [{ ...step, source: 'robot' }] },
      { ...t, steps: [{ ...step, toolCalls: [{ id: 1, name: 'x', arguments: {} }] }] },
      { ...t, metadata: [] },
      { ...t, metadata: JSON.parse('{"__proto__": {"x": 1}}') as unknown },
      { ...t, verifier: { reward: null, components: { a: 'one' } } },
      { ...t, terminal: { version: 4, width: 80, height: 24, title: null, events: [] } },
      { ...t, terminal: { version: 2, width: 80, height: 24, title: null, events: [[0, 'o', 'x', 'extra']] } },
      { ...t, terminal: { version: 2, width: 0, height: 24, title: null, events: [] } },
      new (class Trajectoryish {})(),
      null,
      [],
    ];
    const check = compileFastCheck(trajectorySchema)!;
    for (const value of bad) {
      expect(check(value)).toBe(false);
      expect(agreesWithZod(trajectorySchema, value)).toBe(true);
    }
    const atif = compileFastCheck(atifDocumentSchema)!;
    const doc = { schema_version: 'ATIF-v1.4', agent: { name: 'a' }, steps: [{ step_id: 1, source: 'agent', message: 'hi' }] };
    expect(atif(doc)).toBe(true);
    for (const value of [
      { ...doc, schema_version: 'ATIF-1.4' },
      { ...doc, steps: [{ step_id: 1.5, source: 'agent', message: 'hi' }] },
      {
        ...doc,
        steps: [{ step_id: 1, source: 'agent', message: 'hi', tool_calls: [{ tool_call_id: 'c', function_name: 'f', arguments: 'x' }] }],
      },
      { ...doc, agent: {} },
    ]) {
      expect(atif(value)).toBe(false);
      expect(atifDocumentSchema.safeParse(value).success).toBe(false);
    }
  });

  it('compiles to null (no fast path) for a kind it does not know', () => {
    expect(compileFastCheck(z.object({ when: z.date() }))).toBeNull();
    expect(compileFastCheck(z.string().transform((s) => s.length))).toBeNull();
    expect(compileFastCheck(z.object({ n: z.number().default(1) }))).toBeNull();
    expect(compileFastCheck(z.strictObject({ a: z.string() }))).toBeNull();
    expect(compileFastCheck(z.string().email())).toBeNull();
  });
});
