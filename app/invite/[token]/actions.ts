'use server';

import { createHash } from 'node:crypto';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { clientAddress, limits, spendLimit } from '@/lib/auth/rate-limit';
import { roleHome } from '@/lib/auth/roles';
import { signIn } from '@/lib/auth/sign-in';
import { acceptInvite } from '@/lib/auth/accept-invite';
import type { ActionResult } from '@/lib/action-result';
import { AppError } from '@/lib/errors';
import { toActionError } from '../../_server/action';
import { forwardSetCookies } from '../../_server/forward-cookies';

/** A form action (useActionState): null before the first try; on success it signs in and redirects. */
export async function acceptInviteAction(_previous: ActionResult<null> | null, form: FormData): Promise<ActionResult<null> | null> {
  const token = String(form.get('token') ?? '');
  const password = String(form.get('password') ?? '');
  let home: string;
  try {
    if (password !== String(form.get('confirm') ?? ''))
      throw new AppError('BAD_INPUT', 'The two passwords differ.', { details: { field: 'confirm' } });
    const now = new Date();
    const requestHeaders = await headers();
    await spendLimit(limits.inviteClient, clientAddress(requestHeaders), now, 'invitation attempts from your address');
    await spendLimit(limits.inviteToken, createHash('sha256').update(token).digest('hex'), now, 'attempts on this invitation');
    const user = await acceptInvite({ token, name: String(form.get('name') ?? ''), password });
    const { setCookies } = await signIn({ email: user.email, password }, requestHeaders);
    await forwardSetCookies(setCookies);
    home = roleHome[user.role];
  } catch (error) {
    return { ok: false, error: toActionError(error, '[invite]') };
  }
  redirect(home);
}
