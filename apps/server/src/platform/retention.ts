import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { sweepSecureLogs } from './secure-logs.ts';
import { sweepRollups } from './workflows/rollups.ts';

// Rows kept for a number of days and then deleted: secure logs (issue 27 §3), the messaging dashboard's rollups (§1).
export interface RetentionRule {
  what: string;
  days: number;
  // Deletes the rows older than the cutoff; returns how many.
  sweep(db: Database, cutoff: Date): Promise<number>;
}

export const retentionRules = (config: Pick<Config, 'secureLogRetentionDays' | 'messagingRollupRetentionDays'>): RetentionRule[] => [
  { what: 'secure logs', days: config.secureLogRetentionDays, sweep: sweepSecureLogs },
  { what: 'messaging rollups', days: config.messagingRollupRetentionDays, sweep: sweepRollups },
];

// Sweeps now and every hour, in the background (safe on several processes at once: each sweep is a DELETE).
export function startRetentionSweep(opts: {
  db: Database;
  rules: readonly RetentionRule[];
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  intervalMs?: number;
  now?: () => Date;
}): { stop(): void } {
  const now = opts.now ?? (() => new Date());
  const sweep = () => {
    for (const rule of opts.rules) {
      void rule
        .sweep(opts.db, new Date(now().getTime() - rule.days * 86_400_000))
        .then((removed) => removed > 0 && opts.logger.info({ what: rule.what, removed }, 'removed rows past their retention'))
        .catch((error: unknown) => opts.logger.warn({ what: rule.what, err: { message: error instanceof Error ? error.message : String(error) } }, 'retention sweep failed; will try again'));
    }
  };
  sweep();
  const timer = setInterval(sweep, opts.intervalMs ?? 60 * 60 * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
