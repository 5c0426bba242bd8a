/**
 * Every page and every public API route, with what it is about and who may reach it: the
 * membership matrix (e2e/membership-matrix.spec.ts) requests each row as an admin, a lead and a
 * reviewer of the project, a lead and a reviewer of another project, and a token narrowed to
 * another project; app/_server/route-table.test.ts fails when a page.tsx or route.ts under app/
 * has no row, so a new route cannot be added without saying how it is scoped.
 *
 * `path` placeholders are fixture ids of the project under test (project A):
 *   :project     its slug (a query parameter of project-wide pages and routes)
 *   :campaign    a single-item campaign        :pairCampaign  a pairwise campaign
 *   :item        an item of :campaign          :trajectory    one of its trajectories
 *   :assignment  the caller's own single-item claim in A (another member's for outsiders)
 *   :pairAssignment the same in the pairwise campaign
 *   :export      a finished dataset export     :video         a rendered video
 *   :run         a finished training run of A with its checkpoint
 *   :token       an invitation token (public page)
 */
export type RouteArea = 'public' | 'studio' | 'review' | 'lead' | 'admin';

export interface RouteRow {
  /** the file under app/ that serves it */
  file: string;
  method: 'GET' | 'POST';
  path: string;
  /** the global role area the edge checks first (admin: admins only; lead: leads and admins; review and studio: everyone signed in) */
  area: RouteArea;
  /**
   * how it is scoped by project membership:
   * - `id`: about one thing of project A (an id or the project's slug): outsiders get 404
   * - `list`: lists what the caller reaches: outsiders get 2xx without A's data
   * - `none`: not project data (sign-in, the caller's tokens, admin pages: admins reach everything)
   */
  scope: 'id' | 'list' | 'none';
  /** the status an allowed caller gets (the request is built to pass the guard; a 422 means the guard passed and the body was read) */
  ok: number[];
  /** request body for POST */
  body?: unknown;
  /** a member's answer names project A (a list that shows A's things to members) */
  showsProject?: boolean;
  /**
   * `witness start` serves it itself, before Next's request layer (lib/http/fast-lane.ts), with
   * the handler its route.ts exports: the review loop's per-review routes, where Next's
   * per-request machinery was a quarter of a review's CPU. `next start`/`next dev` serve it through Next.
   */
  fastLane?: true;
}

const page = (file: string, path: string, area: RouteArea, scope: RouteRow['scope'], extra: Partial<RouteRow> = {}): RouteRow => ({
  file: `app/${file}`,
  method: 'GET',
  path,
  area,
  scope,
  ok: [200],
  ...extra,
});
const api = (
  method: 'GET' | 'POST',
  file: string,
  path: string,
  area: RouteArea,
  scope: RouteRow['scope'],
  extra: Partial<RouteRow> = {},
): RouteRow => ({ file: `app/api/v1/${file}`, method, path: `/api/v1/${path}`, area, scope, ok: [method === 'GET' ? 200 : 201], ...extra });

