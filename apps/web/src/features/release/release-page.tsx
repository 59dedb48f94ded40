import { useState } from 'react';
import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { activationMessages } from '@clinicrelay/contracts/delivery.ts';
import type { messageListItem } from '@clinicrelay/contracts/messages.ts';
import { useSession } from '../../app/session-context.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { formatDateTime } from '../../components/format.ts';
import { ListPage, type ListColumn } from '../../components/list-page.tsx';
import { useListState } from '../../components/list-state.ts';
import { MultiValueCell } from '../../components/multi-value-cell.tsx';
import { TruncatedText } from '../../components/truncated-text.tsx';
import { useReleaseList, type ReleaseView } from './api.ts';
import { NonPhiFaxModal } from './non-phi-fax-modal.tsx';
import { deliveryStatusColor } from './release-text.ts';

type Row = z.infer<typeof messageListItem>;

// Per-recipient status: what the sender watches move Pending → Delivered, in the server's words on hover
// (a sandbox fax says no real fax was sent).
function RecipientStatus({ row }: { row: Row }) {
  if (row.isDraft) return <Badge color="gray" variant="light">Draft</Badge>;
  if (row.deliveries.length === 0) return <Badge variant="light">{row.status}</Badge>;
  return (
    <Stack gap={2}>
      {row.deliveries.map((d) => (
        <Tooltip key={d.recipient} label={`${d.recipient}: ${d.statusDetail}`} multiline maw={360} style={{ overflowWrap: 'anywhere' }}>
          <Group gap={4} wrap="nowrap">
            <Badge size="sm" color={deliveryStatusColor[d.status]} variant="light" style={{ flexShrink: 0 }}>
              {d.isSimulated ? `${d.status} (sandbox)` : d.status}
            </Badge>
            <Text size="xs" c="dimmed" truncate miw={0}>
              {d.recipient}
            </Text>
            {d.statusDetail !== d.status && <VisuallyHidden>{d.statusDetail}</VisuallyHidden>}
          </Group>
        </Tooltip>
      ))}
    </Stack>
  );
}

// A subject of up to 255 characters: cut to the spec's 80 (end-user §2 "Intake screens"), the full one on hover.
const SUBJECT_SHOWN = 80;

// A fixed layout: the table never runs past the window; subject, To and patient share what the fixed columns leave,
// and below 1200 px the attachment count and the date give their room to the subject, names and status.
const columns: ListColumn<Row>[] = [
  {
    key: 'subject',
    header: 'Subject',
    render: (row) => (
      <Anchor component={Link} to={row.isDraft ? `/release/draft/${row.id}` : `/release/${row.id}`} display="block" aria-label={row.subject || '(no subject)'}>
        <TruncatedText text={row.subject || '(no subject)'} maxChars={SUBJECT_SHOWN} size="sm" inherit span display="block" />
      </Anchor>
    ),
  },
  { key: 'toAddresses', header: 'To', width: '20%', render: (row) => <MultiValueCell values={row.toAddresses} /> },
  {
    key: 'patientName',
    header: 'Patient',
    width: 170,
    render: (row) => (
      // A name wraps whole rather than lose its first name to an ellipsis.
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {row.patientName ?? ''}
      </Text>
    ),
  },
  { key: 'attachmentCount', header: 'Attachments', width: 112, visibleFrom: 'lg' },
  { key: 'status', header: 'Status', width: 180, render: (row) => <RecipientStatus row={row} /> },
  { key: 'updatedDate', header: 'Updated', width: 150, visibleFrom: 'lg', render: (row) => formatDateTime(row.updatedDate) },
];

const views: { value: ReleaseView; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'sent', label: 'Sent' },
  { value: 'drafts', label: 'Drafts' },
];

/** /release: the organization's sent messages and drafts. */
export function ReleasePage() {
  const [state, setState] = useListState({ pageSize: 25 });
  const [params, setParams] = useSearchParams();
  const view = views.find((v) => v.value === params.get('view'))?.value ?? 'all';
  const list = useReleaseList(state, view);
  const { profile } = useSession();
  const [nonPhiOpen, setNonPhiOpen] = useState(false);
  usePageTitle('Release');

  const viewControl = (
    <SegmentedControl
      aria-label="Show"
      w="fit-content"
      data={views}
      value={view}
      onChange={(value) =>
        setParams((previous) => {
          const next = new URLSearchParams(previous);
          if (value === 'all') next.delete('view');
          else next.set('view', value);
          next.delete('page');
          return next;
        })
      }
    />
  );

  const notActivated = activationMessages.sendNotActivated;
  return (
    <>
      <ListPage
        title="Release"
        columns={columns}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        dateRange
        fixedLayout
        actions={
          <Group>
            {viewControl}
            {profile.orgIsActivated ? (
              <>
                <Button variant="default" onClick={() => setNonPhiOpen(true)}>
                  Send Non-PHI Fax
                </Button>
                <Button component={Link} to="/release/new">
                  New message
                </Button>
              </>
            ) : (
              <>
                <Tooltip label={notActivated}>
                  <Button variant="default" data-disabled aria-disabled onClick={(event) => event.preventDefault()}>
                    Send Non-PHI Fax
                  </Button>
                </Tooltip>
                <Tooltip label={notActivated}>
                  <Button data-disabled aria-disabled onClick={(event) => event.preventDefault()}>
                    New message
                  </Button>
                </Tooltip>
              </>
            )}
          </Group>
        }
      />
      <NonPhiFaxModal opened={nonPhiOpen} onClose={() => setNonPhiOpen(false)} />
    </>
  );
}
