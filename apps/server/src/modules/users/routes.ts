import { z } from 'zod';
import { messageResponse, resendInvitationRequest } from '@clinicrelay/contracts/admin-users.ts';
import { passwordMessages, resetPasswordAnyRequest } from '@clinicrelay/contracts/passwords.ts';
import { intakeRuleCreate, intakeRuleView, userDocumentSources, userIntakeRules } from '@clinicrelay/contracts/intake.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import { isSystemAdmin, type Role } from '@clinicrelay/contracts/roles.ts';
import {
  invitationRequest,
  invitationSent,
  orgUser,
  orgUserCreate,
  orgUserDetail,
  orgUserEnableQuery,
  orgUsersPage,
  orgUsersQuery,
  orgUserUpdate,
  userApplicationParams,
  userEventsPage,
  userEventsQuery,
  userEventType,
  userNameCheck,
  userNameQuery,
  userRequestsPage,
  userRequestsQuery,
} from '@clinicrelay/contracts/users.ts';
import type { FastifyRequest } from 'fastify';
import { adminCaller, orgCaller } from '../../platform/auth/guard.ts';
import { badRequest } from '../../platform/errors.ts';
import type { App } from '../../platform/http.ts';
import { requestPasswordReset } from '../account/password-links.ts';
import * as invitations from './invitations.ts';
import * as members from './members.ts';
import * as service from './service.ts';
import * as userDetail from './user-detail.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const ADMINS: readonly Role[] = ['Administrator'];
const ADMINS_AND_SYS_ADMIN: readonly Role[] = ['SysAdmin', 'Administrator'];
const caller = orgCaller;

// end-user §7 "Session and users": who receives what in Intake. GET/POST /api/intakerules and
// DELETE /api/intakerules/{id} are not in the spec; they are named in the same style.
// A system administrator acts from the back office on any user; anyone else within their current organization.
const orgCallerUnlessSystemAdmin = (request: FastifyRequest) => (isSystemAdmin(adminCaller(request).session.roles) ? null : orgCaller(request));

export function usersRoutes(
  app: App,
  deps: service.UsersDeps & invitations.InvitationsDeps & members.MembersDeps & userDetail.UserDetailDeps & { loginRateLimitPerMinute: number },
) {
  const tags = ['users'];

  // Issue 13 §2: the organization's users (/settings/users), also the Triage user picker's source.
  app.route({
    method: 'GET',
    url: '/api/users',
    config: { roles: ADMINS },
    schema: { tags, querystring: orgUsersQuery, response: { 200: orgUsersPage } },
    handler: (request) => members.listMembers(deps, caller(request), request.query),
  });
  app.route({
    method: 'POST',
    url: '/api/users',
    config: { roles: ADMINS },
    schema: { tags, body: orgUserCreate, response: { 200: orgUser } },
    handler: (request) => members.createMember(deps, caller(request), request.body),
  });
  app.route({
    method: 'POST',
    url: '/api/users/find',
    config: { roles: ADMINS, readOnly: true },
    schema: { tags, querystring: userNameQuery, response: { 200: userNameCheck } },
    handler: (request) => members.checkUserName(deps, request.query.username),
  });
  app.route({
    method: 'GET',
    url: '/api/users/:id',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, response: { 200: orgUserDetail } },
    handler: (request) => userDetail.getMemberDetail(deps, caller(request), request.params.id),
  });
  // The detail's Security section: two-factor authenticators and signed-in applications (user-detail.ts).
  app.route({
    method: 'DELETE',
    url: '/api/users/:id/authenticators',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, response: { 200: messageResponse } },
    handler: (request) => userDetail.removeAuthenticators(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'DELETE',
    url: '/api/users/:id/applications/:appId',
    config: { roles: ADMINS },
    schema: { tags, params: userApplicationParams, response: { 200: messageResponse } },
    handler: (request) => userDetail.removeApplication(deps, caller(request), request.params.id, request.params.appId),
  });
  // The user's own activity and requests: an Administrator reads their organization's users', a User their own.
  app.route({
    method: 'GET',
    url: '/api/users/:id/events',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, querystring: userEventsQuery, response: { 200: userEventsPage } },
    handler: (request) => userDetail.userEvents(deps, caller(request), request.params.id, request.query),
  });
  app.route({
    method: 'GET',
    url: '/api/users/:id/events/type',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, response: { 200: z.array(userEventType) } },
    handler: (request) => userDetail.userEventTypes(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'GET',
    url: '/api/users/:id/requests',
    config: { roles: ORG_USERS },
    schema: { tags, params: idParams, querystring: userRequestsQuery, response: { 200: userRequestsPage } },
    handler: (request) => userDetail.userRequests(deps, caller(request), request.params.id, request.query),
  });
  app.route({
    method: 'PUT',
    url: '/api/users/:id',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, body: orgUserUpdate, response: { 200: orgUser } },
    handler: (request) => members.updateMember(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'DELETE',
    url: '/api/users/:id',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, response: { 200: messageResponse } },
    handler: (request) => members.deleteMember(deps, caller(request), request.params.id),
  });
  app.route({
    method: 'POST',
    url: '/api/users/:id/enable',
    config: { roles: ADMINS },
    schema: { tags, params: idParams, querystring: orgUserEnableQuery, response: { 200: messageResponse } },
    handler: (request) => members.setMemberEnabled(deps, caller(request), request.params.id, request.query.enable),
  });
  // Bodies as back-office-a names them ({id}, {id, userName}); the back office's Users list calls them too.
  // Without a session it is the "Forgot your password?" request (issue 14 §5): {userName}, rate-limited, the same
  // answer and time whether or not the account exists.
  app.route({
    method: 'POST',
    url: '/api/users/resetpassword',
    config: { roles: ADMINS_AND_SYS_ADMIN, anonymousWithoutToken: true, rateLimit: { max: deps.loginRateLimitPerMinute, timeWindow: 60_000 } },
    schema: { tags, body: resetPasswordAnyRequest, response: { 200: messageResponse } },
    handler: async (request) => {
      const { id, userName } = request.body;
      if (!request.authContext) {
        if (!userName) throw badRequest(passwordMessages.userNameRequired, { userName: [passwordMessages.userNameRequired] });
        return requestPasswordReset(deps, userName, request.ip);
      }
      if (!id) throw badRequest(passwordMessages.userIdRequired, { id: [passwordMessages.userIdRequired] });
      return members.resetPassword(deps, adminCaller(request), orgCallerUnlessSystemAdmin(request), id);
    },
  });
  app.route({
    method: 'POST',
    url: '/api/users/resendinvitation',
    config: { roles: ADMINS_AND_SYS_ADMIN },
    schema: { tags, body: resendInvitationRequest, response: { 200: messageResponse } },
    handler: (request) => members.resendInvitation(deps, adminCaller(request), orgCallerUnlessSystemAdmin(request), request.body.id, request.body.userName),
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
