import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI only (generate, migrate diff for new migrations). The app applies
// migrations itself (lib/db/migrate.ts), so nothing at run time needs a schema engine.
// Prisma 6 otherwise downloads a native schema engine, which fails offline: `engine: 'js'`
// runs the wasm one through a driver adapter instead. `prisma generate` without a URL
// falls back to a download too, so give it a harmless default.
process.env.DATABASE_URL ??= 'postgresql://witness:witness@127.0.0.1:54329/witness';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    const url = new URL(process.env.DATABASE_URL!);
    return new PrismaPg({
      host: url.hostname,
      port: Number(url.port || 5432),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: url.pathname.slice(1),
    });
  },
});
