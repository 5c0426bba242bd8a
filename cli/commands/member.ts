import { parseArgs } from 'node:util';
import { addProjectMember, listMembersByProject, removeProjectMemberByName } from '../../lib/auth/manage-project-members';
import { memberAddCommand } from '../../lib/auth/member-commands';
import { projectRoles, type ProjectRole } from '../../lib/auth/project-access';
import { disconnectDb } from '../../lib/db/client';
import { CliError, type CliCommand } from '../command';
import { openDatabase } from '../database';

const help = `Usage: witness member add --project NAME --user EMAIL --role lead|reviewer [--json]
       witness member remove --project NAME --user EMAIL [--json]
       witness member list [--project NAME] [--json]

Project membership from a terminal, as an admin does it on the Admin page (the same checks,
every change in the audit log with no actor and the command as its reason). The user must
exist (\`witness user create\`); only users with the lead role can lead a project; admins reach
every project without being members. Adding someone again with the same role changes
nothing; with the other role it changes their role.

  --project NAME   the project's name (its slug, as in \`witness import --project NAME\`)
  --user EMAIL     the user's email
  --role ROLE      lead (manages the project and reviews in it) or reviewer (reviews only)
  --json           add: {"project", "user", "role", "previous"} (previous: the role before, or null)
                   remove: {"project", "user", "removed"} (removed: the role they had)
                   list: {"projects": [{"slug", "name", "members": [{"email", "name", "globalRole", "role"}]}]}`;

export const memberCommand: CliCommand = {
  name: 'member',
  summary: 'manage project members (member add, remove, list)',
  help,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'add' && sub !== 'remove' && sub !== 'list')
      throw new CliError(`unknown subcommand ${sub ?? '(none)'}: expected "witness member add", "remove" or "list"`, 2);
    const { values } = parseArgs({
      args: rest,
      options: {
        project: { type: 'string' },
        user: { type: 'string' },
        role: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    });
    // usage problems are refused before the database is opened
    if (sub !== 'list') {
      if (!values.project) throw new CliError(`--project is required: ${memberAddCommand()}`, 2);
      if (!values.user) throw new CliError(`--user is required: ${memberAddCommand({ project: values.project })}`, 2);
    }
    if (sub === 'add' && !(projectRoles as readonly string[]).includes(values.role ?? ''))
      throw new CliError(`--role must be ${projectRoles.join(' or ')}`, 2);
    if (sub !== 'add' && values.role !== undefined) throw new CliError(`--role is for "witness member add" only`, 2);
    if (sub === 'list' && values.user !== undefined) throw new CliError('--user is for "witness member add" and "remove" only', 2);

    const database = await openDatabase();
    try {
      if (sub === 'add') {
        const change = await addProjectMember({ project: values.project!, user: values.user!, role: values.role as ProjectRole });
        if (values.json) io.stdout(JSON.stringify(change) + '\n');
        else if (change.previous === change.role)
          io.stdout(`${change.user} is already a ${change.role} of ${change.project}: nothing changed\n`);
        else if (change.previous) io.stdout(`${change.user} is now a ${change.role} of ${change.project} (was ${change.previous})\n`);
        else io.stdout(`Added ${change.user} to ${change.project} as ${change.role}\n`);
      } else if (sub === 'remove') {
        const removed = await removeProjectMemberByName({ project: values.project!, user: values.user! });
        if (values.json) io.stdout(JSON.stringify(removed) + '\n');
        else io.stdout(`Removed ${removed.user} (${removed.removed}) from ${removed.project}\n`);
      } else {
        const projects = await listMembersByProject(values.project);
        const shaped = projects.map((p) => ({
          slug: p.slug,
          name: p.name,
          members: p.members.map((m) => ({ email: m.user.email, name: m.user.name, globalRole: m.user.role, role: m.role })),
        }));
        if (values.json) io.stdout(JSON.stringify({ projects: shaped }) + '\n');
        else if (shaped.length === 0) io.stdout('No projects yet.\n');
        else
          for (const p of shaped) {
            io.stdout(`${p.slug}${p.name !== p.slug ? `  (${p.name})` : ''}\n`);
            if (p.members.length === 0)
              io.stdout(`  no members: only admins reach it. Add one with  ${memberAddCommand({ project: p.slug })}\n`);
            for (const m of p.members) io.stdout(`  ${m.role.padEnd(8)}  ${m.email}${m.name !== m.email ? `  (${m.name})` : ''}\n`);
          }
      }
      return 0;
    } finally {
      await disconnectDb();
      await database.stop();
    }
  },
};
