import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { auditColumns } from './organizations.ts';

// back-office-b §3 Region: name and code unique whatever their case (§5).
export const healthReferralRegions = pgTable(
  'health_referral_regions',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    code: text().notNull(),
    ...auditColumns,
  },
  (t) => [uniqueIndex('health_referral_regions_name_lower_idx').on(sql`lower(${t.name})`), uniqueIndex('health_referral_regions_code_lower_idx').on(sql`lower(${t.code})`)],
);

// back-office-b §3 Health service area: one row per ZIP code (the crosswalk maps each ZIP code to its HSA and HRR).
export const healthServiceAreas = pgTable(
  'health_service_areas',
  {
    zipCode: text().primaryKey(),
    code: text().notNull(),
    name: text().notNull(),
    healthReferralRegionId: uuid()
      .notNull()
      .references(() => healthReferralRegions.id, { onDelete: 'restrict' }),
    lastUpdated: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('health_service_areas_region_idx').on(t.healthReferralRegionId), index('health_service_areas_code_idx').on(t.code)],
);
