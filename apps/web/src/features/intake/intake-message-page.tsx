import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, Menu, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { intakeMessages, processedTypes } from '@clinicrelay/contracts/intake.ts';
import { releaseMessages, splitAddresses, type Message, type Patient } from '@clinicrelay/contracts/messages.ts';
import { isPrintExportMode, visitFieldsEnabled } from '@clinicrelay/contracts/organization-settings.ts';
import { ApiError } from '../../api/client.ts';
import { useOrganizationSettings } from '../../api/organization-settings.ts';
import { useSession } from '../../app/session-context.ts';
import { errorDetails } from '../../components/error-details.ts';
import { formatDateTime } from '../../components/format.ts';
import { MessageActivityModal } from '../../components/message-activity-modal.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { useIntakeMessage, useMarkRead, useProcessMessage, useSavePatient, useUpdateAttachments, type ProcessType } from './api.ts';
import { ConfirmAttachmentsModal } from './confirm-attachments-modal.tsx';
import { DeleteMessageModal } from './delete-message-modal.tsx';
import { GearTaskList, useGearTasks } from './gear-task-list.tsx';
import { useIntakeHub } from './hub.ts';
import { IntakeAttachments } from './intake-attachments.tsx';
import { exportLabels, runExport, isStructured, type ExportKind } from './intake-export.ts';
import { printAttachments } from './intake-print.ts';
import { docStatus, docStatusColor, processedTypeLabels, statusLabel } from './intake-text.ts';
import { ExtractionFailed, extractPatient, fillEmptyFields, isoToUs, usToIso, type ExtractedField, type PatientDraft } from './patient-extraction.ts';
import { PatientSection } from './patient-section.tsx';
import { TriageModal } from './triage-modal.tsx';
import { ReadOnlyField } from '../../components/read-only-field.tsx';

type Attachment = Message['attachments'][number];
interface Notice {
  userId: string;
  text: string;
}
/** What waits for the Confirm Attachments answer. */
type Pending = { kind: 'process'; type: ProcessType } | { kind: 'export'; type: ExportKind } | { kind: 'print' };

const draftOf = (patient: Patient | null): PatientDraft => ({
  firstName: patient?.firstName ?? '',
  middleName: patient?.middleName ?? '',
  lastName: patient?.lastName ?? '',
  birthDate: isoToUs(patient?.birthDate),
  gender: patient?.gender ?? '',
  telephone: patient?.telephone ?? '',
  streetAddress1: patient?.streetAddress1 ?? '',
  city: patient?.city ?? '',
  state: patient?.state ?? '',
  postalCode: patient?.postalCode ?? '',
  visitId: patient?.visitId ?? '',
  visitDate: isoToUs(patient?.visitDate),
});

const orNull = (value: string) => value.trim() || null;

/** /intake/:id: a received message, its patient and attachments, with who else has it open. */
export function IntakeMessagePage() {
  const { id = '' } = useParams();
  const query = useIntakeMessage(id);

  if (query.isPending) return <Loader aria-label="Loading message" />;
  if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Stack gap="xs">
        <Title order={1}>Intake message</Title>
        <Alert color="red">{notFound ? 'This message was not found.' : errorDetails(query.error).message}</Alert>
        <Button component={Link} to="/intake" variant="default" w="fit-content">
          Back to Intake
        </Button>
      </Stack>
    );
  }
  return <IntakeMessageView key={query.data.id} message={query.data} />;
}

