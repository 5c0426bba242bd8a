import { setImmediate as turn } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySource } from '../formats/source';
import { parseLargeOnThread, stopParseThread } from './body-parse-thread';
import { parseCollected, type ParsedSlot } from './parse-collected';

/* Issue 39, row 5: a large request body is parsed on the web process's parse thread, not on its event loop. */

function cast(events: number): string {
  const lines = [JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1 })];
  for (let i = 0; i < events; i++)
    lines.push(JSON.stringify([i * 0.01, i % 50 === 0 ? 'm' : 'o', i % 50 === 0 ? `mark ${i}` : `out ${i}\r\n`]));
  return `${lines.join('\n')}\n`;
}

const options = { format: 'auto' as const, importedById: null };
const summary = (slots: ParsedSlot[]) =>
  slots.map(({ slot }) => (slot.ok ? { ...slot.meta, hash: slot.storable.contentHash, source: slot.storable.source?.sha256 } : slot.error));

afterAll(() => stopParseThread());

describe('parse thread (issue 39, row 5)', () => {
  it('parses a large body to the same slots as inline parsing while the event loop keeps turning', async () => {
    const text = cast(200_000);
    const collected = () => ({ ok: true as const, path: 'body', input: { kind: 'file' as const, file: memorySource('body', text) } });
    const parse = parseLargeOnThread(1024)(collected(), null, options);
    expect(parse).not.toBeNull();
    let turns = 0;
    let done = false;
    const counting = (async () => {
      while (!done) {
        await turn();
        turns++;
      }
    })();
    const slots = await parse!;
    done = true;
    await counting;
    const inline: ParsedSlot[] = [];
    for await (const slot of parseCollected(collected(), null, options)) inline.push(slot);
    expect(summary(slots)).toEqual(summary(inline));
    // the writer's bytes come back as Buffers (node-postgres sends only a Buffer as bytea)
    const first = slots[0]!.slot;
    expect(first.ok && first.storable.stepCopy.every((b) => Buffer.isBuffer(b)) && Buffer.isBuffer(first.storable.source!.content)).toBe(
      true,
    );
    expect(summary(slots)[0]).toMatchObject({ format: 'asciinema', steps: 4000 });
    // inline, the parse holds the loop for its whole length; on the thread the loop turned meanwhile
    expect(turns).toBeGreaterThan(20);
  }, 60_000);

  it('leaves small bodies inline', () => {
    const small = { ok: true as const, path: 'body', input: { kind: 'file' as const, file: memorySource('body', '{}') } };
    expect(parseLargeOnThread()(small, null, options)).toBeNull();
  });
});
