import { bigint, pgTable, text, uuid } from 'drizzle-orm/pg-core';

// The head of each organization's audit chain (the platform's own events: the nil uuid), written only by the
// audit_events insert trigger of migration 0027. pruned_through_* name where a pruned chain now starts.
export const auditChainHeads = pgTable('audit_chain_heads', {
  chainKey: uuid().primaryKey(),
  seq: bigint({ mode: 'number' }).notNull().default(0),
  lastHash: text().notNull(),
  prunedThroughSeq: bigint({ mode: 'number' }).notNull().default(0),
  prunedThroughHash: text(),
});
