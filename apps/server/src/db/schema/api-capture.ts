import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';

// What is kept of one side of a call: redacted before it is stored (modules/api-capture/redact.ts).
export interface CapturedSide {
  url?: string;
  method?: string;
  status?: number;
  headers: Record<string, string>;
  // The body as text (JSON pretty-printed), or a note saying why it is not there (multipart, binary, stream).
  body: string | null;
  // The body's size in bytes as it went over the wire, and whether what is kept was cut at the cap.
  bodyBytes: number;
  bodyTruncated: boolean;
}

// back-office-b §3 "API capture record": one API call of an organization whose capture is on, kept
// API_CAPTURE_RETENTION_DAYS (7 by default) and swept after.
export const apiCaptures = pgTable(
  'api_captures',
  {
    id: uuid().primaryKey().defaultRandom(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    networkId: uuid(),
    userId: uuid(),
    // sha256 of the bearer token the call carried (or, for a sign-in, of the access token it issued); never the token.
    tokenHash: text(),
    userIdSourceType: text({ enum: ['Token', 'IssuedToken'] }).notNull(),
    capturedAt: timestamp({ withTimezone: true }).notNull(),
    method: text().notNull(),
    url: text().notNull(),
    // The route pattern the call matched (/api/messages/:id), for filtering without the ids.
    route: text(),
    statusCode: integer().notNull(),
    durationMs: doublePrecision().notNull(),
    request: jsonb().$type<CapturedSide>().notNull(),
    response: jsonb().$type<CapturedSide>().notNull(),
  },
  (t) => [index('api_captures_captured_at_idx').on(t.capturedAt), index('api_captures_organization_captured_at_idx').on(t.organizationId, t.capturedAt)],
);
