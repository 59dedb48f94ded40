import { asc, desc, sql, type AnyColumn, type SQL } from 'drizzle-orm';

export interface PageRequest {
  pageNumber: number;
  pageSize: number;
}

export interface Page<Item> {
  items: Item[];
  totalCount: number;
}

/** The rows a page covers, for `.offset().limit()`. */
export const pageWindow = ({ pageNumber, pageSize }: PageRequest) => ({ offset: (pageNumber - 1) * pageSize, limit: pageSize });

// One paging helper for the back-office lists (issue 11): the page's rows and the count of every match, asked
// together; routes whose spec names other keys (users/totalUsersCount) rename the result.
export async function findPage<Row>(request: PageRequest, rows: (window: { offset: number; limit: number }) => Promise<Row[]>, count: () => Promise<number>): Promise<Page<Row>> {
  const [items, totalCount] = await Promise.all([rows(pageWindow(request)), count()]);
  return { items, totalCount };
}

/** A name column in the order people expect: case ignored, then as stored, so equal names keep one order. */
export const byName = (column: AnyColumn, dir: 'asc' | 'desc' = 'asc'): SQL[] =>
  dir === 'desc' ? [sql`lower(${column}) desc`, desc(column)] : [sql`lower(${column}) asc`, asc(column)];

/** `value` as a LIKE pattern that matches it anywhere, its own % and _ taken literally. */
export const containsPattern = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
