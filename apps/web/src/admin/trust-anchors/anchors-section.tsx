import { FileInput, Stack, Text, TextInput } from '@mantine/core';
import { z } from 'zod';
import {
  ANCHOR_FILE_EXTENSIONS,
  TRUST_NAME_MAX,
  trustAnchorFields,
  trustAnchorMessages as text,
  withDirection,
  type TrustAnchorListItem,
} from '@clinicrelay/contracts/trust-anchors.ts';
import { formatDate } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';
import { addAnchor, deleteAnchor, fetchAnchors, trustKeys, updateAnchor } from './api.ts';
import { DirectionBadges, DomainCell, ScopeFields } from './scope-fields.tsx';

// The certificate file is asked for when adding only; the EntityModal puts the edited row's id in the values.
const formSchema = withDirection(
  trustAnchorFields.extend({
    file: z.custom<File | null>((value) => value === null || value instanceof File),
    id: z.unknown().optional(),
  }),
).refine((values) => values.id != null || values.file instanceof File, { message: text.anchorFileRequired, path: ['file'] });
type Values = z.output<typeof formSchema>;

const columns: ListColumn<TrustAnchorListItem>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'subject', header: 'Subject', render: (row) => <Text size="sm">{row.subject}</Text> },
  { key: 'domain', header: 'Domain', render: (row) => <DomainCell domain={row.domain} /> },
  { key: 'directions', header: 'Trusted for', width: 190, render: (row) => <DirectionBadges row={row} /> },
  {
    key: 'notAfter',
    header: 'Expires',
    width: 110,
    render: (row) => (
      <Text size="sm" c={row.expired ? 'var(--mantine-color-error)' : undefined}>
        {formatDate(row.notAfter)}
      </Text>
    ),
  },
  { key: 'source', header: 'Source', render: (row) => row.bundleName ?? 'Added by hand' },
];

/** The anchors list: CAs added by hand (editable) and those of the bundles (changed through their bundle). */
export function AnchorsSection() {
  return (
    <AdminListArea<TrustAnchorListItem, Values>
      embedded
      title="Anchors"
      entityName="anchor"
      queryKey={trustKeys.anchors()}
      columns={columns}
      fetchPage={fetchAnchors}
      form={{
        schema: formSchema,
        blank: { name: '', domain: '', incoming: true, outgoing: true, file: null },
        valuesOf: (row) => ({ name: row.name, domain: row.domain ?? '', incoming: row.incoming, outgoing: row.outgoing, file: null }),
        fields: (form, row) => (
          <Stack gap="sm">
            <TextInput label="Name" required maxLength={TRUST_NAME_MAX} data-autofocus {...form.getInputProps('name')} />
            {row ? (
              <Text size="sm">{row.subject}</Text>
            ) : (
              <FileInput
                label="File"
                description="The certificate authority's certificate, DER or PEM."
                required
                accept={ANCHOR_FILE_EXTENSIONS.join(',')}
                placeholder="Choose a .cer, .crt, .der or .pem file"
                clearable
                clearButtonProps={{ 'aria-label': 'Clear file' }}
                {...form.getInputProps('file')}
              />
            )}
            <ScopeFields form={form} />
          </Stack>
        ),
      }}
      create={(values) => addAnchor({ ...values, file: values.file! })}
      update={(row, values) => updateAnchor(row.id, values)}
      remove={(row) => deleteAnchor(row.id)}
      rowName={(row) => row.name}
      rowEditable={(row) => row.bundleId === null}
      messages={{ saved: text.anchorSaved, deleted: text.anchorDeleted }}
      emptyText="No trust anchors yet."
    />
  );
}
