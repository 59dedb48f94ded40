import { sendResult } from '@clinicrelay/contracts/delivery.ts';
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
  for (const kind of ['send', 'forward', 'reply'] as const) {
    app.route({
      method: 'POST',
      url: `/api/messages/:id/${kind}`,
      config,
      schema: { tags, params: idParams, response: { 200: sendResult } },
      handler: (request) => service.sendMessage(deps, caller(request), request.params.id, kind),
    });
  }
}
