import { Alert, Loader, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { SECURE_LOG_SEARCH_DEBOUNCE_MS, secureLogParams, secureLogsMessages } from '@clinicrelay/contracts/audits.ts';
import { auditsKeys, fetchSecureLog } from '../../api/audits.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';

// back-office-a Secure logs: the error a user saw as "Reference id: …", found by that id (300 ms after typing stops).
// The id lives in the URL (?referenceId=), so support can pass a link.
export function SecureLogsPage() {
  usePageTitle('Secure logs');
  const [params, setParams] = useSearchParams();
  const typed = params.get('referenceId') ?? '';
  const [debounced] = useDebouncedValue(typed.trim(), SECURE_LOG_SEARCH_DEBOUNCE_MS);
  const parsed = secureLogParams.safeParse({ referenceId: debounced });
  const referenceId = parsed.success ? parsed.data.referenceId : null;
  const query = useQuery({
    queryKey: auditsKeys.secureLog(referenceId ?? ''),
    queryFn: ({ signal }) => fetchSecureLog(referenceId!, signal),
    enabled: referenceId !== null,
    retry: false,
  });

  let result;
  if (debounced === '') result = <Text c="dimmed">{secureLogsMessages.empty}</Text>;
  else if (!parsed.success) result = <Text c="dimmed">{parsed.error.issues[0]?.message}</Text>;
  else if (query.isLoading) result = <Loader aria-label="Loading" />;
  else if (query.error) result = <Alert color="yellow">{errorDetails(query.error).message}</Alert>;
  else if (query.data) {
    const log = query.data;
    result = (
      <Paper withBorder p="md">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <ReadOnlyField label="Log date" value={formatDateTime(log.date)} />
            <ReadOnlyField label="Request" value={`${log.method} ${log.route} → ${log.statusCode}`} />
            <ReadOnlyField label="Request id" value={log.requestId ?? ''} />
            <ReadOnlyField label="User id" value={log.userId ?? ''} />
            <ReadOnlyField label="Organization id" value={log.organizationId ?? ''} />
          </SimpleGrid>
          <Textarea label="Message" readOnly rows={10} value={[log.message, log.stack].filter(Boolean).join('\n')} styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }} />
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack>
      <Title order={1}>Secure logs</Title>
      <TextInput
        label="Reference id"
        placeholder="Reference id"
        maw={320}
        value={typed}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setParams(
            (previous) => {
              const next = new URLSearchParams(previous);
              if (value) next.set('referenceId', value);
              else next.delete('referenceId');
              return next;
            },
            { replace: true },
          );
        }}
      />
      {result}
    </Stack>
  );
}
