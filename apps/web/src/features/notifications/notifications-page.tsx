import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  notificationPreferenceHints,
  notificationPreferenceLabels,
  notificationSchedule,
  notificationScheduleMessages as text,
  US_TIME_ZONES,
  type NotificationPreferences,
  type NotificationSchedule,
} from '@clinicrelay/contracts/notifications.ts';
import { useUpdatePreferences } from '../../api/session.ts';
import { useNotificationSchedule, useSaveNotificationSchedule } from '../../api/notifications.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { errorDetails } from '../../components/error-details.ts';
import { notifySuccess } from '../../components/notify.ts';

/**
 * /settings/notifications (issue 13 §5, the path is not in the spec): every user chooses which mails they receive; an
 * Administrator also sets when the organization's daily reminders and digests go out.
 */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const { profile } = useSession();
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>Notifications</Title>
      <MyNotificationsSection />
      {profile.roles.includes('Administrator') && <DailyScheduleSection />}
    </Stack>
  );
}

function MyNotificationsSection() {
  const { preferences } = useSession();
  const save = useUpdatePreferences();
  const [values, setValues] = useState<NotificationPreferences>(() => Object.fromEntries(notificationPreferenceLabels.map(([key]) => [key, preferences[key]])) as NotificationPreferences);
  const submit = () =>
    save.mutate(values, {
      onSuccess: () => notifySuccess(text.preferencesSaved),
    });
  return (
    <Paper withBorder p="md" component="section" aria-label="Email me about">
      <Stack>
        <Title order={2} size="h4">
          Email me about
        </Title>
        <Text size="sm" c="dimmed">
          Mails name no patient, subject or sender: they say how many messages there are and link to ClinicRelay.
        </Text>
        {save.error ? <Alert color="red">{errorDetails(save.error).message}</Alert> : null}
        {notificationPreferenceLabels.map(([key, label]) => (
          <Checkbox key={key} label={label} description={notificationPreferenceHints[key]} checked={values[key]} onChange={(e) => setValues({ ...values, [key]: e.currentTarget.checked })} />
        ))}
        <Group justify="flex-end">
          <Button onClick={submit} loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

// Every zone the browser knows, the US ones first.
function timeZoneOptions(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set<string>([...US_TIME_ZONES, ...all, 'UTC', current])];
}

function DailyScheduleSection() {
  const schedule = useNotificationSchedule();
  return (
    <Paper withBorder p="md" component="section" aria-label="Daily reminders and digests">
      <Stack>
        <Title order={2} size="h4">
          Daily reminders and digests
        </Title>
        <Text size="sm" c="dimmed">
          When the organization’s users receive the unprocessed-message reminder, the failed-message digest and the unassigned-message notice (each only when there is something to count).
        </Text>
        {schedule.error ? <Alert color="red">{errorDetails(schedule.error).message}</Alert> : !schedule.data ? <Loader size="sm" aria-label="Loading the daily time" /> : <ScheduleForm initial={schedule.data} />}
      </Stack>
    </Paper>
  );
}

function ScheduleForm({ initial }: { initial: NotificationSchedule }) {
  const save = useSaveNotificationSchedule();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof NotificationSchedule, string>>>({});
  const submit = () => {
    const parsed = notificationSchedule.safeParse(values);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    save.mutate(parsed.data, { onSuccess: () => notifySuccess(text.saved) });
  };
  return (
    <>
      {save.error ? <Alert color="red">{errorDetails(save.error).message}</Alert> : null}
      <Group align="flex-start">
        <TextInput type="time" label="Time" required value={values.dailyTime} onChange={(e) => setValues({ ...values, dailyTime: e.currentTarget.value })} error={errors.dailyTime} w={160} />
        <Select
          label="Time zone"
          required
          searchable
          data={timeZoneOptions(initial.timeZone)}
          value={values.timeZone}
          onChange={(timeZone) => setValues({ ...values, timeZone: timeZone ?? '' })}
          error={errors.timeZone}
          w={280}
        />
      </Group>
      <Group justify="flex-end">
        <Button onClick={submit} loading={save.isPending}>
          Save
        </Button>
      </Group>
    </>
  );
}
