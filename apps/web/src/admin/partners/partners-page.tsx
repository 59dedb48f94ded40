import { Image, TextInput } from '@mantine/core';
import { partnerInput, partnerMessages, type Partner } from '@clinicrelay/contracts/partners.ts';
import { z } from 'zod';
import { deletePartner, fetchPartners, partnerKeys, savePartner } from '../../api/partners.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { LogoInput, logoFile } from '../../components/logo-input.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

// The edit modal holds the name and the logo (§2); `file` is the field the server names in its logo errors.
const partnerForm = z.object({ name: partnerInput.shape.name, file: logoFile });
type Values = z.output<typeof partnerForm>;

const columns: ListColumn<Partner>[] = [
  { key: 'name', header: 'Name', sortable: true },
  {
    key: 'logo',
    header: 'Logo',
    width: 160,
    render: (row) => (row.logo ? <Image src={row.logo} alt={`${row.name} logo`} h={32} w="auto" maw={140} fit="contain" /> : null),
  },
];

/** /admin/partners (back-office-a §2 "Partners"): list with search, sort, paging; edit with name and logo; delete No/Yes. */
export function PartnersPage() {
  return (
    <AdminListArea<Partner, Values>
      title="Partners"
      entityName="partner"
      queryKey={partnerKeys}
      columns={columns}
      fetchPage={fetchPartners}
      form={{
        schema: partnerForm,
        blank: { name: '', file: null },
        valuesOf: (row) => ({ name: row.name, file: null }),
        fields: (form, row) => (
          <>
            <TextInput label="Name" required maxLength={255} data-autofocus {...form.getInputProps('name')} />
            <LogoInput label="Logo" {...form.getInputProps('file')} value={form.values.file} currentUrl={row?.logo ?? null} />
          </>
        ),
      }}
      create={(values) => savePartner({ name: values.name }, values.file)}
      update={(row, values) => savePartner({ id: row.id, name: values.name }, values.file)}
      remove={(row) => deletePartner(row.id)}
      rowName={(row) => row.name}
      messages={{ saved: partnerMessages.saved, deleted: partnerMessages.deleted }}
      deletePrompt={(name) => `Are you sure you want to delete ${name}?`}
      deleteLabels={{ cancel: 'No', confirm: 'Yes' }}
    />
  );
}
