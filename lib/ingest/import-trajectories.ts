import { detectFormat } from '../formats/detect';
import type { ImportInput } from '../formats/importer';
import { getImporter } from '../formats/registry';
import { probeDir, probeFile } from '../formats/source';
import type { FormatName } from '../formats/trajectory';
import { storeTrajectory } from '../db/trajectories';
import { AppError } from '../errors';
import type { CollectedInput } from './collect-inputs';
import { prepareTrajectory, type ImportOverrides } from './prepare-trajectory';
import { rawSource } from './raw-source';

export interface ImportedTrajectory {
  id: string;
  format: FormatName;
  steps: number;
  task: string;
  policy: string;
  /** false when the same content was already in the project */
  created: boolean;
}

export interface ImportError {
  path: string;
  where: string;
  message: string;
}

/** The report of `witness import --json` and POST /api/v1/trajectories (same code). */
export interface ImportReport {
  imported: number;
  skipped: number;
  failed: number;
  trajectories: ImportedTrajectory[];
  errors: ImportError[];
}

export interface ImportOptions extends ImportOverrides {
  projectId: string;
  format: FormatName | 'auto';
  importedById: string | null;
  /** called after each item (progress for the CLI) */
  onItem?: (item: { ok: true; trajectory: ImportedTrajectory } | { ok: false; error: ImportError }) => void;
}

/**
 * Imports every collected input: detects the format from content (unless forced), parses,
 * and stores each trajectory in its own transaction. A bad file or item is reported with
 * where and what, and never stops the others or leaves anything half-written.
 */
export async function importTrajectories(inputs: AsyncIterable<CollectedInput> | Iterable<CollectedInput>, options: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { imported: 0, skipped: 0, failed: 0, trajectories: [], errors: [] };
  const fail = (error: ImportError) => {
    report.failed++;
    report.errors.push(error);
    options.onItem?.({ ok: false, error });
  };

  for await (const collected of inputs) {
    if (!collected.ok) {
      fail({ path: collected.path, where: collected.where, message: collected.message });
      continue;
    }
    if (collected.input.kind === 'file' && collected.input.file.size === 0) {
      fail({ path: collected.path, where: 'file', message: 'empty file: nothing to import' });
      continue;
    }
    const format = options.format === 'auto' ? await detect(collected.input) : options.format;
    if (!format) {
      fail({ path: collected.path, where: collected.input.kind === 'dir' ? 'directory' : 'file', message: unknownFormatMessage(collected.input) });
      continue;
    }
    let source: Awaited<ReturnType<typeof rawSource>> | null = null;
    try {
      source = await rawSource(collected.input, format);
      for await (const item of getImporter(format).parse(collected.input)) {
        if (!item.ok) {
          // importers often start the message with the pointer that `where` already gives
          const message = item.message.startsWith(`${item.where}: `) ? item.message.slice(item.where.length + 2) : item.message;
          fail({ path: collected.path, where: item.where, message });
          continue;
        }
        try {
          const prepared = prepareTrajectory(item.trajectory, options);
          const stored = await storeTrajectory(options.projectId, prepared, { source, sourceWhere: item.where, importedById: options.importedById });
          const imported: ImportedTrajectory = {
            id: stored.id,
            format,
            steps: item.trajectory.steps.length,
            task: item.trajectory.task.name,
            policy: prepared.policyName,
            created: stored.created,
          };
          if (stored.created) report.imported++;
          else report.skipped++;
          report.trajectories.push(imported);
          options.onItem?.({ ok: true, trajectory: imported });
        } catch (error) {
          if (!(error instanceof AppError)) console.error(`[import] ${collected.path} ${item.where}:`, error);
          fail({ path: collected.path, where: item.where, message: error instanceof AppError ? error.message : 'could not store this trajectory (database error; see server log)' });
        }
      }
    } catch (error) {
      fail({ path: collected.path, where: collected.input.kind === 'dir' ? 'directory' : 'file', message: `unreadable as ${format}: ${(error as Error).message}` });
    }
  }
  return report;
}

async function detect(input: ImportInput): Promise<FormatName | null> {
  const probe = input.kind === 'file' ? await probeFile(input.file) : await probeDir(input.dir);
  return detectFormat(probe);
}

function unknownFormatMessage(input: ImportInput): string {
  return input.kind === 'dir'
    ? 'not a recognised trajectory directory (expected a Harbor trial or job); pass --format to force one'
    : 'format not recognised from its content (expected Harbor/ATIF, asciinema, Inspect, SWE-agent, mini-swe-agent, tau-bench, tau2, OpenAI or Anthropic); pass --format to force one';
}
