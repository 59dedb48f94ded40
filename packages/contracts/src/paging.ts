import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from './constants.ts';
import { text } from './text.ts';

// One paging contract for lists (DESIGN.md "Lists"): items plus the total count.
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), totalCount: z.number().int() });

export const sortDir = z.enum(['asc', 'desc']);

export const pageQuery = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE),
  search: text().trim().max(200).optional(),
  sortDir: sortDir.optional(),
});
