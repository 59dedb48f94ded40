import { odataCollection } from '@clinicrelay/contracts/message-browser.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { App } from '../../platform/http.ts';
import {
  conversionPerformance,
  conversionPerformanceFrom,
  conversionPerformanceScope,
  eventMessages,
  eventMessagesFrom,
  mailMessages,
  mailMessagesCountFrom,
  mailMessagesFrom,
} from './entity-sets.ts';
import * as service from './service.ts';

// back-office-b §6: the raw message browser is a SysAdmin page; SysAdminReporting sees the dashboard only.
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

const feeds: Record<string, service.Feed> = {
  '/odata/mailmessages': { set: mailMessages, from: mailMessagesFrom, countFrom: mailMessagesCountFrom },
  '/odata/eventmessages': { set: eventMessages, from: eventMessagesFrom },
  '/odata/conversionperformance': { set: conversionPerformance, from: conversionPerformanceFrom, scope: conversionPerformanceScope },
};

// back-office-b §7 Diagnostics data feeds: OData v4 JSON over the system query options a grid uses.
export function messageBrowserRoutes(app: App, deps: service.MessageBrowserDeps) {
  for (const [url, feed] of Object.entries(feeds)) {
    app.route({
      method: 'GET',
      url,
      config: { roles: SYS_ADMIN },
      // The query options are read by the OData compiler (platform/odata.ts), which names what it refuses.
      schema: { tags: ['message browser'], response: { 200: odataCollection } },
      handler: async (request, reply) => {
        reply.header('odata-version', '4.0');
        return service.readFeed(deps, feed, url, request.query as Record<string, unknown>);
      },
    });
  }
}
