import { recipientCheckRequest, recipientCheckResult, sendResult } from '@clinicrelay/contracts/delivery.ts';
import { idParams } from '@clinicrelay/contracts/messages.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import { orgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as service from './service.ts';

const ORG_USERS: readonly Role[] = ['Administrator', 'User'];
const caller = orgCaller;

// end-user §7 "Messages": send, forward and reply a draft. Delivery happens in the send workflow.
export function deliveryRoutes(app: App, deps: service.DeliveryDeps) {
  const config = { roles: ORG_USERS };
  const tags = ['messages'];
  // Not in the spec (issue 12 §4): the To field asks what each address is before sending.
  app.route({
    method: 'POST',
    url: '/api/messages/recipients/check',
    config: { ...config, oauthScope: 'release.send' },
    schema: { tags, body: recipientCheckRequest, response: { 200: recipientCheckResult } },
    handler: (request) => service.checkRecipients(deps, caller(request), request.body.addresses),
  });
  for (const kind of ['send', 'forward', 'reply'] as const) {
    app.route({
      method: 'POST',
      url: `/api/messages/:id/${kind}`,
      config: { ...config, oauthScope: 'release.send' },
      schema: { tags, params: idParams, response: { 200: sendResult } },
      handler: (request) => service.sendMessage(deps, caller(request), request.params.id, kind),
    });
  }
}
