/**
 * PostgreSQL refuses the NUL character in text and jsonb ("invalid byte sequence", "unsupported
 * Unicode escape sequence"), so a NUL in a path id, query parameter, form field or JSON body used
 * to reach a query and answer 500. The edges (api-route.ts, read-body.ts, action.ts, proxy.ts)
 * refuse it first, naming where it was.
 */
export function findNulByte(value: unknown, path: (string | number)[] = []): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') || '(root)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNulByte(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key.includes('\0')) return [...path, key.replace(/\0/g, '\\0')].join('.');
      const found = findNulByte(v, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

/** Where a URL carries a NUL (its path, or the name of a query parameter), or null. */
export function findNulInUrl(url: URL): { field: string; message: string } | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { field: 'path', message: 'the path is not valid percent-encoding' };
  }
  if (pathname.includes('\0')) return { field: 'path', message: 'the path must not contain a NUL byte (%00)' };
  for (const [name, value] of url.searchParams) {
    if (name.includes('\0') || value.includes('\0'))
      return {
        field: name.replace(/\0/g, '\\0'),
        message: `query parameter ${name.replace(/\0/g, '\\0')} must not contain a NUL byte (%00)`,
      };
  }
  return null;
}
