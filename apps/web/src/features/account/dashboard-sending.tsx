import { List } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { sendingStatus, sendingTexts } from '@clinicrelay/contracts/organizations.ts';
import type { Profile } from '@clinicrelay/contracts/session.ts';
import { apiFetch } from '../../api/client.ts';
import { DashboardSection } from './dashboard-section.tsx';

/** Once activated: what the organization still lacks to send everywhere (issue 26 §3b), as the activation mail says it. Nothing when nothing is pending. */
export function DashboardSending({ profile }: { profile: Profile }) {
  const status = useQuery({
    queryKey: ['organization', 'sendingstatus', profile.organizationId],
    queryFn: ({ signal }) => apiFetch('/api/organization/sendingstatus', { schema: sendingStatus, signal }),
    enabled: profile.orgIsActivated,
  });
  if (!profile.orgIsActivated || !status.data || status.data.pending.length === 0) return null;
  return (
    <DashboardSection title={sendingTexts.title}>
      <List spacing="xs">
        {status.data.pending.map((sentence) => (
          <List.Item key={sentence}>{sentence}</List.Item>
        ))}
      </List>
    </DashboardSection>
  );
}
