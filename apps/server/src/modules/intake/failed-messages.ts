import { FAILED_MESSAGES_LIMIT, failedMessages } from '@clinicrelay/contracts/dashboard.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { z } from 'zod';
import { auditListViewed } from '../../platform/audit.ts';
import { orgCaller, type OrgCaller } from '../../platform/auth/guard.ts';
import type { App } from '../../platform/http.ts';
import * as q from './queries.ts';
import type { IntakeDeps } from './service.ts';

// Kept beside routes.ts rather than in it: the dashboard's list of what PUT /api/failedmessages/{id}/acknowledge takes.
const ORG_USERS: readonly Role[] = ['Administrator', 'User'];

// The failed messages the caller may see and nobody has acknowledged, newest first.
export async function unacknowledgedFailures(deps: IntakeDeps, caller: OrgCaller): Promise<z.infer<typeof failedMessages>> {
  const page = await q.findUnacknowledgedFailuresPage(deps.db, q.viewerOf(caller), FAILED_MESSAGES_LIMIT);
  // The list names message subjects: a read of PHI like the other lists.
  await auditListViewed(deps.db, caller, 'FailedMessages', { count: page.items.length }, deps.now());
  return {
    totalCount: page.totalCount,
    items: page.items.map((m) => ({ id: m.id, subject: m.subject, fromAddress: m.fromAddress, toAddress: m.toAddress, receivedOn: (m.receivedAt ?? m.createdAt).toISOString() })),
  };
}

export function failedMessagesRoutes(app: App, deps: IntakeDeps) {
  app.route({
    method: 'GET',
    url: '/api/failedmessages',
    config: { roles: ORG_USERS },
    schema: { tags: ['messages'], response: { 200: failedMessages } },
    handler: (request) => unacknowledgedFailures(deps, orgCaller(request)),
  });
}
