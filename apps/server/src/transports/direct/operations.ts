import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { startBundleRefresh } from '../../modules/trust-anchors/service.ts';
import { createBlobStore } from '../../platform/blobs/blob-store.ts';
import { createDirectDeps } from './direct-deps.ts';
import { startDnsPublisher } from './dns-publisher.ts';
import { startDirectListener, type DirectListener } from './listener.ts';
import { failOverdueDeliveries } from './timeline.ts';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const OVERDUE_SWEEP_MS = 60_000;

/**
 * What keeps Direct running beside the workflows: the SMTP listener (server processes only), the sweep that fails
 * recipients whose delivery notification is overdue, and the trust-bundle refresh. Each is safe in several processes
 * on one PostgreSQL.
 */
export async function startDirectOperations(opts: { config: Config; db: Database; now: () => Date; logger: Logger; listen: boolean }) {
  const blobs = createBlobStore({ db: opts.db, dataDir: opts.config.dataDir, key: opts.config.blobEncryptionKey });
  const deps = createDirectDeps({ config: opts.config, db: opts.db, blobs, now: opts.now });
  const listener: DirectListener | null = opts.listen && opts.config.direct.smtpPort !== null ? await startDirectListener(deps, opts.logger) : null;
  const publish = opts.config.direct.dnsPublish;
  // Publishing is a convenience (a real installation publishes in its DNS zone): a port in use is said, not fatal.
  const publisher =
    opts.listen && publish
      ? await startDnsPublisher({ db: opts.db, now: opts.now, ...publish }).catch((error: unknown) => {
          opts.logger.warn({ error: (error as Error).message, port: publish.port }, 'Direct CERT records are not published (DIRECT_DNS_PUBLISH_PORT)');
          return null;
        })
      : null;
  const sweep = () =>
    failOverdueDeliveries(opts.db, opts.now())
      .then((failed) => failed > 0 && opts.logger.info({ failed }, 'direct recipients without a delivery notification marked failed'))
      .catch((error: unknown) => opts.logger.warn({ error: (error as Error).message }, 'delivery notification sweep failed; will try again'));
  const timer = setInterval(() => void sweep(), OVERDUE_SWEEP_MS);
  timer.unref();
  const bundles = startBundleRefresh({ db: opts.db, now: opts.now, logger: opts.logger });
  return {
    listener,
    publisher,
    async stop() {
      clearInterval(timer);
      bundles.stop();
      await Promise.all([listener?.close(), publisher?.close()]);
    },
  };
}
