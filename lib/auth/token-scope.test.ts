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
});
