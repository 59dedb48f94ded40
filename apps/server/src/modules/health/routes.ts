import { healthResponse } from '@clinicrelay/contracts/health.ts';
import { ping, type Database } from '../../db/client.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import type { Scanner } from '../../platform/antivirus/scanner.ts';

// Says when uploads are not scanned at all, so an operator cannot miss it.
const antivirusState = async (scanner: Scanner) =>
  !scanner.configured ? ('not configured — uploads are not scanned' as const) : (await scanner.ping()) ? ('ok' as const) : ('unreachable' as const);

export function healthRoutes(app: App, deps: { db: Database; scanner: Scanner }) {
  app.route({
    method: 'GET',
    url: '/api/health',
    config: { roles: 'public' },
    schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } },
    handler: async (_request, reply) => {
      const [databaseUp, antivirus] = await Promise.all([ping(deps.db), antivirusState(deps.scanner)]);
      if (databaseUp) return { status: 'ok' as const, database: 'ok' as const, antivirus };
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ status: 'unavailable', database: 'unavailable', antivirus });
    },
  });
}
