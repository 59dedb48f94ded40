import { z } from 'zod';
import { siftMetricRow, siftMetricsQuery } from '@clinicrelay/contracts/reports.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { App } from '../../platform/http.ts';
import { dayRange } from '../reports/service.ts';
import { findPerTenant } from './queries.ts';

// back-office-a §6: sift metrics are for SysAdmin and SysAdminReporting.
const SIFT_ROLES: readonly Role[] = ['SysAdmin', 'SysAdminReporting'];

// back-office-a §7 "Utilities and diagnostics": GET /api/diagnostics/siftmetrics with start, end, col, sortDir.
export function siftMetricsRoutes(app: App, deps: { db: DbOrTx }) {
  app.route({
    method: 'GET',
    url: '/api/diagnostics/siftmetrics',
    config: { roles: SIFT_ROLES },
    schema: { tags: ['diagnostics'], querystring: siftMetricsQuery, response: { 200: z.array(siftMetricRow) } },
    handler: (request) => findPerTenant(deps.db, dayRange(request.query.start, request.query.end), { col: request.query.col, dir: request.query.sortDir }),
  });
}
