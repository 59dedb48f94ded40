import { and, asc, desc, eq, gte, ilike, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { sessions } from '../../db/schema/auth.ts';
import { apiCaptures } from '../../db/schema/api-capture.ts';
import { networkOrganizations, networks } from '../../db/schema/networks.ts';
import { organizations } from '../../db/schema/organizations.ts';
import { users } from '../../db/schema/users.ts';
import { containsPattern, findPage, type PageRequest } from '../../platform/paging.ts';

export type NewCapture = typeof apiCaptures.$inferInsert;

export const capturingOrganizations = async (db: DbOrTx): Promise<string[]> =>
  (await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.apiCapture, true))).map((r) => r.id);

/** Session id → its organization, for the sessions a sign-in or renewal just issued. */
export async function sessionOrganizations(db: DbOrTx, sessionIds: string[]): Promise<Map<string, string | null>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db.select({ id: sessions.id, organizationId: sessions.organizationId }).from(sessions).where(inArray(sessions.id, sessionIds));
  return new Map(rows.map((r) => [r.id, r.organizationId]));
}

export async function organizationNetworks(db: DbOrTx, organizationIds: string[]): Promise<Map<string, string>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .select({ organizationId: networkOrganizations.organizationId, networkId: networkOrganizations.networkId })
    .from(networkOrganizations)
    .where(inArray(networkOrganizations.organizationId, organizationIds));
  return new Map(rows.map((r) => [r.organizationId, r.networkId]));
}

export async function insertCaptures(db: DbOrTx, rows: NewCapture[]): Promise<void> {
  if (rows.length) await db.insert(apiCaptures).values(rows);
}

export async function deleteCapturesBefore(db: DbOrTx, before: Date): Promise<number> {
  const gone = await db.delete(apiCaptures).where(lt(apiCaptures.capturedAt, before)).returning({ id: apiCaptures.id });
  return gone.length;
}

export interface CaptureFilter extends PageRequest {
  start: Date;
  end: Date;
  descending: boolean;
  search?: string | undefined;
  tenantId?: string | undefined;
  networkId?: string | undefined;
  statusCode?: number | undefined;
  method?: string | undefined;
}

export async function findCapturePage(db: DbOrTx, f: CaptureFilter) {
  const conditions: (SQL | undefined)[] = [
    gte(apiCaptures.capturedAt, f.start),
    lte(apiCaptures.capturedAt, f.end),
    f.tenantId ? eq(apiCaptures.organizationId, f.tenantId) : undefined,
    f.networkId ? eq(apiCaptures.networkId, f.networkId) : undefined,
    f.statusCode ? eq(apiCaptures.statusCode, f.statusCode) : undefined,
    f.method ? eq(apiCaptures.method, f.method) : undefined,
    f.search ? or(ilike(apiCaptures.url, containsPattern(f.search)), ilike(users.userName, containsPattern(f.search)), ilike(organizations.name, containsPattern(f.search))) : undefined,
  ];
  const where = and(...conditions);
  const order = f.descending ? [desc(apiCaptures.capturedAt), desc(apiCaptures.id)] : [asc(apiCaptures.capturedAt), asc(apiCaptures.id)];
  return findPage(
    f,
    ({ offset, limit }) =>
      db
        .select({
          id: apiCaptures.id,
          organizationId: apiCaptures.organizationId,
          organizationName: organizations.name,
          networkId: apiCaptures.networkId,
          networkName: networks.name,
          userId: apiCaptures.userId,
          userName: users.userName,
          tokenHash: apiCaptures.tokenHash,
          capturedAt: apiCaptures.capturedAt,
          userIdSourceType: apiCaptures.userIdSourceType,
          durationMs: apiCaptures.durationMs,
          request: apiCaptures.request,
          response: apiCaptures.response,
        })
        .from(apiCaptures)
        .leftJoin(organizations, eq(organizations.id, apiCaptures.organizationId))
        .leftJoin(networks, eq(networks.id, apiCaptures.networkId))
        .leftJoin(users, eq(users.id, apiCaptures.userId))
        .where(where)
        .orderBy(...order)
        .offset(offset)
        .limit(limit),
    async () => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(apiCaptures)
        .leftJoin(organizations, eq(organizations.id, apiCaptures.organizationId))
        .leftJoin(users, eq(users.id, apiCaptures.userId))
        .where(where);
      return row?.n ?? 0;
    },
  );
}

export async function organizationCapture(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [row] = await db.select({ apiCapture: organizations.apiCapture }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.apiCapture ?? false;
}
