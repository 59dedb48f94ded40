import { Anchor, Badge, Button, Group, Menu, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { processedTypes } from '@clinicrelay/contracts/intake.ts';
import { usePlanGuard } from '../../app/plan-guard.tsx';
import type { Message } from '@clinicrelay/contracts/messages.ts';
import { GearTaskList } from './gear-task-list.tsx';
import { exportLabels, type ExportKind } from './intake-export.ts';
import { docStatusBadge, processedTypeLabels, statusColor, statusPill } from './intake-text.ts';
import type { ProcessType } from './api.ts';

export interface IntakeMessageHeaderProps {
  message: Message;
  isAdministrator: boolean;
  processing: boolean;
  onProcess: (type: ProcessType | null) => void;
  onPrint: () => void;
  onExport: (kind: ExportKind) => void;
  onOpen: (modal: 'triage' | 'activity' | 'delete') => void;
}

/** The message's subject, its state as one badge each, and what can be done with it. */
export function IntakeMessageHeader({ message, isAdministrator, processing, onProcess, onPrint, onExport, onOpen }: IntakeMessageHeaderProps) {
  const pill = statusPill(message.status);
  const badge = docStatusBadge(message);
  // end-user §6: on the Stay Connected plan, forward/reply, triage and CDA export show the upgrade prompt.
  const plan = usePlanGuard();
  return (
    <Stack gap="xs">
      {plan.prompt}
      <Anchor component={Link} to="/intake" size="sm" w="fit-content">
        ← Intake
      </Anchor>
      <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
        {message.subject || '(no subject)'}
      </Title>
      <Group justify="space-between" align="center" gap="xs">
        <Group gap="xs" aria-label="Message state" role="group">
          {pill && (
            <Badge variant="light" radius="xl" tt="none" color={statusColor(message.status)}>
              {pill}
            </Badge>
          )}
          <Badge variant="outline" tt="none" color={badge.color}>
            {badge.detail}
          </Badge>
        </Group>
        <Group gap="xs">
          <Menu withinPortal>
            <Menu.Target>
              <Button loading={processing}>Process</Button>
            </Menu.Target>
            <Menu.Dropdown>
              {processedTypes.map((type) => (
                <Menu.Item key={type} onClick={() => onProcess(type)}>
                  {processedTypeLabels[type]}
                </Menu.Item>
              ))}
              {message.isProcessed && (
                <>
                  <Menu.Divider />
                  <Menu.Item onClick={() => onProcess(null)}>Unprocess</Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
          {message.sourceType !== 'Triage' && (
            <Button component={Link} to={`/release/reply/${message.id}`} variant="default" onClick={plan.intercept('ForwardReply')}>
              Reply
            </Button>
          )}
          <Button component={Link} to={`/release/forward/${message.id}`} variant="default" onClick={plan.intercept('ForwardReply')}>
            Forward
          </Button>
          <Button variant="default" onClick={() => plan.guard('Triage', () => onOpen('triage'))}>
            Triage
          </Button>
          {/* Named apart from the viewer's own Print, which prints only the document on screen. */}
          <Button variant="default" aria-label="Print message" onClick={onPrint}>
            Print
          </Button>
          <Menu withinPortal>
            <Menu.Target>
              <Button variant="default">Export</Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(Object.keys(exportLabels) as ExportKind[]).map((kind) => (
                <Menu.Item key={kind} onClick={() => (kind === 'StructuredExport' ? plan.guard('CdaDownload', () => onExport(kind)) : onExport(kind))}>
                  {exportLabels[kind]}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {isAdministrator && (
            <Button variant="default" onClick={() => onOpen('activity')}>
              Activity
            </Button>
          )}
          <Button variant="default" color="red" onClick={() => onOpen('delete')}>
            Delete
          </Button>
          <GearTaskList />
        </Group>
      </Group>
    </Stack>
  );
}
