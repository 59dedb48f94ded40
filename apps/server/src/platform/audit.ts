import type { DbOrTx } from '../db/client.ts';
import { auditEvents } from '../db/schema/audit.ts';
import type { AdminCaller, OrgCaller } from './auth/guard.ts';

export interface AuditEvent {
  eventType: string;
  userId?: string | null;
  userName?: string | null;
  organizationId?: string | null;
  ip?: string | null;
  correlationId?: string | null;
  details?: Record<string, unknown>;
  // Issue 29: the client application whose OAuth token made the call; auditRow writes it into details.
  application?: { clientId: string; name: string };
}

// Security events and every read or change of PHI write one row (DESIGN.md "Audit"). Never put PHI,
// passwords or tokens in details.
export async function writeAudit(db: DbOrTx, event: AuditEvent, at?: Date): Promise<void> {
  await db.insert(auditEvents).values(auditRow(event, at));
}

// The row writeAudit inserts, for a change that writes it within its own statement.
export const auditRow = ({ application, ...event }: AuditEvent, at?: Date): typeof auditEvents.$inferInsert => ({
  ...event,
  ...(application ? { details: { ...event.details, application } } : {}),
  ...(at ? { createdAt: at } : {}),
});

const applicationOf = (session: AdminCaller['session']) =>
  session.oauth ? { application: { clientId: session.oauth.clientId, name: session.oauth.applicationName } } : {};

// Who did it: the columns every audit row of an organization user's request carries.
export const auditedBy = (caller: OrgCaller) => ({
  userId: caller.session.userId,
  userName: caller.session.userName,
  organizationId: caller.organizationId,
  ip: caller.ip ?? null,
  ...applicationOf(caller.session),
});

// Who did it, for a back-office change: the administrator; the organization it concerns goes in details.
export const auditedByAdmin = (caller: AdminCaller) => ({ userId: caller.session.userId, userName: caller.session.userName, organizationId: null, ip: caller.ip ?? null, ...applicationOf(caller.session) });

// A list that shows subjects or patient names is a read of PHI: one row per page served. Search texts may
// hold a patient's name, so details say only whether one was used.
export const auditListViewed = (db: DbOrTx, caller: OrgCaller, list: string, details: Record<string, unknown>, at?: Date) =>
  writeAudit(db, { eventType: 'MessageListViewed', ...auditedBy(caller), details: { list, ...details } }, at);
