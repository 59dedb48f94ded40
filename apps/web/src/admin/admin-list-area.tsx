import type { ReactNode } from 'react';
import { useState } from 'react';
import { ActionIcon, Button, Group, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { usePageTitle } from '../app/page-title.ts';
import { ConfirmModal } from '../components/confirm-modal.tsx';
import { EntityModal } from '../components/entity-modal.tsx';
import { ListPage, type ListColumn } from '../components/list-page.tsx';
import { useListState, type ListState, type ListStatePatch } from '../components/list-state.ts';

// One back-office list area (issue 11): a ListPage of rows with Edit and Delete per row, an Add button, the
// EntityModal for both, and the ConfirmModal for deletes. An area describes its columns, how to fetch a page, its
// form and its calls; nothing else is written per area.

export interface AdminListAreaProps<Row extends { id: string | number }, Values extends object> {
  title: string;
  /** "reserved word": the modal titles say "Add reserved word", "Edit reserved word". */
  entityName: string;
  /** The react-query key of every list of the area; saves and deletes refresh them. */
  queryKey: readonly unknown[];
  columns: ListColumn<Row>[];
  /** One page of the list for the list state (and the area's own filters, held in `filters`). */
  fetchPage: (state: ListState, signal: AbortSignal) => Promise<{ items: Row[]; totalCount: number }>;
  /** Filters beside the search box; their values go in the query key. */
  filters?: { key: unknown; controls: ReactNode };
  /** The EntityModal's form; absent when the area edits on a page of its own (see onAdd and onEdit). */
  form?: {
    schema: z.ZodType<Values>;
    blank: Values;
    valuesOf: (row: Row) => Values;
    /** The fields, given the row being edited (null when adding), e.g. to show its stored logo. */
    fields: (form: UseFormReturnType<Values>, row: Row | null) => ReactNode;
    /** EntityModal's liveValidation: Save disabled while invalid, with the invalid-fields text. */
    liveValidation?: { invalidText: string };
  };
  create?: (values: Values) => Promise<unknown>;
  update?: (row: Row, values: Values) => Promise<unknown>;
  /** Add and Edit open an edit page instead of the modal (an entity with tabs, as organizations). */
  onAdd?: () => void;
  onEdit?: (row: Row) => void;
  /** More header buttons, after Add. */
  headerActions?: ReactNode;
  /** Absent: the rows have no Delete (users are disabled, never deleted). */
  remove?: (row: Row) => Promise<unknown>;
  /** The list state a bare URL means, e.g. the default sort column. */
  listDefaults?: ListStatePatch;
  /** How a row is named in its buttons' labels and the delete prompt. */
  rowName: (row: Row) => string;
  messages: { saved: string; deleted: string };
  emptyText?: string;
  /** More buttons of a row, before Edit and Delete. */
  rowActions?: (row: Row) => ReactNode;
  /** The actions column's width when rowActions holds several buttons. */
  actionsWidth?: number;
  /** The delete prompt; "Delete {name}? This cannot be undone." by default. */
  deletePrompt?: (shortName: string, row: Row) => string;
  /** The delete prompt's buttons; Cancel and Delete by default (partners: No and Yes). */
  deleteLabels?: { cancel: string; confirm: string };
  /** A list inside a page (a tab of an edit page): it leaves the page's title alone and heads a section. */
  embedded?: boolean;
  /** Whether a row offers Edit and Delete (all rows by default); its rowActions show either way. */
  rowEditable?: (row: Row) => boolean;
  /** Whether a row offers Delete, when that differs from rowEditable (terms documents: never edited, sometimes deleted). */
  rowDeletable?: (row: Row) => boolean;
  /** The search box's debounce when the spec names one (back-office-b §9). */
  searchDebounceMs?: number;
  /** The EntityModal's size (a JSON editor needs room). */
  modalSize?: 'sm' | 'md' | 'lg' | 'xl';
  /** The EntityModal's failure toast (back-office-b §8 'Error updating …'). */
  saveFailureMessage?: string;
}

type Editing<Row> = { row: Row | null } | null;

// back-office-a §2: the delete prompt cuts the name at 20 characters with an ellipsis.
const PROMPT_NAME_MAX = 20;
const promptName = (name: string) => (name.length > PROMPT_NAME_MAX ? `${name.slice(0, PROMPT_NAME_MAX).trimEnd()}…` : name);

export function AdminListArea<Row extends { id: string | number }, Values extends object>(props: AdminListAreaProps<Row, Values>) {
  const { title, entityName, queryKey, columns, fetchPage, filters, form, rowName, messages } = props;
  usePageTitle(props.embedded ? null : title);
  const [state, setState] = useListState(props.listDefaults);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: [...queryKey, 'list', state, filters?.key ?? null],
    queryFn: ({ signal }) => fetchPage(state, signal),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<Editing<Row>>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey });
  const remove = useMutation({ mutationFn: (row: Row) => props.remove?.(row) ?? Promise.resolve(), onSuccess: refresh });

  const actions: ListColumn<Row> = {
    key: 'actions',
    header: 'Actions',
    width: props.actionsWidth ?? (props.rowActions ? 150 : 110),
    render: (row) => (
      <Group gap={4} wrap="nowrap">
        {props.rowActions?.(row)}
        {props.rowEditable?.(row) !== false && (
          <Tooltip label="Edit" withArrow>
            <ActionIcon variant="subtle" aria-label={`Edit ${rowName(row)}`} onClick={() => (props.onEdit ? props.onEdit(row) : setEditing({ row }))}>
              <PencilIcon />
            </ActionIcon>
          </Tooltip>
        )}
        {props.remove && (props.rowDeletable ?? props.rowEditable)?.(row) !== false && (
          <Tooltip label="Delete" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${rowName(row)}`} onClick={() => setDeleting(row)}>
              <TrashIcon />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    ),
  };

  const row = editing?.row ?? null;
  return (
    <>
      <ListPage
        title={title}
        titleOrder={props.embedded ? 3 : 1}
        columns={[...columns, actions]}
        query={{ items: list.data?.items, totalCount: list.data?.totalCount, isLoading: list.isLoading, error: list.error }}
        state={state}
        onStateChange={setState}
        toolbar={filters?.controls}
        emptyText={props.emptyText}
        searchDebounceMs={props.searchDebounceMs}
        actions={
          <Group gap="xs">
            <Button onClick={() => (props.onAdd ? props.onAdd() : setEditing({ row: null }))}>{`Add ${entityName}`}</Button>
            {props.headerActions}
          </Group>
        }
      />
      {form && (
        <EntityModal<Values>
          opened={editing !== null}
          onClose={() => setEditing(null)}
          entityName={entityName}
          entity={row ? { ...form.valuesOf(row), id: row.id } : form.blank}
          schema={form.schema}
          successMessage={messages.saved}
          size={props.modalSize}
          failureMessage={props.saveFailureMessage}
          {...(form.liveValidation ? { liveValidation: form.liveValidation } : {})}
          onSubmit={async (values) => {
            await (row ? props.update?.(row, values) : props.create?.(values));
            await refresh();
          }}
        >
          {(entityForm) => form.fields(entityForm, row)}
        </EntityModal>
      )}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${entityName}`}
        message={deleting && (props.deletePrompt ?? ((name: string) => `Delete ${name}? This cannot be undone.`))(promptName(rowName(deleting)), deleting)}
        confirmLabel={props.deleteLabels?.confirm ?? 'Delete'}
        cancelLabel={props.deleteLabels?.cancel}
        danger
        successMessage={messages.deleted}
        onConfirm={() => deleting && remove.mutateAsync(deleting)}
      />
    </>
  );
}

export function PencilIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.121 2.121 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M3 6h18" />
      <path d="M8 6V4h8v2" />
      <path d="M19 6l-1 14H6L5 6" />
    </svg>
  );
}
