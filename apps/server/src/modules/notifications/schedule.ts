import type { Database } from '../../db/client.ts';
import { startDueDailyRuns } from './daily.ts';

interface Logger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const DAILY_TICK_MS = 60_000;

// Issue 13 §5: every minute, start the daily reminders and digests of the organizations whose time has come (a
// workflow each). Safe in several processes on one database: the organization-day row decides who starts it.
export function startNotificationSchedule(opts: { db: Database; now: () => Date; logger: Logger }) {
  const tick = () =>
    startDueDailyRuns(opts.db, opts.now())
      .then((started) => started > 0 && opts.logger.info({ started }, 'daily notifications started'))
      .catch((error: unknown) => opts.logger.warn({ error: (error as Error).message }, 'daily notifications tick failed; will try again'));
  void tick();
  const timer = setInterval(() => void tick(), DAILY_TICK_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
