import { Anchor, Badge, Box, Group, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import { POPOVER_DELAY_MS } from '@clinicrelay/contracts/constants.ts';
import type { IntakeListItem } from '@clinicrelay/contracts/intake.ts';
import { splitAddresses } from '@clinicrelay/contracts/messages.ts';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { formatDate, formatTime } from '../../components/format.ts';
import { TruncatedText, useOverflowTooltip } from '../../components/truncated-text.tsx';
import type { PresenceEntry } from './hub.ts';
import { ExportIcon, PaperclipIcon, PrinterIcon } from './intake-icons.tsx';
import { docStatusBadge, statusColor, statusPill, truncateSubject } from './intake-text.ts';

// The cells of the Intake list: one line each where the text is long (cut, the rest in a tooltip), so a row
// stays compact and the table fits the page from 1280 px up.

type Row = IntakeListItem;

function OpenBy({ entries }: { entries: readonly PresenceEntry[] | undefined }) {
  if (!entries || entries.length === 0) return null;
  const names = entries.map((e) => e.fullName).join(', ');
  return (
    <Tooltip label={`Open by ${names}`}>
      <Badge size="xs" variant="dot" color="orange" aria-label={`Open by ${names}`} style={{ flexShrink: 0 }}>
        Open
      </Badge>
    </Tooltip>
  );
}

/** Attachment icon and count, then the subject (at most 80 characters, the full text on hover), bold while unread. */
export function SubjectCell({ row, openBy }: { row: Row; openBy: readonly PresenceEntry[] | undefined }) {
  const { overflowing, onMouseEnter } = useOverflowTooltip();
  const shown = truncateSubject(row.subject);
  return (
    <Group gap={6} wrap="nowrap">
      <Box w={30} style={{ flexShrink: 0 }}>
        {row.attachmentCount > 0 && (
          <Group gap={2} wrap="nowrap" aria-label={`${row.attachmentCount} attachments`}>
            <PaperclipIcon />
            <Text size="xs">{row.attachmentCount}</Text>
          </Group>
        )}
      </Box>
      <Tooltip label={row.subject} disabled={shown === row.subject && !overflowing} openDelay={POPOVER_DELAY_MS} multiline maw={480} style={{ overflowWrap: 'anywhere' }}>
        <Anchor component={Link} to={`/intake/${row.id}`} size="sm" fw={row.isRead ? undefined : 700} truncate="end" miw={0} onMouseEnter={onMouseEnter}>
          {shown || '(no subject)'}
        </Anchor>
      </Tooltip>
      <OpenBy entries={openBy} />
    </Group>
  );
}

/** Date over time. */
export function DateCell({ value }: { value: string | null }) {
  return (
    <Stack gap={0}>
      <Text size="sm">{formatDate(value)}</Text>
      <Text size="xs" c="dimmed">
        {formatTime(value)}
      </Text>
    </Stack>
  );
}

/** From over To, fax numbers with dashes (end-user §5). */
export function AddressesCell({ row }: { row: Row }) {
  return (
    <Stack gap={0} miw={0}>
      <VisuallyHidden>From</VisuallyHidden>
      <TruncatedText text={displayAddress(row.fromAddress)} size="sm" />
      <VisuallyHidden>To</VisuallyHidden>
      <TruncatedText text={splitAddresses(row.toAddress).map(displayAddress).join('; ')} size="xs" c="dimmed" />
    </Stack>
  );
}

/** The status pill over the doc status badge, which says how a processed message was processed. */
export function StatusCell({ row }: { row: Row }) {
  const pill = statusPill(row.status);
  const badge = docStatusBadge(row);
  const icon = badge.printed ? <PrinterIcon /> : badge.exported ? <ExportIcon /> : undefined;
  return (
    <Stack gap={4} align="flex-start">
      {pill && (
        <Badge variant="light" radius="xl" tt="none" color={statusColor(row.status)} maw="100%">
          {pill}
        </Badge>
      )}
      <Tooltip label={badge.detail} disabled={badge.detail === badge.short} openDelay={POPOVER_DELAY_MS}>
        <Badge variant="outline" tt="none" color={badge.color} leftSection={icon} maw="100%">
          {badge.short}
        </Badge>
      </Tooltip>
    </Stack>
  );
}
