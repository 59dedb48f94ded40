import { z } from 'zod';
import {
  eventsReportQuery,
  failedAcknowledged,
  intakeEvents,
  intakeFilter,
  intakeList,
  intakeStatistics,
  processRequest,
  readResult,
  triageRequest,
} from '@clinicrelay/contracts/intake.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const ADMINS: readonly Role[] = ['Administrator'];
const caller = orgCaller;
const textMessage = z.object({ message: z.string() });

// end-user §7 "Messages" for Intake. The Intake message list is a POST on the Release list's path (the
// filter is a body); POST /api/intake is the same call when UseOptimizedIntake is on.
export function intakeRoutes(app: App, deps: service.IntakeDeps) {
  const config = { roles: ORG_USERS };
  const tags = ['messages'];

  for (const url of ['/api/messages', '/api/intake']) {
    app.route({
      method: 'POST',
      url,
      config: { ...config, readOnly: true, oauthScope: 'intake.read' },
      schema: { tags, body: intakeFilter, response: { 200: intakeList } },
      handler: (request) => service.listIntake(deps, caller(request), request.body),
    });
  }
  // Static segments: find-my-way matches them before GET /api/messages/:id.
  app.route({
    method: 'GET',
    url: '/api/messages/statistics',
    config: { roles: ADMINS },
    schema: { tags, response: { 200: intakeStatistics } },
    handler: (request) => service.statistics(deps, caller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/messages/eventsreport',
    config: { roles: ADMINS },
    // No response schema: 200 is the CSV file.
    schema: { tags, querystring: eventsReportQuery },
    handler: async (request, reply) => {
      const report = await service.eventsReport(deps, caller(request), request.query);
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${report.fileName}"`)
        .type('text/csv; charset=utf-8')
        .send(report.csv);
    },
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/process',
    config,
    schema: { tags, params: idParams, body: processRequest, response: { 200: textMessage } },
    handler: (request) => service.processMessage(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/messages/:id/read',
    config,
    schema: { tags, params: idParams, response: { 200: readResult } },
    handler: (request) => service.markRead(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/messages/:id/triage',
    config,
    schema: { tags, params: idParams, body: triageRequest, response: { 200: textMessage } },
    handler: (request) => service.triage(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/failedmessages/:id/acknowledge',
    config,
    schema: { tags, params: idParams, response: { 200: failedAcknowledged } },
    handler: (request) => service.acknowledgeFailed(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/failedmessages/acknowledgeall',
    config,
    schema: { tags, response: { 200: failedAcknowledged } },
    handler: (request) => service.acknowledgeAllFailed(deps, caller(request)),
  });
  app.route({
    method: 'GET',
    url: '/api/events',
    config,
    schema: { tags, response: { 200: intakeEvents } },
    handler: (request) => service.recentEvents(deps, caller(request)),
  });
}
