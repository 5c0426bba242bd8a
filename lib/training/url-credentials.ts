/**
 * A sink URL may carry credentials (`https://user:pw@trainer.example/hook`: node:http sends them
 * as Basic auth). They must never reach a stored error, a log line, the admin page or an audit
 * row, so every text about a sink goes through `redactUrlCredentials` first.
 */
const userinfo = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#\s@]*(?:@[^/?#\s@]*)*@/gi;

/**
 * `text` with the userinfo of every URL in it replaced by `***` (`https://user:pw@host` ->
 * `https://***@host`), and, when the sink's own URL is given, any copy of its user name or
 * password (as typed or percent-decoded: an error that quotes them without the URL around them).
 */
export function redactUrlCredentials(text: string, sinkUrl?: string): string {
  let out = text.replace(userinfo, '$1***@');
  for (const secret of credentialsOf(sinkUrl)) out = out.split(secret).join('***');
  return out;
}

/** The user name and password of a URL, raw and decoded, longest first (none when it has none or is not a URL). */
function credentialsOf(urlText: string | undefined): string[] {
  if (!urlText || !URL.canParse(urlText)) return [];
  const url = new URL(urlText);
  const found = new Set<string>();
  for (const part of [url.password, url.username]) {
    if (!part) continue;
    found.add(part);
    try {
      found.add(decodeURIComponent(part));
    } catch {
      // a malformed escape: the raw form is enough
    }
  }
  // a one- or two-letter part would blank out unrelated text; the URL pattern still removes it in place
  return [...found].filter((s) => s.length >= 3).sort((a, b) => b.length - a.length);
}
