import { describe, expect, it } from 'vitest';
import { commands } from './main';

describe('cli/main command registry', () => {
  it("lists each command under its own name and summary (loaded lazily, so they're checked here)", async () => {
    for (const entry of commands) {
      const command = await entry.load();
      expect(command.name).toBe(entry.name);
      expect(command.summary).toBe(entry.summary);
    }
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
  }, 60_000);
});
