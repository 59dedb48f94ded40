import { Table, Text } from '@mantine/core';
import { EmptyState } from '../../components/empty-state.tsx';
import { RECENT_ACTIVITY_DAYS, useEventTypes, useRecentActivity } from './dashboard-api.ts';
import { ActivityTime } from '../../components/activity-time.tsx';
import { DashboardSection } from './dashboard-section.tsx';

export const activityTexts = {
  title: 'Recent activity',
  empty: `No message activity in the last ${RECENT_ACTIVITY_DAYS} days.`,
  noSubject: '(no subject)',
} as const;

// Types the server does not name read as words: "DraftCreated" → "Draft created".
export const typeWords = (eventType: string) => eventType.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').replace(/ [A-Z](?=[a-z])/g, (w) => w.toLowerCase());

/** The organization's latest message events (GET /api/messages/events). */
export function DashboardActivity() {
  const activity = useRecentActivity();
  const types = useEventTypes();
  const typeName = (eventType: string) => types.data?.find((t) => t.eventType === eventType)?.name ?? typeWords(eventType);
  const items = activity.data?.items ?? [];

  return (
    <DashboardSection title={activityTexts.title} loading={activity.isPending} error={activity.error}>
      {items.length === 0 ? (
        <EmptyState text={activityTexts.empty} />
      ) : (
        // Fixed columns: a long subject is cut (whole in its title) instead of the card scrolling sideways.
        <Table striped layout="fixed" aria-label={activityTexts.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={88}>When</Table.Th>
              <Table.Th w="28%">Activity</Table.Th>
              <Table.Th>Message</Table.Th>
              <Table.Th w="24%">By</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((event) => (
              <Table.Tr key={event.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <ActivityTime at={event.createdOn} />
                </Table.Td>
                <Table.Td>{typeName(event.eventType)}</Table.Td>
                <Table.Td>
                  <Text size="sm" truncate="end" title={event.subject}>
                    {event.subject || activityTexts.noSubject}
                  </Text>
                </Table.Td>
                <Table.Td>{event.createdBy ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </DashboardSection>
  );
}
