import type { ReactNode } from 'react';
import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Loader, Modal, Stack, Table, Text, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { routingRuleMessages as text, shortAddress, type RoutingRule } from '@clinicrelay/contracts/routing-rules.ts';
import { fetchRoutingRule, routingRuleKeys } from '../../api/routing-rules.ts';
import { ConfirmModal } from '../../components/confirm-modal.tsx';
import { EmptyState } from '../../components/empty-state.tsx';
import { EntityModal } from '../../components/entity-modal.tsx';
import { errorDetails } from '../../components/error-details.ts';
import { PencilIcon, TrashIcon } from '../admin-list-area.tsx';

interface Child {
  id: string;
}

export interface RuleChildrenModalProps<Item extends Child, Values extends object> {
  rule: RoutingRule | null;
  onClose: () => void;
  /** "Endpoints", "Sending organizations": the modal's title, before the rule's address. */
  title: string;
  /** "endpoint": "Add endpoint", "Edit endpoint", "Delete endpoint". */
  entityName: string;
  itemsOf: (rule: RoutingRule) => Item[];
  columns: { header: string; render: (item: Item) => ReactNode }[];
  itemName: (item: Item) => string;
  form: { schema: z.ZodType<Values>; blank: Values; valuesOf: (item: Item) => Values; fields: (form: UseFormReturnType<Values>, item: Item | null) => ReactNode };
  save: (rule: RoutingRule, values: Values, item: Item | null) => Promise<unknown>;
  remove: (item: Item) => Promise<unknown>;
  messages: { saved: string; deleted: string };
}

/**
 * A routing rule's endpoints or sending organizations (back-office-b §2 "manage endpoints", "manage senders"): the
 * rule as stored, read while open, with Add, Edit and Delete through EntityModal and ConfirmModal.
 */
export function RuleChildrenModal<Item extends Child, Values extends object>(props: RuleChildrenModalProps<Item, Values>) {
  const { rule, onClose, entityName, columns, form } = props;
  const queryClient = useQueryClient();
  const stored = useQuery({ queryKey: routingRuleKeys.one(rule?.id ?? ''), queryFn: ({ signal }) => fetchRoutingRule(rule!.id, signal), enabled: rule !== null });
  const [editing, setEditing] = useState<{ item: Item | null } | null>(null);
  const [deleting, setDeleting] = useState<Item | null>(null);
  // The grid's counts and this list both follow a change.
  const refresh = () => queryClient.invalidateQueries({ queryKey: routingRuleKeys.all });
  const items = stored.data ? props.itemsOf(stored.data) : [];
  const item = editing?.item ?? null;

  return (
    <>
      <Modal opened={rule !== null} onClose={onClose} title={rule ? `${props.title}: ${shortAddress(rule.address, 40)}` : ''} size="xl">
        <Stack>
          <Group justify="flex-end">
            <Button onClick={() => setEditing({ item: null })}>{`Add ${entityName}`}</Button>
          </Group>
          {stored.error ? <Alert color="red">{errorDetails(stored.error).message}</Alert> : null}
          {stored.isLoading ? (
            <Group justify="center" py="md">
              <Loader size="sm" aria-label="Loading" />
            </Group>
          ) : items.length === 0 ? (
            !stored.error && <EmptyState text={text.noItems(entityName)} />
          ) : (
            <Table striped aria-label={props.title}>
              <Table.Thead>
                <Table.Tr>
                  {columns.map((c) => (
                    <Table.Th key={c.header}>{c.header}</Table.Th>
                  ))}
                  <Table.Th w={100}>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((entry) => (
                  <Table.Tr key={entry.id}>
                    {columns.map((c) => (
                      <Table.Td key={c.header} style={{ overflowWrap: 'anywhere' }}>
                        {c.render(entry)}
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="Edit" withArrow>
                          <ActionIcon variant="subtle" aria-label={`Edit ${props.itemName(entry)}`} onClick={() => setEditing({ item: entry })}>
                            <PencilIcon />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete" withArrow>
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete ${props.itemName(entry)}`} onClick={() => setDeleting(entry)}>
                            <TrashIcon />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Text size="xs" c="dimmed">
            {props.title === 'Endpoints' ? text.endpointsHint : text.sendersHint}
          </Text>
        </Stack>
      </Modal>
      <EntityModal<Values>
        opened={editing !== null}
        onClose={() => setEditing(null)}
        entityName={entityName}
        entity={item ? { ...form.valuesOf(item), id: item.id } : form.blank}
        schema={form.schema}
        successMessage={props.messages.saved}
        liveValidation={{ invalidText: text.invalidFields }}
        onSubmit={async (values) => {
          if (!stored.data) return;
          await props.save(stored.data, values, item);
          await refresh();
        }}
      >
        {(entityForm) => form.fields(entityForm, item)}
      </EntityModal>
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete ${entityName}`}
        message={deleting && `Delete ${props.itemName(deleting)}? This cannot be undone.`}
        confirmLabel="Delete"
        danger
        successMessage={props.messages.deleted}
        onConfirm={async () => {
          if (!deleting) return;
          await props.remove(deleting);
          await refresh();
        }}
      />
    </>
  );
}
