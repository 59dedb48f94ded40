import { Checkbox, MultiSelect, Select, Text, TextInput } from '@mantine/core';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { DOCUMENT_SOURCE_STATUS as STATUS } from '@clinicrelay/contracts/document-sources.ts';
import { intakeRuleCreate, intakeSourceTypes } from '@clinicrelay/contracts/intake.ts';
import { useSession } from '../../app/session-context.ts';
import { EntityModal } from '../../components/entity-modal.tsx';
import { useAllOrganizationSources, useSaveIntakeRule, type IntakeRuleValues, type IntakeRuleView } from './api.ts';
import { settingsText as text } from './settings-text.ts';

interface RuleModalProps {
  opened: boolean;
  onClose: () => void;
  /** The rule to edit, or null for a new one. */
  rule: IntakeRuleView | null;
}

const blank = { id: null, name: '', fromAddress: '', toAddresses: [], sourceType: null, isGlobal: false };

/** Adds or edits an intake rule: a name, an optional external From, the organization's addresses it applies to, a source type, and whether every user gets it. */
export function RuleModal({ opened, onClose, rule }: RuleModalProps) {
  const { profile } = useSession();
  const save = useSaveIntakeRule();
  const sources = useAllOrganizationSources(profile.organizationId ?? '', opened);
  const addresses = (sources.data?.items ?? [])
    .filter((s) => s.status !== STATUS.Deleted || rule?.toAddresses.includes(s.fullAddress))
    .map((s) => ({ value: s.fullAddress, label: displayAddress(s.fullAddress) }));
  // A rule may name an address the organization no longer lists; it stays selectable.
  for (const address of rule?.toAddresses ?? []) if (!addresses.some((a) => a.value === address)) addresses.push({ value: address, label: displayAddress(address) });
  const entity = rule ? { id: rule.id, name: rule.name, fromAddress: rule.fromAddress ?? '', toAddresses: rule.toAddresses, sourceType: rule.sourceType, isGlobal: rule.isGlobal } : blank;
  return (
    <EntityModal<IntakeRuleValues & { id?: string | null }>
      opened={opened}
      onClose={onClose}
      entityName="intake rule"
      entity={entity}
      schema={intakeRuleCreate}
      onSubmit={({ id: _id, ...values }) => save.mutateAsync({ id: rule?.id ?? null, values })}
      successMessage={text.ruleSaved}
    >
      {(form) => (
        <>
          <TextInput label="Name" required maxLength={100} data-autofocus {...form.getInputProps('name')} />
          <TextInput label="From (external)" description="A Direct address or fax number; empty for any sender" maxLength={256} {...form.getInputProps('fromAddress')} />
          <MultiSelect label="Applies to" placeholder={form.values.toAddresses?.length ? undefined : text.anyAddress} data={addresses} clearable searchable {...form.getInputProps('toAddresses')} />
          <Select label="Source type" placeholder="Any" data={[...intakeSourceTypes]} clearable {...form.getInputProps('sourceType')} />
          <Checkbox label={text.ruleGlobal} description={text.ruleGlobalHint} {...form.getInputProps('isGlobal', { type: 'checkbox' })} />
          {/* The schema's "needs a To, a From or a source type" concerns no single field. */}
          {form.errors[''] && (
            <Text c="red" size="sm" role="alert">
              {form.errors['']}
            </Text>
          )}
        </>
      )}
    </EntityModal>
  );
}
