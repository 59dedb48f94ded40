import { Alert, Card, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchNetworkFeatureSettings, networkFeatureKeys, updateNetworkFeatureSettings } from '../../api/networks.ts';
import { sessionKeys } from '../../api/session.ts';
import { useSession } from '../../app/session-context.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { errorDetails } from '../../components/error-details.ts';
import { NetworkFeaturesForm } from '../../components/network-features-form.tsx';

/**
 * /account/network: the network a user administers (issue 11 §5, end-user §6 "the network-feature toggle applies to
 * network administrators only"): its organizations and the features that apply to all of them.
 */
export function NetworkFeaturesPage() {
  const { profile } = useSession();
  const queryClient = useQueryClient();
  const networkId = profile.administerOfNetworkObjectId;
  const settings = useQuery({
    queryKey: networkFeatureKeys.one(networkId ?? ''),
    queryFn: ({ signal }) => fetchNetworkFeatureSettings(networkId!, signal),
    enabled: networkId !== null,
  });
  usePageTitle(settings.data?.name ?? 'Network');

  if (networkId === null) return <Alert color="gray">You do not administer a network.</Alert>;
  if (settings.error) return <Alert color="red">{errorDetails(settings.error).message}</Alert>;
  if (!settings.data) return <Loader aria-label="Loading the network" />;
  const network = settings.data;
  return (
    <Stack maw={720}>
      <Title order={1}>{network.name}</Title>
      <Text c="dimmed">You administer this network. Its features apply to every organization in it.</Text>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Organizations
        </Title>
        {network.organizations.length === 0 ? (
          <Text c="dimmed">No organization belongs to this network yet.</Text>
        ) : (
          <List aria-label="Organizations of the network">
            {network.organizations.map((o) => (
              <List.Item key={o.id}>{o.name}</List.Item>
            ))}
          </List>
        )}
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Network Features
        </Title>
        <NetworkFeaturesForm
          key={network.enabledNetworkFeatureIds.join()}
          stored={network.enabledNetworkFeatureIds}
          onSave={async (ids) => {
            await updateNetworkFeatureSettings(network.id, ids);
            // The profile carries the features the UI is gated by.
            await Promise.all([queryClient.invalidateQueries({ queryKey: networkFeatureKeys.one(network.id) }), queryClient.invalidateQueries({ queryKey: sessionKeys.profile() })]);
          }}
        />
      </Card>
    </Stack>
  );
}
