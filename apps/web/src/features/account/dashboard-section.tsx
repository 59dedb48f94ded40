import { type ReactNode, useId } from 'react';
import { Alert, Card, Loader, Title } from '@mantine/core';
import { errorDetails } from '../../components/error-details.ts';

export interface DashboardSectionProps {
  title: string;
  /** While the section's first answer is on its way. */
  loading?: boolean;
  loadingLabel?: string;
  error?: unknown;
  children?: ReactNode;
}

/** One card of the dashboard: a named region with its own loading and error state. */
export function DashboardSection({ title, loading = false, loadingLabel, error, children }: DashboardSectionProps) {
  const headingId = useId();
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" mb="sm" id={headingId}>
        {title}
      </Title>
      {error ? <Alert color="red">{errorDetails(error).message}</Alert> : loading ? <Loader size="sm" aria-label={loadingLabel ?? `Loading ${title.toLowerCase()}`} /> : children}
    </Card>
  );
}
