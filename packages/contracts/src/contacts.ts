import { z } from 'zod';
import { text } from './text.ts';

// GET /api/contacts (back-office-a §3 "Contact search uses search, pageStart, pageSize", §7, §9 defaults 1 and 15):
// the people of the platform's organizations, for typeaheads. One row per person and organization; a search
// shorter than 2 characters (§9 typeahead minimum) answers an empty page.
export const CONTACTS_PAGE_SIZE = 15;
export const contactQuery = z.object({
  search: text().trim().max(200).optional(),
  pageStart: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(CONTACTS_PAGE_SIZE),
});
export const contact = z.object({
  id: text(),
  name: text(),
  userName: text(),
  email: text(),
  organizationId: text(),
  organizationName: text(),
  role: text(),
});
export const contactPage = z.object({ items: z.array(contact), totalCount: z.number().int() });
export type Contact = z.infer<typeof contact>;
