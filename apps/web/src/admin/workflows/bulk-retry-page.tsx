import { useState } from 'react';
import { Alert, Button, NativeSelect, Stack, Table, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { retryTypes, workflowMessages, type BulkRetryResult } from '@clinicrelay/contracts/workflows.ts';
import { bulkRetryWorkflows } from '../../api/workflows.ts';
import { errorDetails } from '../../components/error-details.ts';

/** /admin/workflows (back-office-a §2 Bulk workflow retry): type, retry-at step, comma-separated ids; a result per id. */
export function BulkRetryPage() {
  const [type, setType] = useState('');
  const [retryStep, setRetryStep] = useState('');
  const [ids, setIds] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [results, setResults] = useState<BulkRetryResult['results'] | null>(null);
  const submit = useMutation({
    mutationFn: () => bulkRetryWorkflows({ type: type as (typeof retryTypes)[number], retryStep, workflowIds: ids }),
    onSuccess: (data) => setResults(data.results),
  });
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!type) found.type = workflowMessages.typeMissing;
    if (!retryStep.trim()) found.retryStep = workflowMessages.stepMissing;
    if (!ids.split(/[,\s]+/).some(Boolean)) found.workflowIds = workflowMessages.idsMissing;
    setErrors(found);
    if (Object.keys(found).length === 0) submit.mutate();
  };
  return (
    <Stack maw={900}>
      <Title order={1}>Bulk workflow retry</Title>
      <Text>Retry many workflows at one step. Each workflow runs that step again once, if the step is not Completed.</Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <NativeSelect
            label="Workflow type"
            required
            value={type}
            onChange={(e) => setType(e.currentTarget.value)}
            data={[{ value: '', label: 'Choose send or receive' }, ...retryTypes]}
            error={errors.type}
          />
          <TextInput label="Retry at step" description="The step's name, e.g. deliver, direct-seal, direct-smtp or receive" required value={retryStep} onChange={(e) => setRetryStep(e.currentTarget.value)} error={errors.retryStep} />
          <Textarea label="Workflow IDs" description="Comma separated" required autosize minRows={3} value={ids} onChange={(e) => setIds(e.currentTarget.value)} error={errors.workflowIds} />
          <Button type="submit" loading={submit.isPending} w={120}>
            Submit
          </Button>
        </Stack>
      </form>
      {submit.error ? <Alert color="red">{errorDetails(submit.error).message}</Alert> : null}
      {results ? (
        <Table aria-label="Retry results" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Workflow ID</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>What happened</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((r) => (
              <Table.Tr key={r.workflowId}>
                <Table.Td ff="monospace">{r.workflowId}</Table.Td>
                <Table.Td>{r.result}</Table.Td>
                <Table.Td>{r.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
