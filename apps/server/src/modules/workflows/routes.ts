import type { Role } from '@clinicrelay/contracts/roles.ts';
import {
  bulkRetryInput,
  bulkRetryResult,
  workflowGridQuery,
  workflowIdParams,
  workflowPage,
  workflowRetryInput,
  workflowRetryResult,
  workflowRow,
  workflowTypeQuery,
} from '@clinicrelay/contracts/workflows.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-b §2 Workflows grid and §7 Diagnostics (workflow calls); back-office-a §7 bulk retry. SysAdmin only:
// SysAdminReporting sees the dashboard, reports and sift metrics (back-office-b §6), not the workflows.
export function workflowsRoutes(app: App, deps: service.WorkflowsDeps & { now: () => Date }) {
  const config = { roles: SYS_ADMIN };
  const tags = ['diagnostics'];

  app.route({
    method: 'GET',
    url: '/api/diagnostics/messaging/workflows',
    config,
    schema: { tags, querystring: workflowGridQuery, response: { 200: workflowPage } },
    handler: (request) => service.listWorkflows(deps, request.query, deps.now()),
  });
  // The same grid with its filters in a body (the spec names no body; it is the query's fields).
  app.route({
    method: 'POST',
    url: '/api/diagnostics/messaging/workflows/_search',
    config,
    schema: { tags, body: workflowGridQuery, response: { 200: workflowPage } },
    handler: (request) => service.listWorkflows(deps, request.body, deps.now()),
  });
  app.route({
    method: 'GET',
    url: '/api/workflows/:id',
    config,
    schema: { tags, params: workflowIdParams, querystring: workflowTypeQuery, response: { 200: workflowRow } },
    handler: (request) => service.getWorkflow(deps, request.params.id, request.query.type, deps.now()),
  });
  app.route({
    method: 'PUT',
    url: '/api/workflows/:id',
    config,
    schema: { tags, params: workflowIdParams, body: workflowRetryInput, response: { 200: workflowRetryResult } },
    handler: (request) => service.retryStep(deps, request.params.id, request.body, deps.now()),
  });
  app.route({
    method: 'POST',
    url: '/api/workflows/retry',
    config,
    schema: { tags, body: bulkRetryInput, response: { 200: bulkRetryResult } },
    handler: (request) => service.bulkRetry(deps, request.body),
  });
}
