import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { ActionIcon, Badge, Box, Button, Center, Checkbox, CopyButton, Group, HoverCard, Loader, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { formatFaxNumber } from '@clinicrelay/contracts/addresses.ts';
import { POPOVER_DELAY_MS } from '@clinicrelay/contracts/constants.ts';
import { directoryMessages, type DirectoryEntry } from '@clinicrelay/contracts/directory.ts';
import type { DirectorySearchQuery, DirectoryTab } from '../../api/directory.ts';
import { EmptyState } from '../empty-state.tsx';
import { errorDetails } from '../error-details.ts';
import { TruncatedText } from '../truncated-text.tsx';
import { entryAffiliation, entryName, entryPlace } from './directory-text.ts';

// Texts the spec does not word: before the first search, and a tab with no match.
export const directoryTexts = {
  beforeSearch: 'Search by name, organization, city, state or zip to find a provider’s Direct address.',
  // An empty result says what to try next: fewer fields, shorter prefixes, or an invitation.
  empty: {
    providers: 'No providers match your search. Try fewer fields or the first letters of a name, or invite the provider below.',
    organizations: 'No organizations match your search. Try fewer fields or the first letters of the name, or invite the organization below.',
  },
  loadMoreFailed: 'More results could not be loaded.',
} as const;

const tabLabels = { providers: 'Providers', organizations: 'Organizations' } as const;

// The list scrolls inside the dialog, which keeps the search form and buttons in view at 1440×900 and below.
const LIST_HEIGHT = 'max(12rem, calc(100dvh - 32rem))';

export interface DirectorySelection {
  /** Rows can be checked (the dialog was opened with onSelect). */
  enabled: boolean;
  isSelected: (address: string) => boolean;
  toggle: (address: string, checked: boolean) => void;
}

export interface DirectoryResultsProps {
  tab: DirectoryTab;
  /** A search has been made; until then the list explains what to do. */
  searched: boolean;
  query: DirectorySearchQuery;
  selection: DirectorySelection;
}

/** One tab's results: 10 at a time, the next 10 asked for when the end of the list scrolls into view. */
export function DirectoryResults({ tab, searched, query, selection }: DirectoryResultsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const sentinelRef = useRef<HTMLDivElement>(null);
  useLoadMoreWhenSeen(sentinelRef, scrollRef, query);
  const items = query.data?.items ?? [];

  let content: ReactNode;
  if (!searched) content = <EmptyState text={directoryTexts.beforeSearch} />;
  else if (query.isPending)
    content = (
      <Center py="xl">
        <Loader aria-label="Searching the directory" />
      </Center>
    );
  else if (query.isError && items.length === 0) content = <EmptyState text={errorDetails(query.error).message} />;
  else if (items.length === 0) content = <EmptyState text={directoryTexts.empty[tab]} />;
  else
    content = (
      <>
        <Box component="ul" aria-label={tabLabels[tab]} m={0} p={0} style={{ listStyle: 'none' }}>
          {items.map((entry) => (
            <DirectoryRow key={entry.id} entry={entry} selection={selection} />
          ))}
        </Box>
        {query.hasNextPage && <div ref={sentinelRef} style={{ height: 1 }} />}
        {query.isFetchingNextPage && (
          <Center py="sm">
            <Loader size="sm" aria-label="Loading more results" />
          </Center>
        )}
        {query.isFetchNextPageError && (
          <Group justify="center" gap="xs" py="sm">
            <Text size="sm" c="red">
              {directoryTexts.loadMoreFailed}
            </Text>
            <Button size="compact-sm" variant="default" onClick={() => void query.fetchNextPage()}>
              Try again
            </Button>
          </Group>
        )}
      </>
    );

  return (
    <Box ref={scrollRef} h={LIST_HEIGHT} style={{ overflowY: 'auto', overflowX: 'hidden' }}>
      {content}
    </Box>
  );
}

// Watches the element after the last row; re-armed after every page, so a list shorter than its box keeps filling.
function useLoadMoreWhenSeen(sentinelRef: RefObject<HTMLElement | null>, rootRef: RefObject<HTMLElement | null>, query: DirectorySearchQuery) {
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = query;
  const loaded = query.data?.items.length ?? 0;
  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !hasNextPage || isFetchingNextPage || isFetchNextPageError) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { root: rootRef.current, rootMargin: '0px 0px 80px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [sentinelRef, rootRef, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage, loaded]);
}

function DirectoryRow({ entry, selection }: { entry: DirectoryEntry; selection: DirectorySelection }) {
  const name = entryName(entry);
  const affiliation = entryAffiliation(entry);
  const { street, city } = entryPlace(entry);
  const place = [street, city].filter(Boolean).join(', ');
  const address = entry.directAddress?.trim() || null;

  return (
    <Box
      component="li"
      py="xs"
      style={{
        display: 'grid',
        gridTemplateColumns: selection.enabled ? '1.25rem minmax(0, 1fr) auto' : 'minmax(0, 1fr) auto',
        columnGap: 'var(--mantine-spacing-sm)',
        alignItems: 'start',
        borderBottom: '1px solid var(--mantine-color-default-border)',
      }}
    >
      {/* Only an entry with a Direct address can be sent to, so only it can be chosen. */}
      {selection.enabled &&
        (address ? (
          <Checkbox
            mt={2}
            aria-label={`Select ${name}`}
            checked={selection.isSelected(address)}
            onChange={(event) => selection.toggle(address, event.currentTarget.checked)}
          />
        ) : (
          <span />
        ))}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing={2} miw={0}>
        <Stack gap={0} miw={0}>
          <Group gap={6} wrap="nowrap" miw={0}>
            <TruncatedText text={name} size="sm" fw={600} miw={0} />
            {entry.hosted && (
              <Badge size="xs" variant="light" style={{ flex: 'none' }}>
                Hosted here
              </Badge>
            )}
          </Group>
          {affiliation && <TruncatedText text={affiliation} size="xs" c="dimmed" />}
        </Stack>
        <Stack gap={0} miw={0}>
          {address ? (
            <Group gap={4} wrap="nowrap" miw={0}>
              <TruncatedText text={address} size="sm" miw={0} />
              <CopyAddressButton address={address} />
            </Group>
          ) : (
            <Text size="sm" c="dimmed" fs="italic">
              {directoryMessages.noDirectAddress}
            </Text>
          )}
          {place && <TruncatedText text={place} size="xs" c="dimmed" />}
        </Stack>
      </SimpleGrid>
      <PhoneCard entry={entry} />
    </Box>
  );
}

function CopyAddressButton({ address }: { address: string }) {
  return (
    <CopyButton value={address}>
      {({ copied, copy }) => (
        <Tooltip label={copied ? 'Copied' : 'Copy Direct address'} openDelay={POPOVER_DELAY_MS} withArrow>
          <ActionIcon variant="subtle" size="sm" color={copied ? 'teal' : 'gray'} aria-label="Copy Direct address" onClick={copy} style={{ flex: 'none' }}>
            {copied ? <CheckIcon /> : <CopyIcon />}
          </ActionIcon>
        </Tooltip>
      )}
    </CopyButton>
  );
}

// Opens on hover or keyboard focus after the spec's popover delay (end-user §9), and on a tap; a missing number reads 'not listed'.
function PhoneCard({ entry }: { entry: DirectoryEntry }) {
  const numbers = [
    ['Phone', entry.phonePrimary],
    ['Fax', entry.fax],
  ] as const;
  return (
    <HoverCard openDelay={POPOVER_DELAY_MS} position="left" withArrow shadow="md" role="tooltip" events={{ hover: true, focus: true, touch: true }}>
      <HoverCard.Target>
        <ActionIcon variant="subtle" color="gray" aria-label="Phone and fax">
          <PhoneIcon />
        </ActionIcon>
      </HoverCard.Target>
      <HoverCard.Dropdown>
        {numbers.map(([label, number]) => (
          <Text key={label} size="sm">
            {label}: {number ? formatFaxNumber(number) : 'not listed'}
          </Text>
        ))}
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

const iconProps = { width: 16, height: 16, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, 'aria-hidden': true } as const;

function PhoneIcon() {
  return (
    <svg {...iconProps}>
      <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1 1 .4 1.9.7 2.8a2 2 0 0 1-.5 2.1L8 9.9a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.4c.9.3 1.8.6 2.8.7a2 2 0 0 1 1.7 2z" />
    </svg>
  );
}

function CopyIcon() {
  return (
    <svg {...iconProps}>
      <rect x="9" y="9" width="13" height="13" rx="2" />
      <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
    </svg>
  );
}

function CheckIcon() {
  return (
    <svg {...iconProps}>
      <path d="M20 6 9 17l-5-5" />
    </svg>
  );
}
