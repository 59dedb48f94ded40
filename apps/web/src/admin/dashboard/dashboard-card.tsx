import { type ReactNode, useId } from 'react';
import { Alert, Card, Group, Loader, Title } from '@mantine/core';
import { errorDetails } from '../../components/error-details.ts';

/** One named region of the messaging dashboard, with its own loading and error state. */
export function DashboardCard({ title, id, loading, error, aside, children }: { title: string; id?: string; loading: boolean; error: unknown; aside?: ReactNode; children?: ReactNode }) {
  const headingId = useId();
  return (
    <Card withBorder component="section" aria-labelledby={headingId} id={id}>
      <Group justify="space-between" align="baseline" mb="sm">
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        {aside}
      </Group>
      {error ? <Alert color="red">{errorDetails(error).message}</Alert> : loading ? <Loader size="sm" aria-label={`Loading ${title.toLowerCase()}`} /> : children}
    </Card>
  );
}
