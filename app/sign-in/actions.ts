'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { roleHome } from '@/lib/auth/roles';
import { signIn } from '@/lib/auth/sign-in';
import { AppError } from '@/lib/errors';
import { forwardSetCookies } from '../_server/forward-cookies';

export type SignInState = { error: string | null; email: string };

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '');
  let home: string;
  try {
    const { user, setCookies } = await signIn({ email, password: String(form.get('password') ?? '') }, await headers());
    await forwardSetCookies(setCookies);
    home = roleHome[user.role];
  } catch (error) {
    if (error instanceof AppError) return { error: error.message, email };
    console.error('[sign-in]', error);
    return { error: 'Sign-in is unavailable right now. Try again in a moment.', email };
  }
  redirect(home);
}
