import { useRef, useState } from 'react';
import { ActionIcon, Button, Group, NativeSelect, Popover, Stack, TextInput } from '@mantine/core';
import { DayInput } from './date-range-filter.tsx';

export type FilterOperator = 'equals' | 'contains';

export interface ColumnFilterValue {
  value: string;
  operator: FilterOperator;
}

export type ColumnFilterDefinition =
  | { kind: 'text' }
  | { kind: 'date' }
  | { kind: 'select'; options: { value: string; label: string }[] };

export type ColumnFilterProps = ColumnFilterDefinition & {
  /** Column header, used in the trigger's accessible name "Filter {label}". */
  label: string;
  value: ColumnFilterValue | null;
  onChange: (filter: ColumnFilterValue | null) => void;
};

const operators: { value: FilterOperator; label: string }[] = [
  { value: 'contains', label: 'Contains' },
  { value: 'equals', label: 'Equals' },
];

function FunnelIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <path d="M3 4h18l-7 8v6l-4 2v-8z" />
    </svg>
  );
}

export function ColumnFilter(props: ColumnFilterProps) {
  const { label, value, onChange } = props;
  const [opened, setOpened] = useState(false);
  const [draft, setDraftState] = useState('');
  // Read on submit: Enter in a date field sets the draft in the same keypress that submits the form.
  const draftRef = useRef('');
  const setDraft = (next: string) => {
    draftRef.current = next;
    setDraftState(next);
  };
  const [operator, setOperator] = useState<FilterOperator>('contains');

  const open = () => {
    setDraft(value?.value ?? '');
    setOperator(value?.operator ?? (props.kind === 'text' ? 'contains' : 'equals'));
    setOpened(true);
  };
  const apply = (filter: ColumnFilterValue | null) => {
    setOpened(false);
    onChange(filter);
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-start" trapFocus withArrow>
      <Popover.Target>
        <ActionIcon
          variant={value ? 'filled' : 'subtle'}
          size="sm"
          aria-label={`Filter ${label}`}
          onClick={() => (opened ? setOpened(false) : open())}
        >
          <FunnelIcon />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            // Only text filters choose an operator; dates and choices match exactly.
            const chosen = draftRef.current;
            apply(chosen ? { value: chosen, operator: props.kind === 'text' ? operator : 'equals' } : null);
          }}
        >
          <Stack gap="xs" w={220}>
            {props.kind === 'text' && (
              <>
                <NativeSelect
                  label="Operator"
                  data={operators}
                  value={operator}
                  onChange={(event) => setOperator(event.currentTarget.value as FilterOperator)}
                />
                <TextInput label="Value" value={draft} onChange={(event) => setDraft(event.currentTarget.value)} />
              </>
            )}
            {props.kind === 'date' && (
              <DayInput
                label="Value"
                value={draft || null}
                onChange={(date) => setDraft(date ?? '')}
                // The calendar must stay inside this popover, or clicking a day counts as an outside click.
                popoverProps={{ withinPortal: false }}
              />
            )}
            {props.kind === 'select' && (
              <NativeSelect
                label="Value"
                data={[{ value: '', label: 'Any' }, ...props.options]}
                value={draft}
                onChange={(event) => setDraft(event.currentTarget.value)}
              />
            )}
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={() => apply(null)}>
                Clear
              </Button>
              <Button type="submit">Filter</Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
