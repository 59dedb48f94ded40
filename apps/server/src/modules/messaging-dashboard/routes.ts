import { messageCounts, messagingStats, statsQuery, systemAlerts, workerDiagnostics } from '@clinicrelay/contracts/messaging-dashboard.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

// back-office-b §6: the messaging health dashboard is for SysAdmin and SysAdminReporting.
const DASHBOARD: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];

// back-office-b §7 "Diagnostics": the dashboard's calls (issue 27 §1).
export function messagingDashboardRoutes(app: App, deps: service.MessagingDashboardDeps) {
  const config = { roles: DASHBOARD };
  const tags = ['diagnostics'];
  app.route({
    method: 'GET',
    url: '/api/diagnostics/messaging/messageCounts',
    config,
    schema: { tags, response: { 200: messageCounts } },
    handler: () => service.messageCounts(deps),
  });
  app.route({
    method: 'GET',
    url: '/api/diagnostics/stats',
    config,
    schema: { tags, querystring: statsQuery, response: { 200: messagingStats } },
    handler: (request) => service.stats(deps, request.query.hours),
  });
  app.route({
    method: 'GET',
    url: '/api/diagnostics/messaging/systemalerts',
    config,
    schema: { tags, response: { 200: systemAlerts } },
    handler: () => service.systemAlerts(deps),
  });
  app.route({
    method: 'GET',
    url: '/api/diagnostics/worker',
    config,
    schema: { tags, response: { 200: workerDiagnostics } },
    handler: () => service.workerDiagnostics(deps),
  });
}
