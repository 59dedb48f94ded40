import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import dayjs from 'dayjs';
import { Link } from 'react-router';
import { failedWorkflowsLink, messagingChannelLabels, type ChannelFigures, type MessagingStats } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { DashboardCard } from './dashboard-card.tsx';

export const channelTexts = {
  inbound: 'Inbound messaging',
  outbound: 'Outbound messaging',
  period: 'Last 24 hours',
  perHour: 'Messages per hour',
} as const;

const CHART_COLORS = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'cyan.6', 'pink.6'];
const label = (channel: string) => messagingChannelLabels[channel] ?? channel;
// §4: Error red, Warn orange, otherwise blue.
const STATE_LABEL = { Error: 'Error', Warn: 'Warn', OK: 'OK' } as const;

const FIGURES: { key: 'total' | 'success' | 'failure' | 'other'; label: string }[] = [
  { key: 'total', label: 'Total' },
  { key: 'success', label: 'Success' },
  { key: 'failure', label: 'Failure' },
  { key: 'other', label: 'Other' },
];

function ChannelCard({ channel, direction }: { channel: ChannelFigures; direction: 'inbound' | 'outbound' }) {
  const link = failedWorkflowsLink(direction, channel.name);
  return (
    <Paper withBorder p="sm" radius="sm" data-channel={channel.name} data-state={channel.state} style={{ borderLeft: `4px solid var(--mantine-color-${channel.color}-6)` }}>
      <Group justify="space-between" mb={4} wrap="nowrap">
        <Anchor component={Link} to={link} fw={600} size="sm">
          {label(channel.name)}
        </Anchor>
        <Badge color={channel.color} variant="light" size="sm">
          {STATE_LABEL[channel.state]}
        </Badge>
      </Group>
      <Group gap="lg">
        {FIGURES.map((f) => (
          <Stack key={f.key} gap={0}>
            <Text size="xs" c="dimmed">
              {f.label}
            </Text>
            <Anchor component={Link} to={link} fw={700} size="lg" c={f.key === 'failure' && channel.failure > 0 ? 'red.8' : undefined} aria-label={`${label(channel.name)} ${direction} ${f.label.toLowerCase()}: ${channel[f.key]}`}>
              {channel[f.key]}
            </Anchor>
          </Stack>
        ))}
      </Group>
    </Paper>
  );
}

/** One direction's channels: the 24-hour figures (GET messageCounts, every 10 s) and the hourly chart (GET stats, every 30 s). */
export function ChannelMessaging(props: {
  direction: 'inbound' | 'outbound';
  channels: ChannelFigures[] | undefined;
  series: MessagingStats['inboundMessages'] | undefined;
  loading: boolean;
  error: unknown;
}) {
  const title = props.direction === 'inbound' ? channelTexts.inbound : channelTexts.outbound;
  const series = props.series ?? [];
  const hours = series[0]?.dailyStats.map((d) => d.date) ?? [];
  const data = hours.map((date, i) => ({ hour: dayjs(date).format('HH:mm'), date, ...Object.fromEntries(series.map((s) => [s.name, s.dailyStats[i]?.value ?? 0])) }));
  return (
    <DashboardCard
      title={title}
      loading={props.loading}
      error={props.error}
      aside={
        <Text size="sm" c="dimmed">
          {channelTexts.period}
        </Text>
      }
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          {(props.channels ?? []).map((c) => (
            <ChannelCard key={c.name} channel={c} direction={props.direction} />
          ))}
        </SimpleGrid>
        {data.length > 0 && (
          <div>
            <Text size="sm" fw={600} mb="xs" aria-hidden>
              {channelTexts.perHour}
            </Text>
            {/* The chart is for the eye; the same figures are read out from the table below it. */}
            <div aria-hidden inert>
              <AreaChart
                h={180}
                data={data}
                dataKey="hour"
                withLegend
                tickLine="none"
                gridAxis="y"
                curveType="monotone"
                areaChartProps={{ accessibilityLayer: false }}
                series={series.map((s, i) => ({ name: s.name, label: label(s.name), color: CHART_COLORS[i % CHART_COLORS.length]! }))}
              />
            </div>
            <VisuallyHidden>
              <Table aria-label={`${title}: ${channelTexts.perHour.toLowerCase()}`}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Hour</Table.Th>
                    {series.map((s) => (
                      <Table.Th key={s.name}>{label(s.name)}</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.map((row, i) => (
                    <Table.Tr key={row.date}>
                      <Table.Td>{row.hour}</Table.Td>
                      {series.map((s) => (
                        <Table.Td key={s.name}>{s.dailyStats[i]?.value ?? 0}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </VisuallyHidden>
          </div>
        )}
      </Stack>
    </DashboardCard>
  );
}
