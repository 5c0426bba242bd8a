import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';

/**
 * The review load test's client (bench/review.bench.ts), in a process of its own: 50 reviewers
 * claiming and submitting through the API as fast as they can, plus the static samplers, so the
 * client's own CPU and event loop never sit inside the process that checks the database, and
 * its CPU can be reported beside the studio's. Forked with IPC: takes one `LoadPlan` message,
 * answers one `LoadResult`, exits. Requests go through node:http on a keep-alive agent (one
 * connection per reviewer, as a browser keeps one): fetch (undici) took ~4 ms of CPU a request
 * here, CPU the studio shares on this machine.
 */
export const loadPlan = z.object({
  base: z.string(),
  campaignId: z.string(),
  tokens: z.array(z.string()).min(1),
  seconds: z.number().positive(),
  staticPath: z.string(),
  staticSamplers: z.number().int().nonnegative(),
});
export type LoadPlan = z.infer<typeof loadPlan>;

export interface LoadResult {
  claimMs: number[];
  submitMs: number[];
  staticMs: number[];
  acknowledged: string[];
  replays: number;
  errors: number;
  errorLines: string[];
  /** response bodies as sent (compressed when the server compressed them) and as JSON text */
  claimBytes: { wire: number; json: number };
  /** the client process's CPU over the run (user + system), ms */
  cpuMs: number;
  seconds: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

/** One request, asking for gzip as browsers and fetch do: status, headers, the body's size on the wire and its text. */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; wire: number; text: string }>((resolve, reject) => {
    const headers = { 'accept-encoding': 'gzip', ...options.headers };
    const req = http.request(url, { method: options.method ?? 'GET', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wire: raw.length, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

async function runLoad(plan: LoadPlan): Promise<LoadResult> {
  const { base, campaignId, tokens, staticPath } = plan;
  const claimMs: number[] = [];
  const submitMs: number[] = [];
  const staticMs: number[] = [];
  const acknowledged = new Set<string>();
  const errorLines: string[] = [];
  let replays = 0;
  let errors = 0;
  let exhausted = 0;
  const claimBytes = { wire: 0, json: 0 };
  const fail = (line: string) => {
    errors++;
    if (errorLines.length < 3) errorLines.push(line);
  };
  const deadline = performance.now() + plan.seconds * 1000;

  async function reviewer(token: string, index: number): Promise<void> {
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    let n = 0;
    while (performance.now() < deadline) {
      let t0 = performance.now();
      const claim = await request(`${base}/api/v1/campaigns/${campaignId}/assignments`, { method: 'POST', headers, body: '{}' });
      const text = claim.text;
      claimMs.push(performance.now() - t0);
      if (claim.status === 204) {
        exhausted++;
        return;
      }
      if (claim.status !== 201 && claim.status !== 200) {
        fail(`claim answered ${claim.status}: ${text.slice(0, 300)}`);
        continue;
      }
      if (claimBytes.json === 0) {
        claimBytes.json = Buffer.byteLength(text);
        claimBytes.wire = claim.wire;
      }
      const assignmentId = (JSON.parse(text) as { assignment: { assignment: { id: string } } }).assignment.assignment.id;
      const body = JSON.stringify({
        answers: { overall: 1 + ((index + n) % 5) },
        evidence: [],
        coverage: { ranges: [], speeds: [1], seeks: 0 },
        idempotencyKey: randomUUID(),
        durationSec: 30,
      });
      // one submit in twenty is sent twice with the same key (a retried request)
      const times = n % 20 === 0 ? 2 : 1;
      for (let attempt = 0; attempt < times; attempt++) {
        t0 = performance.now();
        const submit = await request(`${base}/api/v1/assignments/${assignmentId}/reviews`, { method: 'POST', headers, body });
        const answer = JSON.parse(submit.text) as { review?: { id: string } };
        submitMs.push(performance.now() - t0);
        if (submit.status === 201 || submit.status === 200) {
          acknowledged.add(answer.review!.id);
          if (attempt > 0) replays++;
        } else fail(`submit answered ${submit.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      }
      n++;
    }
  }

  async function staticLoad(): Promise<void> {
    while (performance.now() < deadline && exhausted < tokens.length) {
      const t0 = performance.now();
      const response = await request(`${base}${staticPath}`);
      if (response.status !== 200) fail(`static file answered ${response.status}`);
      staticMs.push(performance.now() - t0);
      // a sampler, not a second load: the yardstick must not eat the server the reviewers use (at 50 ms
      // between requests the 5 samplers cost the studio ~2 ms of CPU each, ~5 ms of the CPU per review it reported)
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await Promise.all([...tokens.map((t, i) => reviewer(t, i)), ...Array.from({ length: plan.staticSamplers }, () => staticLoad())]);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    claimMs,
    submitMs,
    staticMs,
    acknowledged: [...acknowledged],
    replays,
    errors,
    errorLines,
    claimBytes,
    cpuMs: (cpu.user + cpu.system) / 1000,
    seconds,
  };
}

process.once('message', (message) => {
  void runLoad(loadPlan.parse(message)).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: Error) => {
      process.stderr.write(`load client failed: ${error.stack ?? error.message}\n`);
      process.exit(1);
    },
  );
});
