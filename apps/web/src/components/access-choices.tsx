import { Button, Checkbox, Group, Stack, Text, Title } from '@mantine/core';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { DOCUMENT_SOURCE_STATUS as STATUS, type AdminDocumentSource } from '@clinicrelay/contracts/document-sources.ts';
import type { IntakeRuleView } from '@clinicrelay/contracts/intake.ts';

export interface ChoiceOption {
  value: string;
  label: string;
}

const ADD_ALL = 'Add all';

// Not worded in the spec (issue 13 §2).
export const accessText = {
  sendPermissions: 'Send permissions',
  sendPermissionsHint: 'The addresses and fax numbers this user may send from.',
  intakeRules: 'Intake rules',
  intakeRulesHint: 'The rules that bring received messages to this user’s Intake.',
  noAddresses: 'The organization has no addresses in service.',
  noRules: 'The organization has no intake rules yet.',
} as const;

// A user's send permissions and intake rules as choices (issue 13 §2): removed addresses are not offered, unless the
// user still has one (it is kept unless unticked).
export function accessOptions(sources: AdminDocumentSource[], rules: IntakeRuleView[], keep: string[] = []) {
  const sourceOptions = sources
    .filter((s) => s.status !== STATUS.Deleted || keep.includes(s.id))
    .map((s) => ({ value: s.id, label: `${displayAddress(s.fullAddress)} (${s.type === 'Fax' ? 'fax' : 'Direct'}, ${s.statusName}${s.isGlobal ? ', every user' : ''})` }));
  const ruleOptions = rules.map((r) => ({ value: r.id, label: r.isGlobal ? `${r.name} (every user)` : r.name }));
  return { sourceOptions, ruleOptions };
}

/** A titled checkbox list with an "Add all" button: the one way a user's permissions and rules are picked. */
export function ChoiceGroup({ title, hint, empty, options, value, onChange }: { title: string; hint: string; empty: string; options: ChoiceOption[]; value: string[]; onChange: (next: string[]) => void }) {
  const all = options.map((o) => o.value);
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Button size="compact-xs" variant="light" aria-label={`${ADD_ALL}: ${title}`} disabled={options.length === 0 || all.every((v) => value.includes(v))} onClick={() => onChange([...new Set([...value, ...all])])}>
          {ADD_ALL}
        </Button>
      </Group>
      {options.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Checkbox.Group aria-label={title} description={hint} value={value} onChange={onChange}>
          <Stack gap={6} mt="xs">
            {options.map((o) => (
              <Checkbox key={o.value} value={o.value} label={o.label} />
            ))}
          </Stack>
        </Checkbox.Group>
      )}
    </Stack>
  );
}
