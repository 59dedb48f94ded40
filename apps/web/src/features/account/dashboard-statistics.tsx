import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Paper, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import dayjs from 'dayjs';
import { useStatistics } from './dashboard-api.ts';
import { DashboardSection } from './dashboard-section.tsx';

export const statisticsTexts = {
  title: 'Message statistics',
  period: 'Last 30 days',
  perDay: 'Messages per day',
  empty: 'No messages were received or sent in the last 30 days.',
} as const;

type Totals = 'received' | 'sent' | 'failed' | 'unprocessed' | 'unassigned';
const TILES: { key: Totals; label: string }[] = [
  { key: 'received', label: 'Received' },
  { key: 'sent', label: 'Sent' },
  { key: 'failed', label: 'Failed' },
  { key: 'unprocessed', label: 'Unprocessed' },
  { key: 'unassigned', label: 'Unassigned' },
];

/** The organization's last 30 days (GET /api/messages/statistics): totals, and received and sent per day. */
export function DashboardStatistics() {
  const statistics = useStatistics();
  const stats = statistics.data;
  // The per-day dates are UTC days (YYYY-MM-DD); dayjs reads a bare date as that day, not shifted to the local zone.
  const days = (stats?.perDay ?? []).map((d) => ({ day: dayjs(d.date).format('MMM DD'), date: d.date, received: d.count, sent: d.sent }));
  const anything = days.some((d) => d.received + d.sent > 0);

  return (
    <DashboardSection title={statisticsTexts.title} loading={statistics.isPending} error={statistics.error}>
      {stats && (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {statisticsTexts.period}
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="sm">
            {TILES.map((tile) => (
              <Paper key={tile.key} withBorder p="sm" radius="sm">
                <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                  {tile.label}
                </Text>
                <Text size="xl" fw={700} aria-label={`${tile.label}: ${stats[tile.key]}`}>
                  {stats[tile.key]}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          {anything ? (
            <div>
              <Text size="sm" fw={600} mb="xs" aria-hidden>
                {statisticsTexts.perDay}
              </Text>
              {/* The chart is for the eye; the same figures are read out from the table below it. */}
              <div aria-hidden inert>
                <BarChart
                  h={180}
                  data={days}
                  dataKey="day"
                  withLegend
                  tickLine="none"
                  gridAxis="y"
                  barChartProps={{ accessibilityLayer: false }}
                  series={[
                    { name: 'received', label: 'Received', color: 'blue.6' },
                    { name: 'sent', label: 'Sent', color: 'teal.6' },
                  ]}
                />
              </div>
              <VisuallyHidden>
                <Table aria-label={statisticsTexts.perDay}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Day</Table.Th>
                      <Table.Th>Received</Table.Th>
                      <Table.Th>Sent</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {days.map((d) => (
                      <Table.Tr key={d.date}>
                        <Table.Td>{d.day}</Table.Td>
                        <Table.Td>{d.received}</Table.Td>
                        <Table.Td>{d.sent}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </VisuallyHidden>
            </div>
          ) : (
            <Text c="dimmed">{statisticsTexts.empty}</Text>
          )}
        </Stack>
      )}
    </DashboardSection>
  );
}
