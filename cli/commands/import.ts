import { parseArgs } from 'node:util';
import { makeProjectLead, projectHasNoMembers, userWhoCanLead, type MemberChange } from '../../lib/auth/manage-project-members';
import { memberAddCommand } from '../../lib/auth/member-commands';
import { disconnectDb } from '../../lib/db/client';
import { projectSlugSchema } from '../../lib/trajectories/project-schemas';
import { env } from '../../lib/env';
import { formatNames, splitSchema, type FormatName } from '../../lib/formats/trajectory';
import { collectInputs } from '../../lib/ingest/collect-inputs';
import { importTrajectories } from '../../lib/ingest/import-trajectories';
import { importProjectNamed } from '../../lib/ingest/resolve-import-project';
import { findProjectNamed } from '../../lib/trajectories/find-project-by-slug';
import { defaultParseWorkers, ParsePool } from '../../lib/ingest/parse-pool';
import { defaultReadAhead, ReadAheadPool } from '../../lib/ingest/read-ahead-pool';
import { stopQueueClient } from '../../lib/queue/boss';
import { CliError, type CliCommand } from '../command';
import { openDatabase } from '../database';

export const importCommand: CliCommand = {
  name: 'import',
  summary:
    'import agent trajectories (Harbor, Terminal-Bench, ATIF, asciinema, Inspect, SWE-agent, tau, Claude Code, Codex, Cline, OpenHands, aider, OpenAI, Anthropic)',
  help: `Usage: witness import <path…> [--format auto|${formatNames.join('|')}]
                      [--project NAME] [--lead EMAIL] [--environment NAME] [--policy NAME] [--split train|eval] [--json]

Paths may be files, directories (walked; a Harbor trial or job, a Terminal-Bench run, a tau2
run directory, a Cline / Roo Code task folder and an OpenHands session folder are read as a unit,
their companion files with them) or - for stdin. --format auto (default) detects each input's format from its
content, not its name. Each trajectory is stored in its own transaction; re-importing the
same content creates nothing (it is counted as skipped); a file whose bytes were imported
completely before is not parsed again (its trajectories are listed as skipped, the file
counted in unchangedFiles). One bad file or item does not stop
the others; each error says the file, where in it (line, JSON pointer, zip entry) and what
was expected. A trajectory with no steps is refused, never imported empty. Files over WITNESS_IMPORT_MAX_MB (default 256) are refused.

  --project NAME       project to import into (created when absent; default "default")
  --lead EMAIL         make this user a lead of the project after the import (checked before anything is
                       imported: the user must exist and have the lead role; an admin leads every project already).
                       Without it a new project has no members: only admins reach it until one adds some
                       (the Admin page, or \`witness member add\`)
  --environment NAME   file every task under this environment (default: from the source)
  --policy NAME        file every trajectory under this policy (default: model@checkpoint / agent)
  --split train|eval   split of new tasks (eval tasks never reach training exports)
  --json               print {"imported", "skipped", "failed", "unchangedFiles", "trajectories": [{"id",
                       "format", "steps", "task", "policy"}], "errors": [{"path", "where", "message"}]}; with --lead also
                       "lead": {"user", "project", "membership": "added"|"changed"|"unchanged"|"admin"|"no project"}

Exit status: 0 when nothing failed, 1 when any item failed, 2 for usage errors.`,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string', default: 'auto' },
        project: { type: 'string', default: 'default' },
        lead: { type: 'string' },
        environment: { type: 'string' },
        policy: { type: 'string' },
        split: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    if (positionals.length === 0) throw new CliError('give at least one path (a file, a directory, or - for stdin)', 2);
    const format = values.format as FormatName | 'auto';
    if (format !== 'auto' && !(formatNames as readonly string[]).includes(format)) {
      throw new CliError(`--format must be auto or one of ${formatNames.join(', ')}`, 2);
    }
    const split = values.split === undefined ? null : splitSchema.safeParse(values.split);
    if (split && !split.success) throw new CliError('--split must be train or eval', 2);
    const slug = projectSlugSchema.safeParse(values.project);
    if (!slug.success) throw new CliError(`--project: ${slug.error.issues[0]!.message}`, 2);

    const database = await openDatabase();
    const workers = defaultParseWorkers();
    const parsePool = workers > 0 ? new ParsePool(workers) : undefined;
    const readAhead = defaultReadAhead() ? new ReadAheadPool() : undefined;
    try {
      // refused before anything is imported: an unknown email, or a user who may not lead
      const lead = values.lead === undefined ? null : await userWhoCanLead(values.lead);
      const target = importProjectNamed(slug.data);
      const report = await importTrajectories(
        collectInputs(positionals, { format, maxBytes: env().WITNESS_IMPORT_MAX_MB * 1024 * 1024, readStdin: io.readStdin }),
        {
          // created with the first stored trajectory: a failed import leaves no project behind; files imported
          // completely into it before are skipped unparsed
          projectId: target.projectId,
          existingProjectId: target.existingProjectId,
          format,
          environment: values.environment ?? null,
          policy: values.policy ?? null,
          split: split?.success ? split.data : null,
          importedById: null,
          // parse on the other cores while this thread writes (lib/ingest/parse-pool.ts)
          parsePool,
          // or, on two cores, read, hash and compress on the other one while this thread parses (lib/ingest/read-ahead-pool.ts)
          readAhead,
          // a video render for each new trajectory, when the project renders automatically
          followUps: { databaseUrl: database.url },
          onItem: values.json
            ? undefined
            : (item) => {
                if (item.ok) {
                  const t = item.trajectory;
                  io.stdout(
                    `${t.created ? 'imported' : 'skipped '} ${t.id}  ${t.format}  ${t.steps} steps  task ${t.task}  policy ${t.policy}${t.created ? '' : '  (same content already imported)'}\n`,
                  );
                } else io.stderr(`failed   ${item.error.path}: ${item.error.where}: ${item.error.message}\n`);
              },
        },
      );
      const projectId = target.resolvedId();
      // the project exists when something was stored now or before (a re-import of unchanged files stores nothing)
      const project = lead ? await findProjectNamed(slug.data) : null;
      const leadReport = lead
        ? leadMembership(lead.email, slug.data, project ? await makeProjectLead(project, lead, 'witness import --lead') : undefined)
        : null;
      if (values.json) {
        io.stdout(
          JSON.stringify({
            imported: report.imported,
            skipped: report.skipped,
            failed: report.failed,
            unchangedFiles: report.unchangedFiles,
            trajectories: report.trajectories.map(({ id, format: f, steps, task, policy }) => ({ id, format: f, steps, task, policy })),
            errors: report.errors,
            ...(leadReport ? { lead: leadReport.json } : {}),
          }) + '\n',
        );
      } else {
        if (leadReport) io.stdout(`${leadReport.text}\n`);
        else if (projectId && (await projectHasNoMembers(projectId)))
          io.stdout(
            `project ${slug.data} has no members yet: only admins reach it. Add its lead on the Admin page or with  ${memberAddCommand({ project: slug.data, role: 'lead' })}\n`,
          );
        io.stdout(
          `\n${report.imported} imported, ${report.skipped} skipped (already there${report.unchangedFiles > 0 ? `; ${report.unchangedFiles} unchanged ${report.unchangedFiles === 1 ? 'file' : 'files'} not read again` : ''}), ${report.failed} failed — project ${slug.data}\n`,
        );
      }
      return report.failed > 0 ? 1 : 0;
    } finally {
      await parsePool?.close();
      await readAhead?.close();
      await stopQueueClient();
      await disconnectDb();
      await database.stop();
    }
  },
};

type LeadMembership = 'added' | 'changed' | 'unchanged' | 'admin' | 'no project';

/** What `--lead` did: `change` undefined when no project exists (nothing was stored), null for an admin (no membership needed). */
function leadMembership(
  user: string,
  project: string,
  change: MemberChange | null | undefined,
): { json: { user: string; project: string | null; membership: LeadMembership }; text: string } {
  if (change === undefined)
    return {
      json: { user, project: null, membership: 'no project' },
      text: `${user} was not made a lead: nothing was stored, so there is no project ${project} (import again, or later: ${memberAddCommand({ project, user, role: 'lead' })})`,
    };
  if (change === null) return { json: { user, project, membership: 'admin' }, text: `${user} is an admin: they lead ${project} already` };
  const membership: LeadMembership = change.previous === null ? 'added' : change.previous === change.role ? 'unchanged' : 'changed';
  const text = {
    added: `${user} now leads ${project}`,
    changed: `${user} now leads ${project} (was ${change.previous})`,
    unchanged: `${user} leads ${project} already`,
  }[membership];
  return { json: { user, project, membership }, text };
}
