import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Center, Grid, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { intakeMessages } from '@clinicrelay/contracts/intake.ts';
import { splitAddresses, type Message } from '@clinicrelay/contracts/messages.ts';
import { isPrintExportMode, visitFieldsEnabled } from '@clinicrelay/contracts/organization-settings.ts';
import { ApiError } from '../../api/client.ts';
import { useOrganizationSettings } from '../../api/organization-settings.ts';
import { usePageTitle } from '../../app/page-title.ts';
import { useSession } from '../../app/session-context.ts';
import { errorDetails } from '../../components/error-details.ts';
import { displayAddress } from '@clinicrelay/contracts/addresses.ts';
import { formatDateTime } from '../../components/format.ts';
import { MessageActivityModal } from '../../components/message-activity-modal.tsx';
import { notifyError, notifySuccess } from '../../components/notify.ts';
import { ReadOnlyField } from '../../components/read-only-field.tsx';
import { useIntakeMessage, useMarkRead, useProcessMessage, useUpdateAttachments, type ProcessType } from './api.ts';
import { ConfirmAttachmentsModal } from './confirm-attachments-modal.tsx';
import { DeleteMessageModal } from './delete-message-modal.tsx';
import { useGearTasks } from './gear-task-list.tsx';
import { useIntakeHub } from './hub.ts';
import { IntakeAttachments, type Attachment } from './intake-attachments.tsx';
import { IntakeDocumentPane } from './intake-document-pane.tsx';
import { runExport, isStructured, type ExportKind } from './intake-export.ts';
import { IntakeMessageHeader } from './intake-message-header.tsx';
import { printAttachments } from './intake-print.ts';
import { intakeSaveTexts } from './intake-text.ts';
import { patientNamesRequired } from './patient-draft.ts';
import { ExtractionFailed, extractPatient } from './patient-extraction.ts';
import { PatientSection } from './patient-section.tsx';
import { TriageModal } from './triage-modal.tsx';
import { usePatientForm } from './use-patient-form.ts';
import { useUnsavedWarning } from './use-unsaved-warning.ts';

interface Notice {
  userId: string;
  text: string;
}
/** What waits for the Confirm Attachments answer. */
type Pending = { kind: 'process'; type: ProcessType } | { kind: 'export'; type: ExportKind } | { kind: 'print' };

// Side by side from Mantine's lg breakpoint (1200 px): at 1280 px and up the document sits beside the message.
const SIDE_BY_SIDE = '(min-width: 75em)';

