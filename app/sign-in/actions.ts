'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { roleHome } from '@/lib/auth/roles';
import { signIn } from '@/lib/auth/sign-in';
import type { ActionResult } from '@/lib/action-result';
import { toActionError } from '../_server/action';
import { forwardSetCookies } from '../_server/forward-cookies';

/** A form action (useActionState): null before the first try; on success it redirects to the user's home. */
export async function signInAction(_previous: ActionResult<null> | null, form: FormData): Promise<ActionResult<null> | null> {
  const email = String(form.get('email') ?? '');
  let home: string;
  try {
    const { user, setCookies } = await signIn({ email, password: String(form.get('password') ?? '') }, await headers());
    await forwardSetCookies(setCookies);
    home = roleHome[user.role];
  } catch (error) {
    return { ok: false, error: toActionError(error, '[sign-in]') };
  }
  redirect(home);
}
