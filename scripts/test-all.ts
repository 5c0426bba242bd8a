/**
 * `npm test`: everything, in order: typecheck, lint, unit tests, database tests (real embedded
 * Postgres), production build, e2e (Playwright in Debian's Chromium, installed when missing).
 * Ends with one plain line `N passed, N failed` (tests counted one by one; typecheck, lint and
 * build count as one check each). `npm test -- --skip-e2e` skips the build and browser tests.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'test-results');
const skipE2e = process.argv.includes('--skip-e2e');

interface StepResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  seconds: number;
  /** names and first error lines of the failed tests, repeated under the summary (CI logs keep only the tail) */
  failures?: string[];
}

const firstLine = (text: string | undefined) =>
  (text ?? '')
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .find((l) => l.trim())
    ?.trim()
    .slice(0, 300) ?? '';

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

async function check(name: string, command: string, args: string[], env?: Record<string, string>): Promise<StepResult> {
  const t0 = performance.now();
  console.log(`\n=== ${name} ===`);
  const code = await run(command, args, env);
  return { name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0, seconds: (performance.now() - t0) / 1000 };
}

async function vitest(project: 'unit' | 'db'): Promise<StepResult> {
  const t0 = performance.now();
  const report = path.join(out, `vitest-${project}.json`);
  rmSync(report, { force: true });
  console.log(`\n=== ${project} tests ===`);
  const code = await run(bin('vitest'), [
    'run',
    '--project',
    project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  const seconds = (performance.now() - t0) / 1000;
  if (!existsSync(report)) return { name: `${project} tests`, passed: 0, failed: 1, skipped: 0, seconds };
  const r = JSON.parse(readFileSync(report, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTotalTests: number;
    testResults: {
      name: string;
      status: string;
      message?: string;
      assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
    }[];
  };
  // a crash outside any test (failed suite) still fails the step
  const failed = r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
  const failures = r.testResults.flatMap((file) => {
    const where = path.relative(root, file.name);
    const tests = file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `${where} › ${t.fullName}: ${firstLine(t.failureMessages[0])}`);
    return tests.length || file.status !== 'failed' ? tests : [`${where}: ${firstLine(file.message)}`];
  });
  return { name: `${project} tests`, passed: r.numPassedTests, failed, skipped: r.numPendingTests, seconds, failures };
}

async function e2e(): Promise<StepResult> {
  const t0 = performance.now();
  const report = path.join(out, 'playwright.json');
  rmSync(report, { force: true });
  console.log('\n=== e2e (Playwright, Debian Chromium) ===');
  const code = await run(bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  const seconds = (performance.now() - t0) / 1000;
  if (!existsSync(report)) return { name: 'e2e', passed: 0, failed: 1, skipped: 0, seconds };
  const r = JSON.parse(readFileSync(report, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites?: PlaywrightSuite[];
  };
  const failed = r.stats.unexpected + (code !== 0 && r.stats.unexpected === 0 ? 1 : 0);
  const failures = (r.suites ?? []).flatMap((suite) => playwrightFailures(suite));
  return { name: 'e2e', passed: r.stats.expected + r.stats.flaky, failed, skipped: r.stats.skipped, seconds, failures };
}

interface PlaywrightSuite {
  title: string;
  file?: string;
  suites?: PlaywrightSuite[];
  specs?: { title: string; file: string; line: number; tests: { status: string; results: { error?: { message?: string } }[] }[] }[];
}

function playwrightFailures(suite: PlaywrightSuite): string[] {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests
      .filter((t) => t.status === 'unexpected')
      .map((t) => `${spec.file}:${spec.line} › ${spec.title}: ${firstLine(t.results.at(-1)?.error?.message)}`),
  );
  return [...own, ...(suite.suites ?? []).flatMap((s) => playwrightFailures(s))];
}

const t0 = performance.now();
const results: StepResult[] = [];
results.push(await check('typecheck', bin('tsc'), ['--noEmit', '-p', '.']));
results.push(await check('lint', bin('eslint'), ['--max-warnings', '0', '.']));
results.push(await check('format (prettier --check)', bin('prettier'), ['--check', '--log-level', 'warn', '.']));
results.push(await vitest('unit'));
results.push(await vitest('db'));
if (!skipE2e) {
  const build = await check('build (next build)', bin('next'), ['build']);
  results.push(build);
  const chromium = await check('chromium present', 'bash', [path.join(root, 'scripts', 'ensure-chromium.sh')]);
  results.push(chromium);
  if (build.failed === 0 && chromium.failed === 0) results.push(await e2e());
  else results.push({ name: 'e2e', passed: 0, failed: 1, skipped: 0, seconds: 0 });
}

const total = results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), {
  passed: 0,
  failed: 0,
  skipped: 0,
});
console.log('\n=== summary ===');
for (const r of results) {
  console.log(
    `${r.failed ? 'FAIL' : 'ok  '}  ${r.name.padEnd(22)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${r.seconds.toFixed(1)} s`,
  );
}
const failures = results.flatMap((r) => r.failures ?? []);
if (failures.length) {
  console.log('failed:');
  for (const f of failures) console.log(`  ${f}`);
}
console.log(`total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
process.exitCode = total.failed === 0 ? 0 : 1;
