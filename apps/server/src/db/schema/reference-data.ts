import { boolean, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { auditColumns } from './organizations.ts';

// Reference data the platform administrators keep (back-office-a §3): words no subdomain or reseller URL code may
// use, and the specialties an organization is filed under. name_key is the name in lower case, unique, so
// "Admin" and "admin" are one word.
export const reservedWords = pgTable('reserved_words', {
  id: uuid().primaryKey().defaultRandom(),
  name: text().notNull(),
  nameKey: text().notNull().unique(),
  profanity: boolean().notNull().default(false),
  ...auditColumns,
});

export const organizationSpecialties = pgTable('organization_specialties', {
  // organizationSpecialtyId is a number in the spec's Organization entity.
  id: integer().primaryKey().generatedByDefaultAsIdentity(),
  name: text().notNull(),
  nameKey: text().notNull().unique(),
  ...auditColumns,
});
