import { conversation, respondRequest, trackedList, trackedRequest } from '@clinicrelay/contracts/conversations.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = orgCaller;

// end-user §7 "Messages": tracked referrals and their outcome.
export function conversationsRoutes(app: App, deps: service.ConversationsDeps) {
  const config = { roles: ORG_USERS };
  const tags = ['conversations'];

  app.route({
    method: 'POST',
    url: '/api/conversations/:id/respond',
    config,
    schema: { tags, params: idParams, body: respondRequest, response: { 200: conversation } },
    handler: (request) => service.respond(deps, caller(request), request.params.id, request.body),
  });
  app.route({
    method: 'POST',
    url: '/api/conversations/tracked',
    config: { ...config, readOnly: true },
    schema: { tags, body: trackedRequest, response: { 200: trackedList } },
    handler: (request) => service.tracked(deps, caller(request), request.body),
  });
}
