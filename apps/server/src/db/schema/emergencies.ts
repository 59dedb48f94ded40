import { date, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { auditColumns } from './organizations.ts';

// back-office-b "Emergencies" (issue 29 §6). An emergency covers organizations, each named by OID; disabledDate is the
// day it stops (§4), null while it runs.
export const emergencies = pgTable('emergencies', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  disabledDate: date({ mode: 'string' }),
  ...auditColumns,
});

// The organizations an emergency covers, as picked from the organization search (name kept as shown then).
export const emergencyCoveredOrganizations = pgTable(
  'emergency_covered_organizations',
  {
    emergencyId: uuid()
      .notNull()
      .references(() => emergencies.id, { onDelete: 'cascade' }),
    oid: text().notNull(),
    name: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.emergencyId, t.oid] })],
);

// The Carequality-type service's own list of emergency organizations (services/carequality-service): keyed by OID,
// with the display name shown for it. Same database, its own table: see that service's README comment in app.ts.
export const emergencyOrganizations = pgTable('emergency_organizations', {
  oid: text().primaryKey(),
  name: text().notNull(),
  ...auditColumns,
});

