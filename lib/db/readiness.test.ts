import { afterEach, describe, expect, it } from 'vitest';
import { expectSteps, markDone, markPending, pendingSteps } from './readiness';

describe('studio readiness', () => {
  afterEach(() => expectSteps({}));

  it('lists the declared steps until each is done, and an outage until it is over', () => {
    expectSteps({ migrations: 'applying', demo: 'seeding', worker: 'starting' });
    expect(pendingSteps()).toEqual(['migrations: applying', 'demo: seeding', 'worker: starting']);
    markDone('migrations');
    markDone('worker');
    expect(pendingSteps()).toEqual(['demo: seeding']);
    markDone('demo');
    expect(pendingSteps()).toEqual([]);
    markPending('database', 'restarting (PostgreSQL exited on SIGKILL)');
    expect(pendingSteps()).toEqual(['database: restarting (PostgreSQL exited on SIGKILL)']);
    markDone('database');
    expect(pendingSteps()).toEqual([]);
  });

  it('is shared by every copy of the module (Next bundles one per route)', async () => {
    expectSteps({ worker: 'starting' });
    const copy = await import(`./readiness?copy=${Date.now()}`);
    expect(copy.pendingSteps()).toEqual(['worker: starting']);
  });
});
