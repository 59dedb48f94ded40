import { Grid, Stack, Title } from '@mantine/core';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { DashboardActivity } from './dashboard-activity.tsx';
import { DashboardAttention } from './dashboard-attention.tsx';
import { DashboardOnboarding } from './dashboard-onboarding.tsx';
import { DashboardSending } from './dashboard-sending.tsx';
import { DashboardStatistics } from './dashboard-statistics.tsx';

// The Administrator's landing page (issue 13 §1): each section owns its calls, loading and empty states.
export function DashboardPage() {
  usePageTitle('Dashboard');
  const { profile } = useSession();
  return (
    <Stack gap="md">
      <Title order={1}>Dashboard</Title>
      <DashboardOnboarding profile={profile} />
      <DashboardSending profile={profile} />
      <DashboardStatistics />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <DashboardAttention />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <DashboardActivity />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
