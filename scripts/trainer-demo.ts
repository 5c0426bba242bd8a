/**
 * `npm run trainer`: a local trainer agent for the demo, beside a running `npm start` studio (same
 * machine, same data dir and port settings), on a CPU, no GPU needed:
 *
 * 1. the trainers' venv (scripts/trainers/venv.ts: torch CPU, transformers, TRL; created once, a
 *    few minutes) with the Python client (clients/python: `witness-trainer`) installed into it;
 * 2. the tiny model (scripts/trainers/tiny_model.py: a random 1-layer Qwen2 and a local tokenizer)
 *    under <data dir>/tiny-model, built once: start runs with `--base-uri <that folder>`;
 * 3. a token of scope training for the demo lead (`witness token create --user lead@witness.local
 *    --scope training --json`, a second command on the studio's database);
 * 4. `witness-trainer` (serving runs until Ctrl-C) with examples/train_dpo.py as the training command
 *    (3 optimizer steps: seconds on a CPU) and examples/eval_generate.py as the eval command, runs
 *    under <data dir>/trainer-runs/<run id>.
 *
 * Arguments after `--` go to witness-trainer (e.g. `npm run trainer -- --once`, `--labels gpu=cpu`).
 * It prints each step and the commands it runs. A run for it: the lead's "Train on these labels" on a
 * campaign or dataset page, or `npm run -s witness -- train start --project demo --format trl-dpo
 * --base acme-coder-7b@ckpt-2000 --base-uri <data dir>/tiny-model`.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, dataDir } from '../lib/env';
import { createTokenWithCli } from './trainers/create-token';
import { ensureTrainersVenv, installPythonClient, root, runCommand } from './trainers/venv';

const LEAD = 'lead@witness.local';
const say = (line: string) => console.log(`[trainer] ${line}`);

async function main(): Promise<number> {
  const url = baseUrl();
  const data = dataDir();
  const healthy = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.ok,
    () => false,
  );
  if (!healthy) {
    console.error(`[trainer] no studio answers at ${url}: start it first (npm start, in another terminal), then run npm run trainer again`);
    return 1;
  }
  say(`studio ${url}, data dir ${data}`);

  const venv = await ensureTrainersVenv(say);
  if (!venv.ok) {
    console.error(`[trainer] ${venv.message}`);
    return 1;
  }
  say(`venv ${venv.venv} (${venv.created ? 'created' : 'reused'})`);
  const work = path.join(data, 'trainer-demo');
  mkdirSync(work, { recursive: true });
  const installed = await installPythonClient(venv.python, work);
  if (!installed.ok) {
    console.error(`[trainer] pip install ./clients/python failed:\n${installed.message}`);
    return 1;
  }
  const bin = path.dirname(venv.python);
  const trainer = path.join(bin, 'witness-trainer');
  say(`witness-trainer installed from clients/python into the venv`);

  const pyEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
    PYTHONUNBUFFERED: '1',
    HF_HUB_OFFLINE: '1',
    HF_DATASETS_OFFLINE: '1',
    TOKENIZERS_PARALLELISM: 'false',
  };
  const tiny = path.join(data, 'tiny-model');
  if (existsSync(path.join(tiny, 'config.json'))) say(`tiny model ${tiny} (built before)`);
  else {
    say(`building the tiny model into ${tiny}`);
    const built = await runCommand(venv.python, [path.join(root, 'scripts', 'trainers', 'tiny_model.py'), tiny], {
      quiet: true,
      env: pyEnv,
    });
    if (built.code !== 0) {
      console.error(
        `[trainer] scripts/trainers/tiny_model.py failed (exit ${built.code}):\n${built.output.trim().split('\n').slice(-10).join('\n')}`,
      );
      return 1;
    }
  }

  say(`witness token create --user ${LEAD} --scope training`);
  const made = await createTokenWithCli({ user: LEAD, scope: 'training', name: 'npm run trainer' });
  if (!made.ok) {
    console.error(`[trainer] witness token create failed (exit ${made.code}):\n${made.output.trim().split('\n').slice(-10).join('\n')}`);
    return 1;
  }
  const token = made.token;

  const py = JSON.stringify(venv.python);
  const command =
    `${py} ${JSON.stringify(path.join(root, 'examples', 'train_dpo.py'))} --data {dataset} --model {base_uri} --out {out} ` +
    '--max-steps 3 --batch-size 2 --grad-accum 1 --lr 1e-3 --max-length 8192';
  const evalCommand = `${py} ${JSON.stringify(path.join(root, 'examples', 'eval_generate.py'))} --checkpoint-uri {checkpoint_uri} --tasks {tasks} --out {eval_out}`;
  const args = [
    '--url',
    url,
    '--token',
    token,
    '--work-dir',
    path.join(data, 'trainer-runs'),
    '--name',
    'demo-cpu',
    '--command',
    command,
    '--eval-command',
    evalCommand,
    ...process.argv.slice(2),
  ];
  say(`witness-trainer --url ${url} --token <training token> --work-dir ${path.join(data, 'trainer-runs')} --name demo-cpu \\`);
  say(`  --command '${command}' \\`);
  say(`  --eval-command '${evalCommand}'${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`);
  say(
    `waiting for runs (Ctrl-C stops): start one with "Train on these labels" as ${LEAD}, or\n` +
      `  npm run -s witness -- train start --project demo --format trl-dpo --base acme-coder-7b@ckpt-2000 --base-uri ${tiny}`,
  );
  const child = spawn(trainer, args, { cwd: root, env: pyEnv, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  return await new Promise<number>((resolve) => {
    child.on('error', (error) => {
      console.error(`[trainer] ${trainer}: ${error.message}`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
  });
}

process.exitCode = await main();
