'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
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
    const user = await acceptInvite({ token, name: String(form.get('name') ?? ''), password });
    const { setCookies } = await signIn({ email: user.email, password }, await headers());
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
