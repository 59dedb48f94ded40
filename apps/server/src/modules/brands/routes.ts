import { brandPage } from '@clinicrelay/contracts/brands.ts';
import { pageQuery } from '@clinicrelay/contracts/paging.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { Database } from '../../db/client.ts';
import type { App } from '../../platform/http.ts';
import * as q from './queries.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];

// back-office-a §7: GET /api/admin/brands?pageSize=100, the brands with their settings (the web caches it). Reference
// data with no rule to apply: the route reads its query directly.
export function brandsRoutes(app: App, deps: { db: Database }) {
  app.route({
    method: 'GET',
    url: '/api/admin/brands',
    config: { roles: SYS_ADMIN },
    schema: { tags: ['brands'], querystring: pageQuery, response: { 200: brandPage } },
    handler: (request) => q.findBrandPage(deps.db, request.query.search, request.query),
  });
}
