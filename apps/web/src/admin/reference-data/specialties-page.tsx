import { TextInput } from '@mantine/core';
import { referenceDataMessages, specialtyInput } from '@clinicrelay/contracts/reference-data.ts';
import type { z } from 'zod';
import { createSpecialty, deleteSpecialty, fetchSpecialties, specialtyKeys, updateSpecialty } from '../../api/reference-data.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

type Specialty = { id: number; name: string };

type Values = z.output<typeof specialtyInput>;

const columns: ListColumn<Specialty>[] = [{ key: 'name', header: 'Name' }];

/** /admin/specialties: the specialties an organization is filed under (back-office-a §2 "Specialties"). */
export function SpecialtiesPage() {
  return (
    <AdminListArea<Specialty, Values>
      title="Organization specialties"
      entityName="specialty"
      queryKey={specialtyKeys}
      columns={columns}
      fetchPage={fetchSpecialties}
      form={{
        schema: specialtyInput,
        blank: { name: '' },
        valuesOf: (row) => ({ name: row.name }),
        fields: (form) => <TextInput label="Name" required maxLength={255} data-autofocus {...form.getInputProps('name')} />,
      }}
      create={createSpecialty}
      update={(row, values) => updateSpecialty(row.id, values)}
      remove={(row) => deleteSpecialty(row.id)}
      rowName={(row) => row.name}
      messages={{ saved: referenceDataMessages.specialtySaved, deleted: referenceDataMessages.specialtyDeleted }}
    />
  );
}
