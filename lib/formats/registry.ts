import { aiderImporter } from './aider';
import { anthropicImporter } from './anthropic';
import { asciinemaImporter } from './asciinema';
import { atifImporter } from './atif';
import { claudeCodeImporter } from './claude-code';
import { clineImporter } from './cline';
import { codexImporter } from './codex';
import { harborImporter } from './harbor';
import type { Importer } from './importer';
import { inspectImporter } from './inspect';
import { miniSweAgentImporter } from './mini-swe-agent';
import { openaiImporter } from './openai';
import { openHandsImporter } from './openhands';
import { sweAgentImporter } from './swe-agent';
import { tau2Importer } from './tau2';
import { tauBenchImporter } from './tau-bench';
import { terminalBenchImporter } from './terminal-bench';
import type { FormatName } from './trajectory';

/** Every importer by format name. */
export const importers: Record<FormatName, Importer> = {
  harbor: harborImporter,
  'terminal-bench': terminalBenchImporter,
  atif: atifImporter,
  asciinema: asciinemaImporter,
  inspect: inspectImporter,
  'swe-agent': sweAgentImporter,
  'mini-swe-agent': miniSweAgentImporter,
  'tau-bench': tauBenchImporter,
  tau2: tau2Importer,
  openai: openaiImporter,
  anthropic: anthropicImporter,
  'claude-code': claudeCodeImporter,
  codex: codexImporter,
  cline: clineImporter,
  openhands: openHandsImporter,
  aider: aiderImporter,
};

export function getImporter(format: FormatName): Importer {
  return importers[format];
}