export const pageRoutes: RouteRow[] = [
  page('page.tsx', '/', 'public', 'none'),
  page('sign-in/page.tsx', '/sign-in', 'public', 'none'),
  page('invite/[token]/page.tsx', '/invite/:token', 'public', 'none'),
  page('(studio)/admin/page.tsx', '/admin', 'admin', 'none'),
  page('(studio)/admin/sinks/page.tsx', '/admin/sinks', 'admin', 'none'),
  page('(studio)/settings/tokens/page.tsx', '/settings/tokens', 'studio', 'none'),
  page('(studio)/review/page.tsx', '/review', 'review', 'list', { showsProject: true }),
  page('(studio)/review/items/[assignmentId]/page.tsx', '/review/items/:assignment', 'review', 'id'),
  page('(studio)/review/compare/[assignmentId]/page.tsx', '/review/compare/:pairAssignment', 'review', 'id'),
  page('(studio)/lead/page.tsx', '/lead', 'lead', 'list', { showsProject: true }),
  page('(studio)/lead/campaigns/page.tsx', '/lead/campaigns', 'lead', 'list', { showsProject: true }),
  page('(studio)/lead/campaigns/new/page.tsx', '/lead/campaigns/new', 'lead', 'list', { showsProject: true }),
  page('(studio)/lead/campaigns/[id]/page.tsx', '/lead/campaigns/:campaign', 'lead', 'id'),
  page('(studio)/lead/campaigns/[id]/agreement/page.tsx', '/lead/campaigns/:campaign/agreement', 'lead', 'id'),
  page('(studio)/lead/campaigns/[id]/adjudication/page.tsx', '/lead/campaigns/:campaign/adjudication', 'lead', 'id'),
  page('(studio)/lead/campaigns/[id]/adjudication/[itemId]/page.tsx', '/lead/campaigns/:campaign/adjudication/:item', 'lead', 'id'),
  page('(studio)/lead/agreement/page.tsx', '/lead/agreement', 'lead', 'list', { showsProject: true }),
  page('(studio)/lead/datasets/page.tsx', '/lead/datasets?project=:project', 'lead', 'id'),
  page('(studio)/trajectories/page.tsx', '/trajectories?project=:project', 'lead', 'id'),
  page('(studio)/trajectories/[id]/page.tsx', '/trajectories/:trajectory', 'lead', 'id'),
  page('(studio)/import/page.tsx', '/import', 'lead', 'list', { showsProject: true }),
  page('(studio)/insight/page.tsx', '/insight?project=:project', 'lead', 'id'),
  page('(studio)/insight/environments/page.tsx', '/insight/environments?project=:project', 'lead', 'id'),
  page('(studio)/insight/policies/page.tsx', '/insight/policies?project=:project', 'lead', 'id'),
  page('(studio)/insight/compare/page.tsx', '/insight/compare?project=:project', 'lead', 'id'),
  // training: the runs of the projects the caller leads; one run (:run, a run of A); the hill climb of A
  page('(studio)/training/page.tsx', '/training', 'lead', 'list'),
  page('(studio)/training/runs/[id]/page.tsx', '/training/runs/:run', 'lead', 'id'),
  page('(studio)/training/hill-climb/page.tsx', '/training/hill-climb?project=:project', 'lead', 'id'),
];

