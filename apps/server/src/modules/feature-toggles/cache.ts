import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/client.ts';
import { featureToggles, organizationFeatures } from '../../db/schema/features.ts';
import { listenWithPayload, type ChannelListener, type ChannelLogger } from '../../platform/realtime/notifications.ts';

// The features on for each organization, kept in memory by each server process: the profile, /api/features, Release
// and patient extraction read them on every page and call. Any write to feature_toggles or organization_features, by
// any process or by hand, notifies channel feature_toggles_changed at commit (migration 0037's trigger); every
// process listening empties its cache then. A process not (yet) listening reads the database each time.
export const FEATURES_CHANNEL = 'feature_toggles_changed';
const MAX_ENTRIES = 10_000;

class FeatureCache {
  readonly entries = new Map<string, readonly string[]>();
  // A read that started before a clear does not store what it read.
  generation = 0;
  listeners = 0;
  clear() {
    this.generation++;
    this.entries.clear();
  }
}
const caches = new WeakMap<object, FeatureCache>();

/** Feature names on for an organization (null: none, as a system administrator), by name: its own setting wins over the global one for an organization feature. */
export async function enabledFeatures(db: DbOrTx, organizationId: string | null): Promise<string[]> {
  const cache = caches.get(db);
  if (!cache || cache.listeners === 0) return readEnabledFeatures(db, organizationId);
  const key = organizationId ?? '';
  const cached = cache.entries.get(key);
  if (cached) return [...cached];
  const generation = cache.generation;
  const names = await readEnabledFeatures(db, organizationId);
  if (generation === cache.generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(key, names);
  }
  return [...names];
}

export const isFeatureEnabled = async (db: DbOrTx, organizationId: string | null, name: string) => (await enabledFeatures(db, organizationId)).includes(name);

/** Forgets what this process holds (after this process's own write; another process hears of it by the channel). */
export const clearFeatureCache = (db: Database): void => caches.get(db)?.clear();

async function readEnabledFeatures(db: DbOrTx, organizationId: string | null): Promise<string[]> {
  const rows = await db
    .select({ name: featureToggles.name })
    .from(featureToggles)
    .leftJoin(
      organizationFeatures,
      and(
        eq(organizationFeatures.featureId, featureToggles.id),
        eq(featureToggles.isOrganizationFeature, true),
        organizationId ? eq(organizationFeatures.organizationId, organizationId) : sql`false`,
      ),
    )
    .where(sql`coalesce(${organizationFeatures.isEnabled}, ${featureToggles.isEnabled})`)
    .orderBy(asc(featureToggles.name));
  return rows.map((r) => r.name);
}

/** Starts caching for this database: listens on the channel, and empties the cache on each change and after any gap. */
export async function listenForFeatureChanges(db: Database, logger: ChannelLogger): Promise<ChannelListener> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new FeatureCache()));
  const target = cache;
  const listener = await listenWithPayload(db, FEATURES_CHANNEL, { onPayload: () => target.clear(), onResubscribed: () => target.clear() }, logger);
  target.clear();
  target.listeners++;
  return {
    async stop() {
      target.listeners--;
      target.clear();
      await listener.stop();
    },
  };
}
