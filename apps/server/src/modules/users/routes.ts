import { z } from 'zod';
import { intakeRuleCreate, intakeRuleView, userDocumentSources, userIntakeRules, usersPage, usersQuery } from '@clinicrelay/contracts/intake.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { invitationRequest, invitationSent } from '@clinicrelay/contracts/users.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as invitations from './invitations.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const ADMINS: readonly Role[] = ['Administrator'];
const caller = orgCaller;

// end-user §7 "Session and users": who receives what in Intake. GET/POST /api/intakerules and
// DELETE /api/intakerules/{id} are not in the spec; they are named in the same style.
export function usersRoutes(app: App, deps: service.UsersDeps & invitations.InvitationsDeps) {
  const tags = ['users'];

  app.route({
    method: 'GET',
    url: '/api/users',
    config: { roles: ADMINS },
    schema: { tags, querystring: usersQuery, response: { 200: usersPage } },
    handler: (request) => service.listMembers(deps, caller(request), request.query),
  });

  app.route({
    method: 'GET',
    url: '/api/users/:id/documentsources',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, response: { 200: userDocumentSources } },
    handler: (request) => service.documentSourcesOf(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'PUT',
    url: '/api/users/:id/documentsources',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, body: userDocumentSources, response: { 200: userDocumentSources } },
    handler: (request) => service.saveDocumentSources(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'PUT',
    url: '/api/users/:id/intakerules',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, body: userIntakeRules, response: { 200: userIntakeRules } },
    handler: (request) => service.saveRules(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'GET',
    url: '/api/users/:id/rules',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, response: { 200: z.array(intakeRuleView) } },
    handler: (request) => service.rulesOf(deps, caller(request), request.params.id),
  });
  // end-user §3 "Invitation": the Send an Invite dialog of the Find Provider dialog.
  app.route({
    method: 'POST',
    url: '/api/users/sendinvitation',
    config: { roles: ORG_USERS },
    schema: { tags, body: invitationRequest, response: { 200: invitationSent } },
    handler: (request) => invitations.sendInvitation(deps, caller(request), request.body),
  });

  app.route({
    method: 'GET',
    url: '/api/intakerules',
    config: { roles: ORG_USERS },
    schema: { tags, response: { 200: z.array(intakeRuleView) } },
    handler: (request) => service.organizationRules(deps, caller(request)),
  });
  app.route({
    method: 'POST',
    url: '/api/intakerules',
    config: { roles: ADMINS },
    schema: { tags, body: intakeRuleCreate, response: { 200: intakeRuleView } },
    handler: (request) => service.createRule(deps, caller(request), request.body),
  });
  app.route({
    method: 'DELETE',
    url: '/api/intakerules/:id',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, response: { 200: z.object({ message: z.string() }) } },
    handler: (request) => service.deleteRule(deps, caller(request), request.params.id),
  });
}
