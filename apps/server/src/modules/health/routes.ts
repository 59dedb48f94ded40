import { healthResponse } from '@clinicrelay/contracts/health.ts';
import { ping, type Database } from '../../db/client.ts';
import type { App } from '../../platform/http.ts';

export function healthRoutes(app: App, deps: { db: Database }) {
  app.route({
    method: 'GET',
    url: '/api/health',
    config: { roles: 'public' },
    schema: { tags: ['health'], response: { 200: healthResponse, 503: healthResponse } },
    handler: async (_request, reply) => {
      if (await ping(deps.db)) return { status: 'ok' as const, database: 'ok' as const };
      return reply.status(503).send({ status: 'unavailable', database: 'unavailable' });
    },
  });
}
