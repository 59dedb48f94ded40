import type { FastifyRequest } from 'fastify';
import { intakeFilter, intakeList } from '@clinicrelay/contracts/intake.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { auth, currentOrganizationId } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = (request: FastifyRequest): service.Caller => ({ session: auth(request), organizationId: currentOrganizationId(request) });

// end-user §7: the Intake message list is a POST on the Release list's path (the filter is a body).
export function intakeRoutes(app: App, deps: service.IntakeDeps) {
  app.route({
    method: 'POST',
    url: '/api/messages',
    config: { roles: ORG_USERS },
    schema: { tags: ['messages'], body: intakeFilter, response: { 200: intakeList } },
    handler: (request) => service.listIntake(deps, caller(request), request.body),
  });
}
