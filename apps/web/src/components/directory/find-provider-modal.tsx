import { useMemo, useState, type KeyboardEvent } from 'react';
import { Anchor, Badge, Button, Group, Modal, Select, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { directoryCountLabel, directoryMessages, directoryStates, hasDirectorySearchValue } from '@clinicrelay/contracts/directory.ts';
import { useDirectorySearch, type DirectoryCriteria, type DirectoryTab } from '../../api/directory.ts';
import { DirectoryResults, type DirectorySelection } from './directory-results.tsx';
import { SendInviteModal } from './send-invite-modal.tsx';

// end-user §2 "Find Provider dialog", §5 "Directory search", §9 (10 a page, infinite scroll, counts shown to 99+).

const stateOptions = directoryStates.map(([code, name]) => ({ value: code, label: `${code} – ${name}` }));

const NAME_MAX = 100;
const ZIP_MAX = 9;

interface SearchValues {
  firstName: string;
  lastName: string;
  organizationName: string;
  city: string;
  state: string | null;
  zip: string;
}

const blankSearch: SearchValues = { firstName: '', lastName: '', organizationName: '', city: '', state: null, zip: '' };

/** The filled fields, trimmed: what POST /api/directory/search is asked. */
function toCriteria(values: SearchValues): DirectoryCriteria {
  const criteria: DirectoryCriteria = {};
  for (const key of ['firstName', 'lastName', 'organizationName', 'city', 'state', 'zip'] as const) {
    const value = values[key]?.trim();
    if (value) criteria[key] = value;
  }
  return criteria;
}

export interface FindProviderModalProps {
  opened: boolean;
  onClose: () => void;
  /** Given, rows with a Direct address can be checked and Select hands their addresses over (then the dialog closes). */
  onSelect?: (addresses: string[]) => void;
}

/** Find Provider: search the directory by name or place; optionally choose Direct addresses to send to. */
export function FindProviderModal({ opened, onClose, onSelect }: FindProviderModalProps) {
  // The invite opens over this dialog, which keeps its search; Escape then closes only the invite.
  const [invite, setInvite] = useState<{ fullName: string } | null>(null);
  return (
    <>
      {/* Wider than the 700 px default (§9): a row shows name, Direct address and place side by side. */}
      <Modal opened={opened} onClose={onClose} title="Find Provider" size="xl" closeOnEscape={invite === null}>
        {opened && <FindProvider onClose={onClose} onSelect={onSelect} onInvite={(fullName) => setInvite({ fullName })} />}
      </Modal>
      <SendInviteModal opened={invite !== null} onClose={() => setInvite(null)} initialFullName={invite?.fullName} />
    </>
  );
}

interface FindProviderProps {
  onClose: () => void;
  onSelect: FindProviderModalProps['onSelect'];
  onInvite: (fullName: string) => void;
}

function FindProvider({ onClose, onSelect, onInvite }: FindProviderProps) {
  const form = useForm<SearchValues>({ initialValues: blankSearch });
  const [criteria, setCriteria] = useState<DirectoryCriteria | null>(null);
  const [needsValue, setNeedsValue] = useState(false);
  const [tab, setTab] = useState<DirectoryTab>('providers');
  // Chosen addresses by their lower-cased form (Direct addresses are case-insensitive); kept across searches.
  const [chosen, setChosen] = useState<ReadonlyMap<string, string>>(new Map());

  const providers = useDirectorySearch(criteria, 'providers');
  const organizations = useDirectorySearch(criteria, 'organizations');

  // Decision (the spec is silent): once a search's counts are in, it shows the tab that has results when the open
  // one has none (a search by organization name opens on Organizations), as Kno2 users expect; once per search,
  // so a user who then clicks the empty tab stays there.
  const [tabChosenFor, setTabChosenFor] = useState<DirectoryCriteria | null>(null);
  const providersTotal = providers.data?.total;
  const organizationsTotal = organizations.data?.total;
  if (criteria !== null && tabChosenFor !== criteria && providersTotal !== undefined && organizationsTotal !== undefined) {
    setTabChosenFor(criteria);
    if (providersTotal === 0 && organizationsTotal > 0) setTab('organizations');
    else if (organizationsTotal === 0 && providersTotal > 0) setTab('providers');
  }

  const search = () => {
    const values = form.getValues();
    if (!hasDirectorySearchValue(values)) {
      setNeedsValue(true);
      return;
    }
    setNeedsValue(false);
    setCriteria(toCriteria(values));
  };

  // Enter in any field searches. A key handler rather than a <form>: this dialog opens inside other forms
  // (compose). An Enter that picked a state from the list was already taken by the list.
  const searchOnEnter = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing || !(event.target instanceof HTMLInputElement)) return;
    event.preventDefault();
    search();
  };

  const selection: DirectorySelection = useMemo(
    () => ({
      enabled: onSelect !== undefined,
      isSelected: (address) => chosen.has(address.toLowerCase()),
      toggle: (address, checked) =>
        setChosen((previous) => {
          const next = new Map(previous);
          if (checked) next.set(address.toLowerCase(), address);
          else next.delete(address.toLowerCase());
          return next;
        }),
    }),
    [onSelect, chosen],
  );

  const select = () => {
    onSelect?.([...chosen.values()]);
    onClose();
  };

  const typedName = () => {
    const { firstName, lastName } = form.getValues();
    return [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');
  };

  const count = (results: typeof providers) =>
    criteria !== null && results.data ? (
      <Badge size="sm" variant="light">
        {directoryCountLabel(results.data.total)}
      </Badge>
    ) : null;

  return (
    <Stack gap="sm">
      <div role="search" aria-label="Directory search" onKeyDown={searchOnEnter}>
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" verticalSpacing="xs">
          <TextInput label="First name" maxLength={NAME_MAX} data-autofocus {...form.getInputProps('firstName')} />
          <TextInput label="Last name" maxLength={NAME_MAX} {...form.getInputProps('lastName')} />
          <TextInput label="Organization name" maxLength={NAME_MAX} {...form.getInputProps('organizationName')} />
          <TextInput label="City" maxLength={NAME_MAX} {...form.getInputProps('city')} />
          {/* Forced selection: typed text that matches no state is cleared when the field is left. */}
          <Select label="State" data={stateOptions} searchable clearable nothingFoundMessage="No state matches." {...form.getInputProps('state')} />
          <TextInput
            label="Zip"
            inputMode="numeric"
            maxLength={ZIP_MAX}
            {...form.getInputProps('zip')}
            onChange={(event) => form.setFieldValue('zip', event.currentTarget.value.replace(/\D/g, '').slice(0, ZIP_MAX))}
          />
        </SimpleGrid>
        <Group justify="space-between" align="center" mt="sm" wrap="nowrap">
          <Text size="sm" c="red" role="alert">
            {needsValue ? directoryMessages.searchNeedsValue : null}
          </Text>
          <Button onClick={search} style={{ flex: 'none' }}>
            Search
          </Button>
        </Group>
      </div>

      <Tabs value={tab} onChange={(value) => setTab(value === 'organizations' ? 'organizations' : 'providers')}>
        <Tabs.List>
          <Tabs.Tab value="providers" rightSection={count(providers)}>
            Providers
          </Tabs.Tab>
          <Tabs.Tab value="organizations" rightSection={count(organizations)}>
            Organizations
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="providers">
          <DirectoryResults tab="providers" searched={criteria !== null} query={providers} selection={selection} />
        </Tabs.Panel>
        <Tabs.Panel value="organizations">
          <DirectoryResults tab="organizations" searched={criteria !== null} query={organizations} selection={selection} />
        </Tabs.Panel>
      </Tabs>

      <Group justify="space-between" gap="sm">
        <Anchor component="button" type="button" size="sm" onClick={() => onInvite(typedName())}>
          {directoryMessages.notFoundLink}
        </Anchor>
        {onSelect ? (
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={select} disabled={chosen.size === 0}>
              {chosen.size > 0 ? `Select (${chosen.size})` : 'Select'}
            </Button>
          </Group>
        ) : (
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        )}
      </Group>
    </Stack>
  );
}
