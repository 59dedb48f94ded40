import { asc, ilike } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { brands } from '../../db/schema/back-office.ts';
import { containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export function findBrandPage(db: DbOrTx, search: string | undefined, page: PageRequest) {
  const where = search ? ilike(brands.name, containsPattern(search)) : undefined;
  return findPage(
    page,
    ({ offset, limit }) => db.select({ id: brands.id, name: brands.name, settings: brands.settings }).from(brands).where(where).orderBy(asc(brands.name), asc(brands.id)).offset(offset).limit(limit),
    () => db.$count(brands, where),
  );
}
