import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it } from 'vitest';
import { noAdminYet } from '@/lib/auth/member-commands';
import { createUser } from '@/lib/auth/create-user';
import { db } from '@/lib/db/client';
import { resetDatabase } from '@/lib/db/test/reset';
import { FirstAdminNotice } from './first-admin-notice';

const render = async () => {
  const element = await FirstAdminNotice();
  return element ? renderToStaticMarkup(element) : null;
};
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");

describe("the sign-in page's first-admin notice", () => {
  beforeEach(resetDatabase);

  it('shows the line that creates the first admin while no active admin exists, and nothing once one does', async () => {
    await createUser({ email: 'lead@example.com', name: 'lead', role: 'lead', password: 'long enough password' });
    const shown = await render();
    expect(shown).toContain('data-testid="first-admin"');
    // the same command witness start prints (noAdminYet), and nothing about the users that exist
    expect(text(shown!)).toContain(noAdminYet.replace('  ', ' '));
    expect(shown).not.toContain('lead@example.com');

    const admin = await createUser({ email: 'root@example.com', name: 'root', role: 'admin', password: 'long enough password' });
    expect(await render()).toBeNull();
    // a disabled admin cannot sign in: the studio has no admin again
    await db().user.update({ where: { id: admin.id }, data: { disabledAt: new Date() } });
    expect(await render()).toContain('data-testid="first-admin"');
  });
});
