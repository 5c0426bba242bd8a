'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { signOut } from '@/lib/auth/sign-in';
import { forwardSetCookies } from '../_server/forward-cookies';

/** Ends the session (its row is deleted) and clears the cookie. */
export async function signOutAction(): Promise<void> {
  const setCookies = await signOut(await headers());
  await forwardSetCookies(setCookies);
  redirect('/sign-in');
}
