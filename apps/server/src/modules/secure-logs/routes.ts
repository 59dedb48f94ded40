import { secureLog, secureLogParams, secureLogsMessages } from '@clinicrelay/contracts/audits.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { Database } from '../../db/client.ts';
import type { App } from '../../platform/http.ts';
import { AppError } from '../../platform/errors.ts';
import { findSecureLog } from '../../platform/secure-logs.ts';

// back-office-a Secure logs: system administrators only.
const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

export function secureLogsRoutes(app: App, deps: { db: Database }) {
  app.route({
    method: 'GET',
    url: '/api/admin/securelogs/:referenceId',
    config: { roles: SYS_ADMIN },
    schema: { tags: ['securelogs'], params: secureLogParams, response: { 200: secureLog } },
    handler: async (request) => {
      const row = await findSecureLog(deps.db, request.params.referenceId);
      if (!row) throw new AppError(404, secureLogsMessages.notFound);
      const stack = typeof row.error.stack === 'string' ? row.error.stack : '';
      return {
        referenceId: row.referenceId,
        date: row.createdAt.toISOString(),
        message: row.message,
        statusCode: row.statusCode,
        method: row.method,
        route: row.route,
        requestId: row.requestId,
        userId: row.userId,
        organizationId: row.organizationId,
        stack,
      };
    },
  });
}
