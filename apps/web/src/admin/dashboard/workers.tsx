import { Badge, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_REFRESH_MS } from '@clinicrelay/contracts/messaging-dashboard.ts';
import { fetchWorkerDiagnostics, messagingDashboardKeys } from '../../api/messaging-dashboard.ts';
import { formatDateTime } from '../../components/format.ts';
import { DashboardCard } from './dashboard-card.tsx';

export const workerTexts = { title: 'Workers', none: 'No worker process has run in the last 24 hours.', queues: 'Work waiting' } as const;

/** GET /api/diagnostics/worker: the processes running workflows, their heartbeat, and the work waiting per type. */
export function Workers() {
  const diagnostics = useQuery({ queryKey: messagingDashboardKeys.workers(), queryFn: ({ signal }) => fetchWorkerDiagnostics(signal), refetchInterval: DASHBOARD_REFRESH_MS });
  const data = diagnostics.data;
  return (
    <DashboardCard title={workerTexts.title} id="workers" loading={diagnostics.isPending} error={diagnostics.error}>
      {data && (
        <>
          {data.workers.length === 0 ? (
            <Text c="dimmed">{workerTexts.none}</Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table aria-label={workerTexts.title}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Worker</Table.Th>
                    <Table.Th>Lanes</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Last heartbeat</Table.Th>
                    <Table.Th>State</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.workers.map((w) => (
                    <Table.Tr key={w.workerId}>
                      <Table.Td>{w.workerId}</Table.Td>
                      <Table.Td>{w.lanes.map((l) => `${l.name} ×${l.concurrency}`).join(', ')}</Table.Td>
                      <Table.Td>{formatDateTime(w.startedAt)}</Table.Td>
                      <Table.Td>{formatDateTime(w.lastSeenAt)}</Table.Td>
                      <Table.Td>
                        <Badge color={w.heartbeating ? 'green' : 'red'} variant="light">
                          {w.heartbeating ? 'Heartbeating' : 'Silent'}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data.queues.length > 0 && (
            <Table mt="sm" aria-label={workerTexts.queues}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Workflow type</Table.Th>
                  <Table.Th>Pending</Table.Th>
                  <Table.Th>Running</Table.Th>
                  <Table.Th>Oldest due</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.queues.map((q) => (
                  <Table.Tr key={q.type}>
                    <Table.Td>{q.type}</Table.Td>
                    <Table.Td>{q.pending}</Table.Td>
                    <Table.Td>{q.running}</Table.Td>
                    <Table.Td>{q.oldestDueAt ? formatDateTime(q.oldestDueAt) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </DashboardCard>
  );
}