export const apiRoutes: RouteRow[] = [
  { file: 'app/api/health/route.ts', method: 'GET', path: '/api/health', area: 'public', scope: 'none', ok: [200] },
  // the MCP server (lib/mcp/mcp-server.ts): every signed-in caller, its tools scoped per project by the use-cases;
  // a plain JSON POST without the Streamable HTTP Accept header is answered 406 by the transport, after the guard
  {
    file: 'app/api/mcp/route.ts',
    method: 'POST',
    path: '/api/mcp',
    area: 'studio',
    scope: 'none',
    ok: [200, 406],
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  },
  // a PNG still of a trajectory's rendered MP4 (the MCP get_still tool links here); 409 while it is not rendered
  {
    file: 'app/api/mcp/stills/[id]/route.ts',
    method: 'GET',
    path: '/api/mcp/stills/:trajectory?frame=0',
    area: 'lead',
    scope: 'id',
    ok: [200, 409],
  },
  api('GET', 'me/route.ts', 'me', 'studio', 'none'),
  // the contract (OpenAPI 3.1): public, the same for everyone
  api('GET', 'openapi.json/route.ts', 'openapi.json', 'public', 'none'),
  api('GET', 'projects/route.ts', 'projects', 'studio', 'list', { showsProject: true }),
  api('GET', 'trajectories/[id]/route.ts', 'trajectories/:trajectory', 'lead', 'id'),
  api('GET', 'trajectories/[id]/video/route.ts', 'trajectories/:trajectory/video', 'lead', 'id', { ok: [200, 202] }),
  api('GET', 'trajectories/route.ts', 'trajectories?project=:project&limit=5', 'lead', 'id'),
  // an empty body: the guard passes first, then the body is refused (422)
  api('POST', 'trajectories/route.ts', 'trajectories?project=:project', 'lead', 'id', { ok: [422], body: '' }),
  api('GET', 'campaigns/route.ts', 'campaigns?project=:project', 'lead', 'id'),
  api('POST', 'campaigns/route.ts', 'campaigns', 'lead', 'id', {
    body: {
      project: ':project',
      name: 'Matrix-made campaign',
      mode: 'single',
      overlap: 1,
      open: false,
      rubric: {
        name: 'matrix rubric',
        definition: { title: 'Matrix', questions: [{ id: 'overall', prompt: 'How good is it?', type: 'likert', points: 5 }] },
      },
    },
  }),
  api('GET', 'campaigns/[id]/route.ts', 'campaigns/:campaign', 'lead', 'id'),
  api('POST', 'campaigns/[id]/status/route.ts', 'campaigns/:campaign/status', 'lead', 'id', { ok: [200], body: { status: 'open' } }),
  api('GET', 'campaigns/[id]/agreement/[table]/route.ts', 'campaigns/:campaign/agreement/questions.csv', 'lead', 'id'),
  api('GET', 'campaigns/[id]/agreement/route.ts', 'campaigns/:campaign/agreement', 'lead', 'id'),
  api('GET', 'campaigns/[id]/estimates/route.ts', 'campaigns/:campaign/estimates', 'lead', 'id'),
  api('POST', 'campaigns/[id]/assignments/route.ts', 'campaigns/:campaign/assignments', 'review', 'id', { ok: [201, 204], fastLane: true }),
  api('GET', 'reviews/route.ts', 'reviews?campaignId=:campaign', 'review', 'id'),
  api('GET', 'assignments/[id]/route.ts', 'assignments/:assignment', 'review', 'id'),
  api('GET', 'assignments/[id]/video/route.ts', 'assignments/:assignment/video', 'review', 'id'),
  api('POST', 'assignments/[id]/reviews/route.ts', 'assignments/:assignment/reviews', 'review', 'id', {
    ok: [422],
    body: {},
    fastLane: true,
  }),
  api('POST', 'assignments/[id]/comparisons/route.ts', 'assignments/:pairAssignment/comparisons', 'review', 'id', {
    ok: [422],
    body: {},
    fastLane: true,
  }),
  api('POST', 'assignments/[id]/skip/route.ts', 'assignments/:assignment/skip', 'review', 'id', { ok: [422], body: { reason: '' } }),
  api('GET', 'exports/[id]/route.ts', 'exports/:export', 'lead', 'id'),
  // a training export of A's items (an identical one still queued is joined: the same answer)
  api('POST', 'exports/route.ts', 'exports', 'lead', 'id', { ok: [202], body: { project: ':project', format: 'trl-sft' } }),
  api('GET', 'exports/[id]/card/route.ts', 'exports/:export/card', 'lead', 'id'),
  api('GET', 'exports/[id]/file/route.ts', 'exports/:export/file', 'lead', 'id'),
  api('GET', 'videos/[id]/route.ts', 'videos/:video', 'lead', 'id'),
  api('GET', 'videos/[id]/file/route.ts', 'videos/:video/file', 'lead', 'id'),
  api('GET', 'insight/environments/route.ts', 'insight/environments?project=:project', 'lead', 'id'),
  api('GET', 'insight/policies/route.ts', 'insight/policies?project=:project', 'lead', 'id'),
  api('GET', 'insight/compare/route.ts', 'insight/compare?project=:project', 'lead', 'id'),
  // training runs (:run as above). Start: a base that is no policy of A is refused (422) after the guard, before any work
  api('POST', 'training-runs/route.ts', 'training-runs', 'lead', 'id', {
    ok: [422],
    body: { project: ':project', recipe: 'trl-dpo', base: 'matrix-no-such-policy' },
  }),
  api('GET', 'training-runs/route.ts', 'training-runs?project=:project', 'lead', 'id'),
  api('GET', 'training-runs/[id]/route.ts', 'training-runs/:run', 'lead', 'id'),
  // a finished run cannot be cancelled (409); a queued or running one can
  api('POST', 'training-runs/[id]/cancel/route.ts', 'training-runs/:run/cancel', 'lead', 'id', { ok: [200, 409] }),
  // the trainer agent's calls: an empty body is refused (422) after the guard; claim lists (no agent: 422 for everyone)
  api('POST', 'training-runs/claim/route.ts', 'training-runs/claim', 'lead', 'list', { ok: [422], body: { waitSeconds: 0 } }),
  api('POST', 'training-runs/[id]/heartbeat/route.ts', 'training-runs/:run/heartbeat', 'lead', 'id', { ok: [422], body: {} }),
  api('POST', 'training-runs/[id]/events/route.ts', 'training-runs/:run/events', 'lead', 'id', { ok: [422], body: {} }),
  api('POST', 'training-runs/[id]/checkpoint/route.ts', 'training-runs/:run/checkpoint', 'lead', 'id', { ok: [422], body: {} }),
  api('POST', 'training-runs/[id]/complete/route.ts', 'training-runs/:run/complete', 'lead', 'id', { ok: [422], body: {} }),
  api('GET', 'training-runs/[id]/dataset/route.ts', 'training-runs/:run/dataset', 'lead', 'id'),
  api('GET', 'training-runs/[id]/eval-tasks/route.ts', 'training-runs/:run/eval-tasks', 'lead', 'id'),
  // the canary comparison of a run (:run as above; a run with no checkpoint yet answers its empty comparison)
  api('GET', 'training-runs/[id]/comparison/route.ts', 'training-runs/:run/comparison', 'lead', 'id'),
];

export const routeTable: RouteRow[] = [...pageRoutes, ...apiRoutes];
