import { activityTime, formatDateTime } from './format.ts';

/** When something happened, as activity lists show it (h:mm A today, MMM DD before), the full time on hover. */
export function ActivityTime({ at }: { at: string }) {
  return (
    <time dateTime={at} title={formatDateTime(at)}>
      {activityTime(at)}
    </time>
  );
}
