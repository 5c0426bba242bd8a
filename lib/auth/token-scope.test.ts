import { describe, expect, it } from 'vitest';
import { tokenScopeRefusal } from './token-scope';

describe('tokenScopeRefusal', () => {
  it('lets an all token make every call', () => {
    expect(tokenScopeRefusal('all', 'POST', '/api/v1/campaigns')).toBeNull();
  });

  it('refuses a read token any non-GET /api/v1 call, naming the scope (403)', () => {
    expect(tokenScopeRefusal('read', 'GET', '/api/v1/exports/x/file')).toBeNull();
    const refusal = tokenScopeRefusal('read', 'POST', '/api/v1/assignments/a/reviews');
    expect(refusal).toMatchObject({ code: 'FORBIDDEN', details: { scope: 'read' } });
    expect(refusal!.message).toBe("This API token has the 'read' scope: it may not POST /api/v1/assignments/a/reviews.");
    // the MCP endpoint is scoped by its tools, not here
    expect(tokenScopeRefusal('read', 'POST', '/api/mcp')).toBeNull();
  });

  it('lets a training token read exports and import trajectories only', () => {
    expect(tokenScopeRefusal('training', 'GET', '/api/v1/exports/e1')).toBeNull();
    expect(tokenScopeRefusal('training', 'GET', '/api/v1/exports/e1/file')).toBeNull();
    expect(tokenScopeRefusal('training', 'POST', '/api/v1/trajectories')).toBeNull();
    expect(tokenScopeRefusal('training', 'GET', '/api/v1/trajectories/t1')?.message).toContain("'training' scope");
    expect(tokenScopeRefusal('training', 'GET', '/api/v1/campaigns')).toMatchObject({ code: 'FORBIDDEN' });
    expect(tokenScopeRefusal('training', 'POST', '/api/v1/exports/e1')).not.toBeNull();
  });

  it('lets a training token make the trainer agent calls and read runs, nothing else of training runs', () => {
    for (const [method, path] of [
      ['POST', '/api/v1/training-runs/claim'],
      ['POST', '/api/v1/training-runs/r1/heartbeat'],
      ['POST', '/api/v1/training-runs/r1/events'],
      ['POST', '/api/v1/training-runs/r1/checkpoint'],
      ['POST', '/api/v1/training-runs/r1/complete'],
      ['GET', '/api/v1/training-runs/r1/dataset'],
      ['GET', '/api/v1/training-runs/r1/eval-tasks'],
      ['GET', '/api/v1/training-runs'],
      ['GET', '/api/v1/training-runs/r1'],
    ])
      expect(tokenScopeRefusal('training', method!, path!), `${method} ${path}`).toBeNull();
    // starting and cancelling runs are a lead's, not an agent's
    const start = tokenScopeRefusal('training', 'POST', '/api/v1/training-runs');
    expect(start).toMatchObject({ code: 'FORBIDDEN', details: { scope: 'training' } });
    expect(start!.message).toContain("'training' scope");
    expect(tokenScopeRefusal('training', 'POST', '/api/v1/training-runs/r1/cancel')).not.toBeNull();
    expect(tokenScopeRefusal('training', 'GET', '/api/v1/training-runs/claim')).not.toBeNull();
    expect(tokenScopeRefusal('training', 'GET', '/api/v1/training-runs/r1/comparison')).not.toBeNull();
    // a read token reads runs but makes no agent call
    expect(tokenScopeRefusal('read', 'GET', '/api/v1/training-runs/r1')).toBeNull();
    expect(tokenScopeRefusal('read', 'POST', '/api/v1/training-runs/claim')).not.toBeNull();
  });
});
