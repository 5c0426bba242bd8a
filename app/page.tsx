import { redirect } from 'next/navigation';
import { currentUser, homeFor } from './_server/current-user';

export default async function RootPage() {
  const user = await currentUser();
  redirect(user ? homeFor(user) : '/sign-in');
}