function IntakeMessageView({ message }: { message: Message }) {
  const { profile, features } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const markRead = useMarkRead();
  const process = useProcessMessage();
  const updateAttachments = useUpdateAttachments();
  const savePatient = useSavePatient();
  const [taskStore] = useGearTasks();
  const [notices, setNotices] = useState<Notice[]>([]);
  const [modal, setModal] = useState<'triage' | 'activity' | 'delete' | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [patient, setPatient] = useState<PatientDraft>(() => draftOf(message.patient));
  const [patientDirty, setPatientDirty] = useState(false);
  const [extracted, setExtracted] = useState<ReadonlySet<ExtractedField>>(new Set());
  const [extracting, setExtracting] = useState(false);
  const isAdministrator = profile.roles.includes('Administrator');
  // Until the settings arrive (or if they cannot be read) the server's defaults apply: export mode, no visit folder.
  const settings = useOrganizationSettings().data;
  const printMode = settings ? isPrintExportMode(settings) : false;
  const visitEditable = settings ? visitFieldsEnabled(settings) : false;
  const readSent = useRef(false);

  // Opening marks the message read, once.
  useEffect(() => {
    if (readSent.current) return;
    readSent.current = true;
    markRead.mutate(message.id);
  }, [markRead, message.id]);

  // Presence (end-user §8 notices): others who open it, or who had it open first.
  const hub = useIntakeHub((event) => {
    if (event.type === 'sync' || event.type === 'authenticated') return;
    if (event.messageId !== message.id || event.userId === profile.userId) return;
    setNotices((current) => {
      const others = current.filter((n) => n.userId !== event.userId);
      if (event.type === 'closeMessage') return others;
      const text = event.type === 'openMessage' ? intakeMessages.openedBy(event.fullName) : intakeMessages.alreadyOpenBy(event.fullName);
      return [...others, { userId: event.userId, text }];
    });
  });
  useEffect(() => {
    hub.openMessage(message.id);
    return () => hub.closeMessage(message.id);
  }, [hub, message.id]);

  const unselected = message.attachments.filter((a) => !a.isSelected);
  const selected = message.attachments.filter((a) => a.isSelected);

  const doProcess = async (type: ProcessType | null) => {
    const status = type ? 'processed' : 'unprocessed';
    try {
      await process.mutateAsync({ id: message.id, body: { isProcessed: type !== null, processType: type } });
      notifySuccess(intakeMessages.statusChanged(status));
    } catch {
      notifyError(intakeMessages.statusChangeFailed(status));
    }
  };

  const run = (action: Pending, attachments: Attachment[]) => {
    if (action.kind === 'process') void doProcess(action.type);
    else if (action.kind === 'export') void runExport({ kind: action.type, message, attachments, tasks: taskStore, queryClient });
    else {
      const printable = attachments.filter((a) => !isStructured(a)).map((a) => a.id);
      if (printable.length === 0) notifyError(intakeMessages.printFailed);
      else printAttachments(message.id, printable);
    }
  };

  // Some attachments unchecked: ask first (Confirm Attachments); otherwise go ahead with all of them.
  const start = (action: Pending) => {
    if (unselected.length > 0 && message.attachments.length > 0) setPending(action);
    else run(action, message.attachments);
  };

  const includeAll = async () => {
    const action = pending;
    setPending(null);
    if (!action) return;
    try {
      await updateAttachments.mutateAsync({ messageId: message.id, changes: unselected.map((a) => ({ id: a.id, isSelected: true })) });
      run(action, message.attachments);
    } catch (error) {
      notifyError(errorDetails(error).message);
    }
  };

  const extract = async (attachment: Attachment) => {
    setExtracting(true);
    try {
      const found = await extractPatient(message.id, attachment.id);
      const { draft, filled } = fillEmptyFields(patient, found);
      setPatient(draft);
      setExtracted(new Set([...extracted, ...filled]));
      if (filled.length > 0) setPatientDirty(true);
    } catch (error) {
      notifyError(error instanceof ExtractionFailed ? error.message : errorDetails(error).message);
    } finally {
      setExtracting(false);
    }
  };

  const save = async () => {
    const birthDate = patient.birthDate.trim() ? usToIso(patient.birthDate) : null;
    if (patient.birthDate.trim() && !birthDate) {
      notifyError(releaseMessages.patientBirthDateInvalid);
      return;
    }
    const visitDate = patient.visitDate.trim() ? usToIso(patient.visitDate) : null;
    if (patient.visitDate.trim() && !visitDate) {
      notifyError(releaseMessages.patientVisitDateInvalid);
      return;
    }
    try {
      await savePatient.mutateAsync({
        id: message.id,
        patient: {
          ...(message.patient ?? { patientIds: [] }),
          firstName: orNull(patient.firstName),
          middleName: orNull(patient.middleName),
          lastName: orNull(patient.lastName),
          birthDate,
          gender: (patient.gender || null) as Patient['gender'],
          telephone: orNull(patient.telephone),
          streetAddress1: orNull(patient.streetAddress1),
          city: orNull(patient.city),
          state: orNull(patient.state),
          postalCode: orNull(patient.postalCode),
          visitId: orNull(patient.visitId),
          visitDate,
        },
      });
      setPatientDirty(false);
      notifySuccess('Patient details saved.');
    } catch (error) {
      notifyError(errorDetails(error).message);
    }
  };

  const status = docStatus(message);
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{message.subject || '(no subject)'}</Title>
          <Group gap="xs">
            <Badge variant="light" radius="xl">
              {statusLabel(message.status)}
            </Badge>
            <Badge variant="outline" color={docStatusColor[status]}>
              {status}
            </Badge>
            {message.isProcessed && message.processedType && (
              <Badge variant="light" color="teal">
                {processedTypeLabels[message.processedType as ProcessType] ?? message.processedType}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs">
          <Menu withinPortal>
            <Menu.Target>
              <Button loading={process.isPending}>Process</Button>
            </Menu.Target>
            <Menu.Dropdown>
              {processedTypes.map((type) => (
                <Menu.Item key={type} onClick={() => start({ kind: 'process', type })}>
                  {processedTypeLabels[type]}
                </Menu.Item>
              ))}
              {message.isProcessed && (
                <>
                  <Menu.Divider />
                  <Menu.Item onClick={() => void doProcess(null)}>Unprocess</Menu.Item>
                </>
              )}
            </Menu.Dropdown>
          </Menu>
          {message.sourceType !== 'Triage' && (
            <Button component={Link} to={`/release/reply/${message.id}`} variant="default">
              Reply
            </Button>
          )}
          <Button component={Link} to={`/release/forward/${message.id}`} variant="default">
            Forward
          </Button>
          <Button variant="default" onClick={() => setModal('triage')}>
            Triage
          </Button>
          {/* Named apart from the viewer's own Print, which prints only the document on screen. */}
          <Button variant="default" aria-label="Print message" onClick={() => start({ kind: 'print' })}>
            Print
          </Button>
          <Menu withinPortal>
            <Menu.Target>
              <Button variant="default">Export</Button>
            </Menu.Target>
            <Menu.Dropdown>
              {(Object.keys(exportLabels) as ExportKind[]).map((kind) => (
                <Menu.Item key={kind} onClick={() => start({ kind: 'export', type: kind })}>
                  {exportLabels[kind]}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          {isAdministrator && (
            <Button variant="default" onClick={() => setModal('activity')}>
              Activity
            </Button>
          )}
          <Button variant="default" color="red" onClick={() => setModal('delete')}>
            Delete
          </Button>
          <GearTaskList />
        </Group>
      </Group>

      {notices.map((notice) => (
        <Alert key={notice.userId} color="yellow" title="Notice!">
          {notice.text}
        </Alert>
      ))}

      <Card withBorder>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <ReadOnlyField label="From" value={message.fromAddress ?? ''} />
          <ReadOnlyField label="To" value={splitAddresses(message.toAddress).join('; ')} />
          <ReadOnlyField label="Received" value={formatDateTime(message.systemReceivedDate ?? message.messageDate ?? message.createdDate)} />
          <ReadOnlyField label="Source" value={message.sourceType ?? ''} />
        </SimpleGrid>
        {message.body && (
          <Text mt="md" style={{ whiteSpace: 'pre-wrap' }}>
            {message.body}
          </Text>
        )}
      </Card>

      {printMode && <Alert color="blue">Your organization is in print export mode: patient and attachment fields are read-only.</Alert>}

      <PatientSection
        value={patient}
        onChange={(next) => {
          setPatient(next);
          setPatientDirty(true);
        }}
        extracted={extracted}
        onSave={() => void save()}
        saving={savePatient.isPending}
        dirty={patientDirty}
        disabled={printMode}
        visitDisabled={!visitEditable}
      />

      <IntakeAttachments
        message={message}
        onExtract={features.has('PatientExtractionAPI') ? (attachment) => void extract(attachment) : undefined}
        extracting={extracting}
        fieldsReadOnly={printMode}
      />

      <ConfirmAttachmentsModal
        opened={pending !== null}
        onClose={() => setPending(null)}
        unselected={unselected}
        onRemove={() => {
          const action = pending;
          setPending(null);
          if (action) run(action, selected);
        }}
        onIncludeAll={() => void includeAll()}
      />
      <TriageModal opened={modal === 'triage'} onClose={() => setModal(null)} message={message} onTriaged={() => void navigate('/intake')} />
      <DeleteMessageModal opened={modal === 'delete'} onClose={() => setModal(null)} message={message} onDeleted={() => void navigate('/intake')} />
      {isAdministrator && <MessageActivityModal opened={modal === 'activity'} onClose={() => setModal(null)} messageId={message.id} />}
    </Stack>
  );
}
