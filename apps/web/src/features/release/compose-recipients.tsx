import { useState } from 'react';
import { Box, Button, Group, Pill, TagsInput, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@clinicrelay/contracts/constants.ts';
import type { RecipientCheck } from '@clinicrelay/contracts/delivery.ts';
import { releaseMessages } from '@clinicrelay/contracts/messages.ts';
import { useDirectoryValidation } from '../../api/directory.ts';
import { addressOwner } from '../../components/directory/directory-text.ts';
import { FindProviderModal } from '../../components/directory/find-provider-modal.tsx';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { useAddressCache, useRecipientCheck } from './api.ts';
import { AddressCacheModal } from './address-cache-modal.tsx';
import type { ComposeValues } from './release-compose-form.ts';
import { isDirectAddress, normalizeAddress } from './release-text.ts';

// A pasted or typed list: "a@x.org; b@y.org, 503-555-0101" and one address a line. Spaces do not
// separate: a fax number is often typed "(503) 555-0101".
const SEPARATORS = /[;,\r\n]+/;

/** The To field (address tags with the cached Direct addresses as suggestions) and the cache's own modal. */
export function ComposeRecipients({ form }: { form: UseFormReturnType<ComposeValues> }) {
  const cache = useAddressCache();
  const [search, setSearch] = useState('');
  const [cacheOpen, setCacheOpen] = useState(false);
  const [finderOpen, setFinderOpen] = useState(false);
  const owners = useToOwners(form.values.to);
  const checks = useToChecks(form.values.to);
  const noted = form.values.to.filter((address) => owners.has(address) || checks.has(address));

  const changeTo = (tags: string[]) => {
    const normalized: string[] = [];
    const invalid: string[] = [];
    for (const typed of tags.flatMap((tag) => tag.split(SEPARATORS)).map((part) => part.trim()).filter(Boolean)) {
      const address = normalizeAddress(typed);
      if (address === null) invalid.push(typed);
      else if (!normalized.includes(address)) normalized.push(address);
    }
    form.setFieldValue('to', normalized);
    form.setFieldError('to', invalid.length === 0 ? null : releaseMessages.addressInvalid);
    // The rejected text stays in the box so it can be corrected.
    setSearch(invalid.join('; '));
  };

  return (
    <div>
      <TagsInput
        label="To"
        withAsterisk
        placeholder="Direct address or fax number"
        description="Press Enter after each address, or paste a list separated by ; or ,"
        value={form.values.to}
        onChange={changeTo}
        searchValue={search}
        onSearchChange={(value) => {
          if (form.errors.to) form.clearFieldError('to');
          // Text that arrives whole (autofill, a filled field) with separators in it becomes tags at once.
          if (SEPARATORS.test(value)) changeTo([...form.values.to, value]);
          else setSearch(value);
        }}
        error={form.errors.to}
        data={(cache.data ?? []).map((entry) => entry.address)}
        limit={15}
        splitChars={[',', ';']}
        acceptValueOnBlur
        renderPill={({ value = '', onRemove, disabled }) => (
          <Pill
            withRemoveButton
            onRemove={onRemove}
            disabled={disabled}
            title={pillTitle(owners.get(value), checks.get(value))}
            bg={undeliverableShade(checks.get(value))}
            style={{ maxWidth: '100%' }}
          >
            {value}
          </Pill>
        )}
      />
      <Group justify="space-between" align="flex-start" wrap="nowrap" mt={4}>
        <Box miw={0}>
          {noted.length > 0 && (
            <Box component="ul" aria-label="Notes on the To addresses" m={0} p={0} style={{ listStyle: 'none' }}>
              {noted.map((address) => {
                const owner = owners.get(address);
                const check = checks.get(address);
                return (
                  // The owner and the check keep their room; a long address gives way first.
                  <Group key={address} component="li" gap={4} wrap="nowrap" align="flex-start" c="dimmed" fz="xs">
                    <TruncatedText size="xs" text={address} miw="10rem" style={{ flex: '0 1 auto' }} />
                    {owner && <TruncatedText size="xs" text={`— ${owner}`} maw="40%" style={{ flex: '0 0 auto' }} />}
                    {check && <CheckNote check={check} separated={!!owner} />}
                  </Group>
                );
              })}
            </Box>
          )}
        </Box>
        <Group gap="xs" wrap="nowrap" style={{ flex: 'none' }}>
          <Button variant="subtle" size="compact-xs" onClick={() => setFinderOpen(true)}>
            Find Provider
          </Button>
          <Button variant="subtle" size="compact-xs" onClick={() => setCacheOpen(true)}>
            Saved Direct addresses
          </Button>
        </Group>
      </Group>
      <AddressCacheModal opened={cacheOpen} onClose={() => setCacheOpen(false)} />
      {/* changeTo drops addresses already in To. */}
      <FindProviderModal opened={finderOpen} onClose={() => setFinderOpen(false)} onSelect={(addresses) => changeTo([...form.values.to, ...addresses])} />
    </div>
  );
}

// Who each Direct address in To belongs to, from the directory: one call for all of them once typing settles.
// A failed check shows no notes: they help the sender, they never stop a send.
function useToOwners(to: string[]): ReadonlyMap<string, string> {
  const [settled] = useDebouncedValue(to.filter(isDirectAddress).join(';'), SEARCH_DEBOUNCE_MS);
  const checks = useDirectoryValidation(settled ? settled.split(';') : []);
  const owners = new Map<string, string>();
  for (const address of to) {
    const check = checks.data?.get(address.toLowerCase());
    const owner = check ? addressOwner(check) : null;
    if (owner) owners.set(address, owner);
  }
  return owners;
}

// Long enough that typing a list of addresses asks once, short enough to answer before Send.
const RECIPIENT_CHECK_DEBOUNCE_MS = 600;

type ToCheck = RecipientCheck | 'checking';

// What the server says of each To address (hosted, trusted, no certificate…), once the tags settle: 'checking'
// while an address waits for its answer. A failed check shows nothing: never a warning the server did not give.
function useToChecks(to: string[]): ReadonlyMap<string, ToCheck> {
  const asked = [...to].sort().join(';');
  const [settled] = useDebouncedValue(asked, RECIPIENT_CHECK_DEBOUNCE_MS);
  const query = useRecipientCheck(settled ? settled.split(';') : []);
  const checks = new Map<string, ToCheck>();
  if (query.isError) return checks;
  for (const address of to) {
    const check = query.data?.get(address.toLowerCase());
    if (check) checks.set(address, check);
    else if (settled !== asked || query.isFetching) checks.set(address, 'checking');
  }
  return checks;
}

// The dot: green for an address a message reaches; orange when no certificate was found (it may be published later);
// red otherwise. The words stay in the row's grey, or a dark red (WCAG AA contrast at 12 px) when it cannot be reached.
const checkColor = (check: RecipientCheck) => (check.deliverable ? 'green.7' : check.status === 'NoCertificate' ? 'orange.6' : 'red.7');

// The To tag of an address the server says cannot be reached is tinted, so it stands out before Send.
const undeliverableShade = (check: ToCheck | undefined) =>
  check && check !== 'checking' && !check.deliverable ? (check.status === 'NoCertificate' ? 'orange.1' : 'red.1') : undefined;

const pillTitle = (owner: string | undefined, check: ToCheck | undefined) =>
  [owner, check && check !== 'checking' ? check.text : undefined].filter(Boolean).join(' — ') || undefined;

// The server's words for one address behind a dot of its colour; a long text wraps instead of being cut.
function CheckNote({ check, separated }: { check: ToCheck; separated: boolean }) {
  const unreachable = check !== 'checking' && !check.deliverable;
  return (
    <Group gap={4} wrap="nowrap" align="flex-start" miw="8rem" style={{ flex: '0 1 auto' }}>
      {separated && <Text size="xs" aria-hidden>·</Text>}
      <Box aria-hidden w={6} h={6} mt={5} bg={check === 'checking' ? 'gray.5' : checkColor(check)} style={{ borderRadius: '50%', flex: 'none' }} />
      <Text size="xs" c={unreachable ? 'red.9' : undefined} fw={unreachable ? 600 : undefined}>
        {check === 'checking' ? 'Checking…' : check.text}
      </Text>
    </Group>
  );
}
