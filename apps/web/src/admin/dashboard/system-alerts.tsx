import { Anchor, Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { alertStatusColors, DASHBOARD_REFRESH_MS } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { fetchSystemAlerts, messagingDashboardKeys } from '../../api/messaging-dashboard.ts';
import { formatDateTime } from '../../components/format.ts';
import { DashboardCard } from './dashboard-card.tsx';

export const systemAlertTexts = { title: 'System Alerts', look: 'View' } as const;

// Triggered first, then Warn, then OK (back-office-b §4 colours).
const ORDER = { Triggered: 0, Warn: 1, OK: 2 } as const;

/** GET /api/diagnostics/messaging/systemalerts, every 10 s: each condition with its state, since when and where to look. */
export function SystemAlerts() {
  const alerts = useQuery({ queryKey: messagingDashboardKeys.alerts(), queryFn: ({ signal }) => fetchSystemAlerts(signal), refetchInterval: DASHBOARD_REFRESH_MS });
  const items = [...(alerts.data?.items ?? [])].sort((a, b) => ORDER[a.status] - ORDER[b.status]);
  return (
    <DashboardCard title={systemAlertTexts.title} loading={alerts.isPending} error={alerts.error}>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing={4} fz="sm" aria-label={systemAlertTexts.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={120}>Status</Table.Th>
              <Table.Th>Alert</Table.Th>
              <Table.Th>Details</Table.Th>
              <Table.Th>Since</Table.Th>
              <Table.Th>
                <Text span size="sm" fw={700}>
                  Link
                </Text>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((a) => (
              <Table.Tr key={a.alertType} data-alert={a.alertType} data-status={a.status}>
                <Table.Td>
                  <Badge color={alertStatusColors[a.status]} variant={a.status === 'OK' ? 'light' : 'filled'} autoContrast>
                    {a.status}
                  </Badge>
                </Table.Td>
                <Table.Td fw={500}>{a.name}</Table.Td>
                <Table.Td>
                  <Text size="sm">{a.detail}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.createdAt ? formatDateTime(a.createdAt) : '—'}</Text>
                </Table.Td>
                <Table.Td>
                  {a.link ? (
                    <Anchor component={Link} to={a.link} size="sm" aria-label={`${systemAlertTexts.look}: ${a.name}`}>
                      {systemAlertTexts.look}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </DashboardCard>
  );
}
