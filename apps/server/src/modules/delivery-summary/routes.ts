import { z } from 'zod';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = orgCaller;

// end-user §7 "Messages": the delivery summary of a sent message, downloaded or sent to Intake.
export function deliverySummaryRoutes(app: App, deps: service.DeliverySummaryDeps) {
  const config = { roles: ORG_USERS };
  const tags = ['messages'];

  app.route({
    method: 'GET',
    url: '/api/messages/:id/deliverysummary',
    config,
    // No response schema: 200 is the PDF's bytes.
    schema: { tags, params: idParams },
    handler: async (request, reply) => {
      const summary = await service.download(deps, caller(request), request.params.id);
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="${summary.fileName}"`);
      return reply.type('application/pdf').send(Buffer.from(summary.bytes));
    },
  });
  app.route({
    method: 'POST',
    url: '/api/messages/:id/deliverysummary/sendtointake',
    config,
    schema: { tags, params: idParams, response: { 200: z.object({ message: z.string() }) } },
    handler: (request) => service.sendToIntake(deps, caller(request), request.params.id),
  });
}