/** /intake/:id: a received message, its patient and attachments, with who else has it open. */
export function IntakeMessagePage() {
  const { id = '' } = useParams();
  const query = useIntakeMessage(id);
  usePageTitle(query.data ? query.data.subject || '(no subject)' : 'Intake');

  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading message" />
      </Center>
    );
  }
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
  const [taskStore] = useGearTasks();
  const [notices, setNotices] = useState<Notice[]>([]);
  const [modal, setModal] = useState<'triage' | 'activity' | 'delete' | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [extracting, setExtracting] = useState(false);
  // Stays until the next extraction: the user has to check the details against the page.
  const [extractionWarning, setExtractionWarning] = useState<string | null>(null);
  const [viewedId, setViewedId] = useState<string | null>(null);
  const [attachmentsUnsaved, setAttachmentsUnsaved] = useState(false);
  const sideBySide = useMediaQuery(SIDE_BY_SIDE) ?? false;
  const isAdministrator = profile.roles.includes('Administrator');
  // Until the settings arrive (or if they cannot be read) the server's defaults apply: export mode, no visit folder.
  const settings = useOrganizationSettings().data;
  const printMode = settings ? isPrintExportMode(settings) : false;
  const visitEditable = settings ? visitFieldsEnabled(settings) : false;
  const namesRequired = patientNamesRequired(settings);
  const patient = usePatientForm(message, namesRequired);
  const blocker = useUnsavedWarning(patient.state === 'unsaved' || attachmentsUnsaved);
  const readSent = useRef(false);
  const viewed = message.attachments.find((a) => a.id === viewedId) ?? message.attachments[0];
  const hasDocument = viewed !== undefined;

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
    else if (attachments.length === 0) notifyError(intakeMessages.printFailed);
    // Structured records (the C-CDA) print readable beside the PDFs.
    else printAttachments(message.id, attachments.map((a) => ({ id: a.id, fileName: a.fileName, structured: isStructured(a) })));
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
      setExtractionWarning(null);
      const found = await extractPatient(message.id, attachment.id);
      patient.applyExtraction(found.patient);
      setExtractionWarning(found.warning);
    } catch (error) {
      notifyError(error instanceof ExtractionFailed ? error.message : errorDetails(error).message);
    } finally {
      setExtracting(false);
    }
  };

  const leave = (to: string) => void navigate(to);
  const onAttachmentsUnsaved = useCallback((unsaved: boolean) => setAttachmentsUnsaved(unsaved), []);

  const details = (
    <Card withBorder component="section" aria-label="Message details">
      {/* Addresses get the full width: a long one wraps at its end rather than mid-word. */}
      <Stack gap="xs">
        <ReadOnlyField label="From" value={displayAddress(message.fromAddress)} />
        <ReadOnlyField label="To" value={splitAddresses(message.toAddress).map(displayAddress).join('; ')} />
        <SimpleGrid type="container" cols={{ base: 1, '320px': 2 }} spacing="sm" verticalSpacing="xs">
          <ReadOnlyField label="Received" value={formatDateTime(message.systemReceivedDate ?? message.messageDate ?? message.createdDate)} />
          <ReadOnlyField label="Source" value={message.sourceType ?? ''} />
        </SimpleGrid>
      </Stack>
      {message.body && (
        <Text mt="sm" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {message.body}
        </Text>
      )}
    </Card>
  );

  return (
    <Stack>
      <IntakeMessageHeader
        message={message}
        isAdministrator={isAdministrator}
        processing={process.isPending}
        onProcess={(type) => (type ? start({ kind: 'process', type }) : void doProcess(null))}
        onPrint={() => start({ kind: 'print' })}
        onExport={(kind) => start({ kind: 'export', type: kind })}
        onOpen={setModal}
      />

      {notices.map((notice) => (
        <Alert key={notice.userId} color="yellow" title="Notice!">
          {notice.text}
        </Alert>
      ))}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: hasDocument ? 5 : 12 }} miw={0}>
          <Stack>
            {details}
            {printMode && <Alert color="blue">Your organization is in print export mode: patient and attachment fields are read-only.</Alert>}
            {extractionWarning && (
              <Alert color="yellow" title="Check the patient">
                {extractionWarning}
              </Alert>
            )}
            <PatientSection form={patient} disabled={printMode} visitDisabled={!visitEditable} namesRequired={namesRequired && !printMode} />
            <IntakeAttachments
              message={message}
              viewed={viewed}
              onView={setViewedId}
              onExtract={features.has('PatientExtractionAPI') ? (attachment) => void extract(attachment) : undefined}
              extracting={extracting}
              fieldsReadOnly={printMode}
              onUnsavedChange={onAttachmentsUnsaved}
            />
          </Stack>
        </Grid.Col>
        {hasDocument && (
          <Grid.Col span={{ base: 12, lg: 7 }} miw={0}>
            <IntakeDocumentPane messageId={message.id} attachment={viewed} sticky={sideBySide} />
          </Grid.Col>
        )}
      </Grid>

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
      <TriageModal opened={modal === 'triage'} onClose={() => setModal(null)} message={message} onTriaged={() => leave('/intake')} />
      <DeleteMessageModal opened={modal === 'delete'} onClose={() => setModal(null)} message={message} onDeleted={() => leave('/intake')} />
      {isAdministrator && <MessageActivityModal opened={modal === 'activity'} onClose={() => setModal(null)} messageId={message.id} />}
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Unsaved changes">
        <Stack>
          <Text>{intakeSaveTexts.unsavedChanges}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()}>
              Stay
            </Button>
            <Button color="red" onClick={() => blocker.proceed?.()}>
              Leave
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
