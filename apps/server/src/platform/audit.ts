import type { DbOrTx } from '../db/client.ts';
import { auditEvents } from '../db/schema/audit.ts';

export interface AuditEvent {
  eventType: string;
  userId?: string | null;
  userName?: string | null;
  organizationId?: string | null;
  ip?: string | null;
  correlationId?: string | null;
  details?: Record<string, unknown>;
}

// Security events and every read or change of PHI write one row (DESIGN.md "Audit"). Never put PHI,
// passwords or tokens in details.
export async function writeAudit(db: DbOrTx, event: AuditEvent, at?: Date): Promise<void> {
  await db.insert(auditEvents).values({ ...event, ...(at ? { createdAt: at } : {}) });
}
