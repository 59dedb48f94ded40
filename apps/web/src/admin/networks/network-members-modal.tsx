import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Loader, Modal, Select, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';
import { networkMessages, type Network } from '@clinicrelay/contracts/networks.ts';
import { addNetworkMember, fetchNetwork, networkKeys, removeNetworkMember, searchNetworkCandidates, updateNetwork, type NetworkMemberKind } from '../../api/networks.ts';
import { errorDetails } from '../../components/error-details.ts';
import { NetworkFeaturesForm } from '../../components/network-features-form.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';

// back-office-a §2 "Networks": the organizations-and-administrators modal, tabs Organizations, Administrators and
// Network Features.

const TYPEAHEAD_MIN = 2;

interface NetworkMembersModalProps {
  networkId: string | null;
  onClose: () => void;
}

export function NetworkMembersModal({ networkId, onClose }: NetworkMembersModalProps) {
  const network = useQuery({ queryKey: networkKeys.one(networkId ?? ''), queryFn: ({ signal }) => fetchNetwork(networkId!, signal), enabled: networkId !== null });
  return (
    <Modal opened={networkId !== null} onClose={onClose} size="lg" title={network.data ? network.data.name : 'Network'}>
      {network.isPending ? (
        <Loader aria-label="Loading the network" />
      ) : network.error ? (
        <Alert color="red">{errorDetails(network.error).message}</Alert>
      ) : (
        <Tabs defaultValue="organizations">
          <Tabs.List>
            <Tabs.Tab value="organizations">Organizations</Tabs.Tab>
            <Tabs.Tab value="administrators">Administrators</Tabs.Tab>
            <Tabs.Tab value="features">Network Features</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="organizations" pt="md">
            <MembersTab network={network.data} kind="organizations" label="Organization" members={network.data.organizations.map((o) => ({ id: o.id, label: o.name }))} />
          </Tabs.Panel>
          <Tabs.Panel value="administrators" pt="md">
            <MembersTab network={network.data} kind="admins" label="Administrator" members={network.data.administrators.map((u) => ({ id: u.id, label: `${u.fullName} (${u.userName})` }))} />
          </Tabs.Panel>
          <Tabs.Panel value="features" pt="md">
            {/* Keyed by the stored features: a save starts the selection again from what was stored. */}
            <FeaturesTab key={network.data.enabledNetworkFeatureIds.join()} network={network.data} />
          </Tabs.Panel>
        </Tabs>
      )}
    </Modal>
  );
}

const texts = {
  organizations: { saved: networkMessages.organizationSaved, removed: networkMessages.organizationRemoved, empty: 'No organizations belong to this network yet.' },
  admins: { saved: networkMessages.userSaved, removed: networkMessages.userRemoved, empty: 'This network has no administrators yet.' },
};

function MembersTab({ network, kind, label, members }: { network: Network; kind: NetworkMemberKind; label: string; members: { id: string; label: string }[] }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const candidates = useQuery({
    queryKey: [...networkKeys.one(network.id), kind, 'candidates', debounced],
    queryFn: ({ signal }) => searchNetworkCandidates(network.id, kind, debounced, signal),
    enabled: debounced.length >= TYPEAHEAD_MIN,
  });
  const options = debounced.length >= TYPEAHEAD_MIN ? (candidates.data ?? []) : [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: networkKeys.all });

  const add = async () => {
    if (!chosen) return setError(networkMessages.chooseFromList);
    setBusy(true);
    try {
      await addNetworkMember(network.id, kind, chosen);
      notifySuccess(texts[kind].saved);
      setChosen(null);
      setSearch('');
      await refresh();
    } catch (failure) {
      setError(errorDetails(failure).message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (memberId: string) => {
    try {
      await removeNetworkMember(network.id, kind, memberId);
      notifySuccess(texts[kind].removed);
      await refresh();
    } catch (failure) {
      notifyError(errorDetails(failure).message);
    }
  };

  return (
    <Stack>
      <Group align="flex-start">
        <Select
          label={label}
          placeholder="Type at least 2 characters"
          searchable
          clearable
          style={{ flex: 1 }}
          data={options}
          value={chosen}
          searchValue={search}
          onSearchChange={(value) => {
            setSearch(value);
            setError(null);
          }}
          onChange={(value) => {
            setChosen(value);
            setError(null);
          }}
          filter={({ options: all }) => all}
          nothingFoundMessage={debounced.length >= TYPEAHEAD_MIN && !candidates.isFetching ? 'Nothing found' : undefined}
          error={error}
        />
        <Button mt={25} onClick={() => void add()} loading={busy}>
          Add
        </Button>
      </Group>
      {members.length === 0 ? (
        <Text c="dimmed">{texts[kind].empty}</Text>
      ) : (
        <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label={`${label}s of the network`}>
          {members.map((m) => (
            <Group key={m.id} component="li" justify="space-between" wrap="nowrap">
              <Text truncate="end">{m.label}</Text>
              <Tooltip label="Remove" withArrow>
                <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.label}`} onClick={() => void remove(m.id)}>
                  ×
                </ActionIcon>
              </Tooltip>
            </Group>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function FeaturesTab({ network }: { network: Network }) {
  const queryClient = useQueryClient();
  return (
    <NetworkFeaturesForm
      stored={network.enabledNetworkFeatureIds}
      onSave={async (ids) => {
        await updateNetwork(network.id, { name: network.name, enabledNetworkFeatureIds: ids });
        await queryClient.invalidateQueries({ queryKey: networkKeys.all });
      }}
    />
  );
}
