import { Code, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { ApiCaptureRecord, CapturedSide } from '@clinicrelay/contracts/api-capture.ts';

// A stored JSON body is compact: shown pretty-printed; any other body as stored.
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Side({ title, side, first }: { title: string; side: CapturedSide; first: [string, string][] }) {
  const headers = Object.entries(side.headers);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {first.map(([label, value]) => (
          <Text key={label} size="sm">
            <Text span fw={600}>
              {label}:
            </Text>{' '}
            {value}
          </Text>
        ))}
        <Text size="sm" fw={600}>
          Headers
        </Text>
        <Table withRowBorders={false} verticalSpacing={2} fz="xs">
          <Table.Tbody>
            {headers.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Td w="35%" style={{ wordBreak: 'break-all' }}>
                  {name}
                </Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" fw={600}>
          Body ({side.bodyBytes.toLocaleString('en-US')} bytes{side.bodyTruncated ? ', cut at 64 kB' : ''})
        </Text>
        {side.body === null ? (
          <Text size="sm" c="dimmed">
            No body
          </Text>
        ) : (
          // Focusable, so a keyboard can scroll a long body (axe: scrollable-region-focusable).
          <Code block mah={320} style={{ overflow: 'auto' }} tabIndex={0} aria-label={`${title} body`}>
            {pretty(side.body)}
          </Code>
        )}
      </Stack>
    </Paper>
  );
}

/** back-office-b §2: a record expands to its request (url, method, headers, body) and response (status, headers, body). */
export function CaptureRecord({ record }: { record: ApiCaptureRecord }) {
  const { request, response } = record.value;
  return (
    <Stack gap="xs">
      <Group gap="lg">
        <Text size="xs" c="dimmed">
          Token hash: {record.tokenHash ?? 'none'}
        </Text>
        <Text size="xs" c="dimmed">
          User from: {record.userIdSourceType}
        </Text>
        <Text size="xs" c="dimmed">
          Duration: {record.durationMs} ms
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Side
          title="Request"
          side={request}
          first={[
            ['URL', request.url ?? ''],
            ['Method', request.method ?? ''],
          ]}
        />
        <Side title="Response" side={response} first={[['Status', String(response.status ?? '')]]} />
      </SimpleGrid>
    </Stack>
  );
}
