import { Badge, Stack, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { z } from 'zod';
import {
  DIRECTORY_ENTRY_SEARCH_DEBOUNCE_MS,
  directoryEntryMessages as text,
  parseEntryJson,
  prettyEntryJson,
  type DirectoryServiceEntry,
} from '@clinicrelay/contracts/directory-entries.ts';
import { createDirectoryEntry, deleteDirectoryEntry, directoryEntryKeys, fetchDirectoryEntries, updateDirectoryEntry } from '../../api/directory-entries.ts';
import { formatDateTime } from '../../components/format.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { withFailureToast } from '../../components/notify.ts';
import { AdminListArea } from '../admin-list-area.tsx';
import { InvalidFieldsAlert } from './invalid-fields-alert.tsx';

// back-office-b §5: the editor's text must be a JSON object ('Invalid JSON in directory entry.').
const formSchema = z.object({
  id: z.unknown().optional(),
  json: z.string().refine((value) => parseEntryJson(value) !== null, text.invalidJson),
});
type Values = z.output<typeof formSchema>;

// A new entry starts from the fields the provider directory reads; any other key is kept as given.
const template = {
  entryType: 'Organization',
  organizationName: '',
  directAddress: '',
  npi: '',
  phonePrimary: '',
  fax: '',
  standardizedAddressLine1: '',
  standardizedCity: '',
  standardizedState: '',
  standardizedZip: '',
};
const blank: Values = { json: prettyEntryJson(template) };

// The server's timestamps are not edited: the editor shows the rest, id and tenantId included (PUT names the entry by them).
const valuesOf = ({ createdAt: _created, updatedAt: _updated, ...entry }: DirectoryServiceEntry): Values => ({ json: prettyEntryJson(entry) });

const nameOf = (row: DirectoryServiceEntry) => {
  const field = (key: string) => (typeof row[key] === 'string' ? row[key] : '');
  const name = row.entryType === 'Organization' ? field('organizationName') : [field('lastName'), field('firstName')].filter(Boolean).join(', ');
  return name || row.id;
};

const columns: ListColumn<DirectoryServiceEntry>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (row) => (
      <Stack gap={0}>
        <Text size="sm">{nameOf(row)}</Text>
        <Text size="xs" c="dimmed">
          {row.id}
        </Text>
      </Stack>
    ),
  },
  { key: 'entryType', header: 'Entry type', width: 120 },
  { key: 'directAddress', header: 'Direct address', render: (row) => (typeof row.directAddress === 'string' ? row.directAddress : '') },
  { key: 'tenantId', header: 'Tenant', width: 140 },
  {
    key: 'isSystemGenerated',
    header: 'System generated',
    width: 150,
    render: (row) => (row.isSystemGenerated ? <Badge variant="light">System</Badge> : <Text size="sm">No</Text>),
  },
  { key: 'updatedAt', header: 'Updated', width: 180, render: (row) => formatDateTime(row.updatedAt) },
];

function JsonEditor({ form }: { form: UseFormReturnType<Values> }) {
  return (
    <Stack gap="xs">
      <InvalidFieldsAlert form={form} />
      <Textarea
        label="Directory entry (JSON)"
        description="entryType is Provider (lastName required) or Organization (organizationName required); other keys are kept as written."
        rows={18}
        resize="vertical"
        spellCheck={false}
        data-autofocus
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
        {...form.getInputProps('json')}
        // Pretty-printed again when the editor is left with valid JSON.
        onBlur={() => {
          const parsed = parseEntryJson(form.values.json);
          if (parsed) form.setFieldValue('json', prettyEntryJson(parsed));
          form.validateField('json');
        }}
      />
    </Stack>
  );
}

const entryOfForm = (values: Values) => parseEntryJson(values.json) ?? {};

/** /admin/directory (back-office-b §2 "Directory entries"): the directory service's entries as free JSON. */
export function DirectoryEntriesPage() {
  return (
    <AdminListArea<DirectoryServiceEntry, Values>
      title="Directory"
      entityName="directory entry"
      queryKey={directoryEntryKeys.all}
      columns={columns}
      fetchPage={fetchDirectoryEntries}
      searchDebounceMs={DIRECTORY_ENTRY_SEARCH_DEBOUNCE_MS}
      modalSize="xl"
      saveFailureMessage={text.notUpdated}
      form={{ schema: formSchema, blank, valuesOf, fields: (form) => <JsonEditor form={form} /> }}
      create={(values) => createDirectoryEntry(entryOfForm(values))}
      update={(row, values) => updateDirectoryEntry({ ...entryOfForm(values), id: row.id, tenantId: row.tenantId })}
      remove={(row) => withFailureToast(() => deleteDirectoryEntry(row.tenantId, row.id), text.notDeleted)}
      rowName={nameOf}
      messages={{ saved: text.saved, deleted: text.deleted }}
      deletePrompt={(name) => `Delete the directory entry ${name}? It will no longer be found in the directory.`}
    />
  );
}
