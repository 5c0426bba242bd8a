import 'server-only';
import { cookies } from 'next/headers';

/** Passes Set-Cookie headers from better-auth's answer on to Next's response cookies. */
export async function forwardSetCookies(setCookies: string[]): Promise<void> {
  const jar = await cookies();
  for (const header of setCookies) {
    const [pair, ...attributes] = header.split(';').map((s) => s.trim());
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = decodeURIComponent(pair.slice(eq + 1));
    const options: Parameters<typeof jar.set>[2] = {};
    for (const attribute of attributes) {
      const [rawKey, ...rest] = attribute.split('=');
      const key = rawKey!.toLowerCase();
      const v = rest.join('=');
      if (key === 'max-age') options.maxAge = Number(v);
      else if (key === 'path') options.path = v;
      else if (key === 'httponly') options.httpOnly = true;
      else if (key === 'secure') options.secure = true;
      else if (key === 'samesite') options.sameSite = v.toLowerCase() as 'lax' | 'strict' | 'none';
      else if (key === 'expires') options.expires = new Date(v);
    }
    if (options.maxAge === 0 || value === '') jar.delete(name);
    else jar.set(name, value, options);
  }
}
