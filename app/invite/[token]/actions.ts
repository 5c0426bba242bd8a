'use server';

import { createHash } from 'node:crypto';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { clientAddress, limits, spendLimit } from '@/lib/auth/rate-limit';
import { roleHome } from '@/lib/auth/roles';
import { signIn } from '@/lib/auth/sign-in';
import { acceptInvite } from '@/lib/db/auth/invites';
import { AppError } from '@/lib/errors';
import { forwardSetCookies } from '../../_server/forward-cookies';

export type AcceptState = { error: string | null };

export async function acceptInviteAction(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  const token = String(form.get('token') ?? '');
  const password = String(form.get('password') ?? '');
  let home: string;
  try {
    if (password !== String(form.get('confirm') ?? '')) return { error: 'The two passwords differ.' };
    const now = new Date();
    const requestHeaders = await headers();
    await spendLimit(limits.inviteClient, clientAddress(requestHeaders), now, 'invitation attempts from your address');
    await spendLimit(limits.inviteToken, createHash('sha256').update(token).digest('hex'), now, 'attempts on this invitation');
    const user = await acceptInvite({ token, name: String(form.get('name') ?? ''), password });
    const { setCookies } = await signIn({ email: user.email, password }, requestHeaders);
    await forwardSetCookies(setCookies);
    home = roleHome[user.role];
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    if ((error as { name?: string }).name === 'ZodError') return { error: (error as { issues: { message: string }[] }).issues[0]!.message };
    console.error('[invite]', error);
    return { error: 'Could not create your account right now. Try again in a moment.' };
  }
  redirect(home);
}
