import { Checkbox, SegmentedControl, TextInput } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { referenceDataMessages, reservedWordInput } from '@clinicrelay/contracts/reference-data.ts';
import type { z } from 'zod';
import { createReservedWord, deleteReservedWord, fetchReservedWords, reservedWordKeys, updateReservedWord } from '../../api/reference-data.ts';
import type { ListColumn } from '../../components/list-page.tsx';
import { AdminListArea } from '../admin-list-area.tsx';

type Word = { id: string; name: string; profanity: boolean };

type Values = z.output<typeof reservedWordInput>;

const columns: ListColumn<Word>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'profanity', header: 'Profanity', width: 120 },
];

const kinds = [
  { value: 'all', label: 'All' },
  { value: 'false', label: 'Reserved' },
  { value: 'true', label: 'Profanity' },
];

/** /admin/reservedwords: words no subdomain or reseller URL code may use (back-office-a §2 "Reserved words"). */
export function ReservedWordsPage() {
  const [params, setParams] = useSearchParams();
  const kind = kinds.find((k) => k.value === params.get('profanity'))?.value ?? 'all';
  const profanity = kind === 'all' ? null : kind === 'true';
  return (
    <AdminListArea<Word, Values>
      title="Reserved words"
      entityName="reserved word"
      queryKey={reservedWordKeys}
      columns={columns}
      fetchPage={(state, signal) => fetchReservedWords(state, profanity, signal)}
      filters={{
        key: profanity,
        controls: (
          <SegmentedControl
            aria-label="Kind"
            data={kinds}
            value={kind}
            onChange={(value) =>
              setParams((previous) => {
                const next = new URLSearchParams(previous);
                if (value === 'all') next.delete('profanity');
                else next.set('profanity', value);
                next.delete('page');
                return next;
              })
            }
          />
        ),
      }}
      form={{
        schema: reservedWordInput,
        blank: { name: '', profanity: false },
        valuesOf: (row) => ({ name: row.name, profanity: row.profanity }),
        fields: (form) => (
          <>
            <TextInput label="Name" required maxLength={255} data-autofocus {...form.getInputProps('name')} />
            <Checkbox label="Profanity" {...form.getInputProps('profanity', { type: 'checkbox' })} />
          </>
        ),
      }}
      create={createReservedWord}
      update={(row, values) => updateReservedWord(row.id, values)}
      remove={(row) => deleteReservedWord(row.id)}
      rowName={(row) => row.name}
      messages={{ saved: referenceDataMessages.reservedWordSaved, deleted: referenceDataMessages.reservedWordDeleted }}
    />
  );
}
