import { contactPage, contactQuery } from '@clinicrelay/contracts/contacts.ts';
import type { Role } from '@clinicrelay/contracts/roles.ts';
import type { Database } from '../../db/client.ts';
import type { App } from '../../platform/http.ts';
import * as q from './queries.ts';

const SYS_ADMIN: readonly Role[] = ['SysAdmin'];
// back-office-a §9: typeaheads search from the second character.
const TYPEAHEAD_MIN = 2;

// back-office-a §7: GET /api/contacts (search, pageStart 1, pageSize 15), people of the organizations for typeaheads.
export function contactsRoutes(app: App, deps: { db: Database }) {
  app.route({
    method: 'GET',
    url: '/api/contacts',
    config: { roles: SYS_ADMIN },
    schema: { tags: ['contacts'], querystring: contactQuery, response: { 200: contactPage } },
    handler: async (request) => {
      const { search = '', pageStart, pageSize } = request.query;
      if (search.length < TYPEAHEAD_MIN) return { items: [], totalCount: 0 };
      return q.findContactPage(deps.db, search, { pageNumber: pageStart, pageSize });
    },
  });
}
