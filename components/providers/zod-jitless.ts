import { z } from 'zod';

/**
 * In the browser zod must not compile parsers with `new Function`: the studio's CSP has no
 * 'unsafe-eval' (lib/http/security-headers.ts), and zod's probe for it is reported as a CSP
 * violation even though it is caught. Imported first by the root client provider.
 */
z.config({ jitless: true });
