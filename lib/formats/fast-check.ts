import type { z } from 'zod';

/**
 * A precompiled, allocation-free acceptance test for a zod schema: `check(value)` is true only
 * when `schema.safeParse(value)` would succeed with data equal to `value` itself (no key
 * stripped, nothing defaulted or transformed), so the caller can use the value as parsed and
 * skip zod's copy of it. False means "ask zod" (which then reports the error, or strips unknown
 * keys): never a verdict on its own. Importers validate every file this way (ATIF documents and
 * every normalised trajectory); zod's parse rebuilds each object, several times the cost of
 * walking it.
 *
 * Compiled from the schema's definition (zod 4's `_zod.def`) for the kinds the import schemas
 * use: string (min length, regex), number (finite; safe integer; >, >=), boolean, literal, enum,
 * object (strip: no unknown keys; loose), record of string keys, array, tuple, union, optional,
 * nullable, unknown. A schema with anything else compiles to null: no fast path.
 */
export type FastCheck = (value: unknown) => boolean;

type Def = {
  type: string;
  checks?: { _zod: { def: Record<string, unknown> } }[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  entries?: Record<string, unknown>;
  values?: unknown[];
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

export function compileFastCheck(schema: z.ZodType): FastCheck | null {
  try {
    return compile(schema);
  } catch (error) {
    if (error instanceof Unsupported) return null;
    throw error;
  }
}

class Unsupported extends Error {}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Whether `undefined` passes (a missing key is then fine). */
function acceptsUndefined(schema: z.ZodType): boolean {
  const type = defOf(schema).type;
  return type === 'optional' || type === 'unknown' || type === 'any';
}

function compile(schema: z.ZodType): FastCheck {
  const def = defOf(schema);
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'unknown':
    case 'any':
      if (checks.length > 0) throw new Unsupported();
      return () => true;
    case 'boolean':
      if (checks.length > 0) throw new Unsupported();
      return (v) => typeof v === 'boolean';
    case 'string': {
      const tests = checks.map((c): ((s: string) => boolean) => {
        const d = c._zod.def;
        if (d.check === 'min_length' && typeof d.minimum === 'number') {
          const min = d.minimum;
          return (s) => s.length >= min;
        }
        if (d.check === 'string_format' && d.format === 'regex' && d.pattern instanceof RegExp) {
          const pattern = new RegExp(d.pattern.source, d.pattern.flags.replace(/[gy]/g, ''));
          return (s) => pattern.test(s);
        }
        throw new Unsupported();
      });
      return (v) => typeof v === 'string' && tests.every((t) => t(v));
    }
    case 'number': {
      const tests = checks.map((c): ((n: number) => boolean) => {
        const d = c._zod.def;
        if (d.check === 'number_format' && d.format === 'safeint') return (n) => Number.isSafeInteger(n);
        if (d.check === 'greater_than' && typeof d.value === 'number') {
          const min = d.value;
          return d.inclusive ? (n) => n >= min : (n) => n > min;
        }
        throw new Unsupported();
      });
      return (v) => typeof v === 'number' && Number.isFinite(v) && tests.every((t) => t(v));
    }
    case 'literal': {
      const values = new Set(def.values ?? []);
      return (v) => values.has(v);
    }
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'union': {
      const options = (def.options ?? []).map(compile);
      return (v) => options.some((o) => o(v));
    }
    case 'array': {
      if (checks.length > 0) throw new Unsupported();
      const element = compile(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'tuple': {
      if (checks.length > 0 || def.rest) throw new Unsupported();
      const items = (def.items ?? []).map(compile);
      return (v) => Array.isArray(v) && v.length === items.length && items.every((item, i) => item(v[i]));
    }
    case 'record': {
      if (checks.length > 0 || defOf(def.keyType!).type !== 'string' || (defOf(def.keyType!).checks ?? []).length > 0)
        throw new Unsupported();
      const value = compile(def.valueType!);
      const anyValue = ['unknown', 'any'].includes(defOf(def.valueType!).type);
      return (v) => {
        if (!isPlain(v) || Object.hasOwn(v, '__proto__')) return false;
        if (anyValue) return true;
        for (const key in v) if (!value(v[key])) return false;
        return true;
      };
    }
    case 'object': {
      if (checks.length > 0) throw new Unsupported();
      const catchall = def.catchall ? defOf(def.catchall).type : null;
      if (catchall !== null && catchall !== 'unknown') throw new Unsupported(); // strip (no catchall) or loose only
      const fields = Object.entries(def.shape ?? {}).map(([key, s]) => ({ key, check: compile(s), optional: acceptsUndefined(s) }));
      const known = new Set(fields.map((f) => f.key));
      const loose = catchall === 'unknown';
      return (v) => {
        if (!isPlain(v)) return false;
        for (const f of fields) {
          const x = v[f.key];
          if (x === undefined ? !f.optional : !f.check(x)) return false;
        }
        if (!loose) for (const key in v) if (!known.has(key)) return false; // zod would strip it: ask zod
        return true;
      };
    }
    default:
      throw new Unsupported();
  }
}
